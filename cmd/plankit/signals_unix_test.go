//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plankit/plankit/internal/proctest"
	"github.com/plankit/plankit/report"
)

// TestSignals drives the built plankit binary and sends it real signals:
// at any moment a SIGINT or SIGTERM ends the run with ExitInterrupted,
// writes every requested report (valid, saying the run was interrupted)
// and leaves no adapter process behind; adapter process groups end with
// the adapter on a clean exit too.
func TestSignals(t *testing.T) {
	// Mostly waiting on child processes (it runs plankit as one): overlaps
	// with TestMutantsDocIsFresh.
	t.Parallel()
	plankit := plankitBin(t)
	fake := fakeAdapterBin(t)
	trace := "../../examples/pend-mid-turn-later-turn.yaml"

	t.Run("SIGTERM while the adapter starts: check", func(t *testing.T) {
		w := newWatch(t)
		reps := w.reports()
		p := w.start(plankit, append([]string{"check", "--timeout", "2m", "--adapter", fake + " slow start 60"}, reps.flags()...)...)
		code, out, errs := w.interrupt(p, 1, syscall.SIGTERM)
		if code != ExitInterrupted {
			t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitInterrupted, out, errs)
		}
		if !strings.Contains(errs, "interrupted by SIGTERM") {
			t.Errorf("stderr does not say the run was interrupted:\n%s", errs)
		}
		r := reps.check(t, report.VerdictInterrupted)
		props := 0
		for _, c := range r.Cases {
			if c.Status != report.NotRun {
				t.Errorf("%s: %s, want %s", c.ID, c.Status, report.NotRun)
			}
			if c.Kind == report.KindProperty {
				props++
			}
		}
		if len(r.Cases) < 100 || props == 0 {
			t.Errorf("the report lists %d checks (%d properties); want every check, the properties too", len(r.Cases), props)
		}
		w.noneRunning()
	})

	t.Run("SIGTERM while the adapter starts: sim", func(t *testing.T) {
		w := newWatch(t)
		p := w.start(plankit, "sim", "--timeout", "2m", "--adapter", fake+" slow start 60", trace, trace)
		code, out, errs := w.interrupt(p, 1, syscall.SIGTERM)
		if code != ExitInterrupted || !strings.Contains(errs, "interrupted by SIGTERM") {
			t.Fatalf("exit %d, want %d naming SIGTERM\n%s\n%s", code, ExitInterrupted, out, errs)
		}
		w.noneRunning()
	})

	t.Run("SIGINT mid-check", func(t *testing.T) {
		w := newWatch(t)
		reps := w.reports()
		p := w.start(plankit, append([]string{"check", "--adapter", fake + " ok none"}, reps.flags()...)...)
		code, out, errs := w.interrupt(p, 6, syscall.SIGINT) // several scenarios ran
		if code != ExitInterrupted {
			t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitInterrupted, out, errs)
		}
		r := reps.check(t, report.VerdictInterrupted)
		count := map[string]int{}
		for _, c := range r.Cases {
			count[c.Status]++
		}
		if count[report.Passed] == 0 || count[report.NotRun] == 0 || count[report.Failed] != 0 || count[report.Errored] != 0 {
			t.Errorf("statuses %v: want passed checks before the signal, not-run after, no failure or error", count)
		}
		if !strings.Contains(out, "verdict: interrupted") {
			t.Errorf("the console does not give the verdict:\n%s", out)
		}
		w.noneRunning()
	})

	t.Run("SIGTERM during explore", func(t *testing.T) {
		w := newWatch(t)
		p := w.start(plankit, "explore", "--depth", "30", "--adapter", fake+" ok none")
		code, out, errs := w.interrupt(p, 3, syscall.SIGTERM)
		if code != ExitInterrupted || !strings.Contains(errs, "interrupted by SIGTERM") {
			t.Fatalf("exit %d, want %d naming SIGTERM\n%s\n%s", code, ExitInterrupted, out, errs)
		}
		w.noneRunning()
	})

	t.Run("SIGTERM while lint reads its standard input", func(t *testing.T) {
		// Nothing shows from outside when plankit has installed its
		// handler; a signal that comes before kills it. Try again later
		// then.
		for delay := 100 * time.Millisecond; ; delay *= 2 {
			cmd := exec.Command(plankit, "lint", "-", "../../lint/testdata/dsh/plan-review.jsonl")
			in, err := cmd.StdinPipe() // held open: lint waits for its input
			if err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(delay)
			cmd.Process.Signal(syscall.SIGTERM)
			err = cmd.Wait()
			in.Close()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("lint: %v", err)
			}
			if ee.ExitCode() < 0 && delay < 10*time.Second {
				continue // killed before the handler was installed
			}
			if ee.ExitCode() != ExitInterrupted || !strings.Contains(errb.String(), "interrupted by SIGTERM; 2 of 2 logs not linted (from -)") {
				t.Fatalf("exit %d, want %d naming the logs not linted\n%s\n%s", ee.ExitCode(), ExitInterrupted, out.String(), errb.String())
			}
			return
		}
	})

	t.Run("an adapter that ignores the end of its input and SIGTERM is killed", func(t *testing.T) {
		w := newWatch(t)
		w.run(ExitPass, plankit, "sim", "--timeout", "1s", "--adapter", fake+" deaf start", trace)
		w.noneRunning()

		// Interrupted too.
		w = newWatch(t)
		p := w.start(plankit, "check", "--adapter", fake+" deaf start")
		if code, out, errs := w.interrupt(p, 2, syscall.SIGTERM); code != ExitInterrupted {
			t.Fatalf("exit %d\n%s\n%s", code, out, errs)
		}
		w.noneRunning()
	})

	t.Run("SIGKILL: the adapters die with plankit (linux)", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("only Linux ties a child's life to its parent's (Pdeathsig)")
		}
		// Deaf adapters: the end of their input (plankit's death closes
		// it) does not end them.
		w := newWatch(t)
		p := w.start(plankit, "check", "--adapter", fake+" deaf start")
		w.waitPIDs(3)
		p.signal(syscall.SIGKILL)
		p.cmd.Wait()
		w.noneRunning()
	})

	t.Run("SIGKILL: a wrapped adapter and the descendants that left its group die with plankit (linux)", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("only Linux runs adapters under a guard")
		}
		for _, c := range []struct {
			adapter string
			pids    int
		}{
			// sh -c '…; true' forks the adapter: Pdeathsig on the shell
			// alone would leave the deaf adapter running.
			{"sh -c '" + fake + " deaf start; true'", 3},
			// A child in a session of its own, outside the adapter's group.
			{fake + " setsid start", 4},
		} {
			w := newWatch(t)
			p := w.start(plankit, "check", "--adapter", c.adapter)
			w.waitPIDs(c.pids)
			p.signal(syscall.SIGKILL)
			p.cmd.Wait()
			w.noneRunning()
		}
	})

	t.Run("an adapter's child that left its group ends with it, before plankit exits (linux)", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("only Linux runs adapters under a guard")
		}
		w := newWatch(t)
		w.run(ExitPass, plankit, "sim", "--adapter", fake+" setsid start", trace, trace, trace)
		pids := w.pids()
		if len(pids) < 6 {
			t.Fatalf("%d pids recorded, want 3 adapters and their children (and a spare adapter)", len(pids))
		}
		// Ended at once, not within a delay: plankit waited for them to
		// be ended, and did not wait on the pipes they held.
		for _, pid := range pids {
			if !proctest.Ended(pid) {
				t.Errorf("process %d still runs after plankit exited", pid)
			}
		}
	})

	t.Run("a runtime's child that left its group ends with it, before plankit exits (linux)", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("only Linux runs adapters under a guard")
		}
		w := newWatch(t)
		w.run(ExitPass, plankit, "check", "--level", "runtime", "--tags", "@PEND-8", "--adapter", fakeRuntimeBin(t)+" setsid start")
		pids := w.pids()
		if len(pids) < 4 {
			t.Fatalf("%d pids recorded, want runtimes and their children", len(pids))
		}
		for _, pid := range pids {
			if !proctest.Ended(pid) {
				t.Errorf("process %d still runs after plankit exited", pid)
			}
		}
	})

	t.Run("an adapter's background child does not survive", func(t *testing.T) {
		w := newWatch(t)
		w.run(ExitPass, plankit, "sim", "--adapter", fake+" orphan start", trace)
		if n := len(w.pids()); n < 2 {
			t.Fatalf("%d pids recorded, want the adapter's and its child's", n)
		}
		w.noneRunning()
	})

	t.Run("serve: a 100 MB request line is a bad request, exit 2", func(t *testing.T) {
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		var line []io.Reader
		for range 100 {
			line = append(line, bytes.NewReader(chunk))
		}
		cmd := exec.Command(plankit, "serve")
		cmd.Stdin = io.MultiReader(line...)
		if code, _, errs := runProgram(t, cmd); code != ExitUsage || !strings.Contains(errs, "longer than the limit") {
			t.Fatalf("serve on a 100 MB line: exit %d\n%s", code, errs)
		}
	})

	t.Run("adapter output is escaped before it reaches the terminal", func(t *testing.T) {
		out, errs := newWatch(t).run(ExitImpl, plankit, "sim", "--adapter", fake+" escape start", trace)
		if strings.ContainsAny(out+errs, "\x1b\r\a") || !strings.Contains(errs, `\x1b[2J`) {
			t.Fatalf("control bytes reached the terminal or the escape is missing:\n%q", errs)
		}
	})
}

// watch runs plankit with adapters that record their pids.
type watch struct {
	t    *testing.T
	dir  string
	file string
}

func newWatch(t *testing.T) *watch {
	dir := t.TempDir()
	w := &watch{t: t, dir: dir, file: filepath.Join(dir, "pids")}
	t.Cleanup(func() {
		for _, pid := range w.pids() {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return w
}

func (w *watch) pids() []int {
	b, _ := os.ReadFile(w.file)
	var pids []int
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if !strings.HasSuffix(line, "\n") {
			break // being written
		}
		if n, err := strconv.Atoi(strings.TrimSpace(line)); err == nil && n > 1 {
			pids = append(pids, n)
		}
	}
	return pids
}

// run runs bin with args to its end (within a minute) and fails the test
// unless it exits with want; it returns stdout and stderr.
func (w *watch) run(want int, bin string, args ...string) (string, string) {
	w.t.Helper()
	code, out, errs := w.start(bin, args...).wait(60 * time.Second)
	if code != want {
		w.t.Fatalf("exit %d, want %d\n%s\n%s", code, want, out, errs)
	}
	return out, errs
}

// interrupt sends sig to p once n adapter processes have started, and
// waits for it to exit.
func (w *watch) interrupt(p *running, n int, sig syscall.Signal) (int, string, string) {
	w.t.Helper()
	w.waitPIDs(n)
	p.signal(sig)
	return p.wait(30 * time.Second)
}

// waitPIDs waits until n adapter processes have started.
func (w *watch) waitPIDs(n int) {
	w.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for len(w.pids()) < n {
		if time.Now().After(deadline) {
			w.t.Fatalf("only %d adapter processes started in a minute, want %d", len(w.pids()), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// noneRunning checks that no recorded adapter process (or child of one)
// still runs. Orphans are reaped by init in its own time: a zombie counts
// as ended.
func (w *watch) noneRunning() {
	w.t.Helper()
	for _, pid := range w.pids() {
		if !proctest.EndsWithin(pid, 3*time.Second) {
			w.t.Errorf("adapter process %d still runs after plankit exited", pid)
		}
	}
}

type running struct {
	t        *testing.T
	cmd      *exec.Cmd
	out, err bytes.Buffer
}

func (w *watch) start(bin string, args ...string) *running {
	w.t.Helper()
	if args[0] == "check" {
		args = append(args, "--counterexamples", filepath.Join(w.dir, "cex"))
	}
	r := &running{t: w.t, cmd: exec.Command(bin, args...)}
	r.cmd.Env = append(os.Environ(), "FAKEADAPTER_PIDS="+w.file)
	r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.err
	if err := r.cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() {
		if r.cmd.ProcessState == nil {
			r.cmd.Process.Kill()
			r.cmd.Wait()
		}
	})
	return r
}

func (r *running) signal(sig syscall.Signal) {
	r.t.Helper()
	if err := r.cmd.Process.Signal(sig); err != nil {
		r.t.Fatal(err)
	}
}

// wait returns the exit code, stdout and stderr; it fails the test when
// plankit has not exited within limit.
func (r *running) wait(limit time.Duration) (int, string, string) {
	r.t.Helper()
	done := make(chan error, 1)
	go func() { done <- r.cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		switch {
		case err == nil:
			return 0, r.out.String(), r.err.String()
		case errors.As(err, &ee) && ee.ExitCode() >= 0:
			return ee.ExitCode(), r.out.String(), r.err.String()
		default:
			r.t.Fatalf("plankit: %v\n%s", err, r.err.String())
		}
	case <-time.After(limit):
		r.cmd.Process.Kill()
		<-done
		r.t.Fatalf("plankit did not exit within %v\n%s\n%s", limit, r.out.String(), r.err.String())
	}
	return 0, "", ""
}

func (w *watch) reports() reportFiles {
	return reportFiles{filepath.Join(w.dir, "r.json"), filepath.Join(w.dir, "j.xml"), filepath.Join(w.dir, "c.json")}
}

// check reads the three reports, checks they are valid and agree on the
// verdict, and returns the JSON report.
func (f reportFiles) check(t *testing.T, verdict string) report.Run {
	t.Helper()
	r := readJSONReport(t, f.json)
	if r.Verdict != verdict {
		t.Errorf("JSON report verdict %q, want %q (error %q)", r.Verdict, verdict, r.Error)
	}
	x, err := os.ReadFile(f.junit)
	if err != nil {
		t.Fatal(err)
	}
	validateJUnit(t, x)
	var suites JUnitSuitesForTest
	if err := xml.Unmarshal(x, &suites); err != nil {
		t.Fatal(err)
	}
	if verdict == report.VerdictInterrupted && !bytes.Contains(x, []byte(`<testcase name="interrupted"`)) {
		t.Errorf("JUnit report does not say the run was interrupted")
	}
	c, err := os.ReadFile(f.cucumber)
	if err != nil {
		t.Fatal(err)
	}
	var feats []map[string]any
	if err := json.Unmarshal(c, &feats); err != nil || len(feats) == 0 {
		t.Fatalf("cucumber report: %v (%d features)", err, len(feats))
	}
	if verdict != report.VerdictPass && bytes.Contains(c, []byte(`"status": "failed"`)) != (countStatus(r.Cases, report.Failed)+countStatus(r.Cases, report.UnexpectedPass) > 0) {
		t.Errorf("cucumber report's failed steps do not match the failed checks")
	}
	return r
}

// JUnitSuitesForTest decodes the JUnit root.
type JUnitSuitesForTest = report.JUnitSuites

// TestRuntimeLevelInterrupted: at the runtime level, a SIGINT at any
// moment of check leaves every property listed, not-run (never an error of
// the runtime, never missing), in a report that says the run was
// interrupted; in-process and through an adapter.
func TestRuntimeLevelInterrupted(t *testing.T) {
	plankit := plankitBin(t)
	for _, c := range []struct {
		name  string
		args  []string
		delay time.Duration
	}{
		{"built-in runtime, properties running", []string{"--only", "properties", "--checks", "100000"}, 800 * time.Millisecond},
		{"through an adapter, early", []string{"--checks", "3000", "--adapter", plankit + " serve --level runtime"}, 200 * time.Millisecond},
		{"through an adapter, later", []string{"--checks", "3000", "--adapter", plankit + " serve --level runtime"}, 500 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWatch(t)
			js := filepath.Join(w.dir, "r.json")
			args := append([]string{"check", "--level", "runtime", "--json", js}, c.args...)
			p := w.start(plankit, args...)
			time.Sleep(c.delay) // plankit catches signals from its first milliseconds
			p.signal(syscall.SIGINT)
			if code, out, errs := p.wait(60 * time.Second); code != ExitInterrupted {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitInterrupted, out, errs)
			}
			r := readJSONReport(t, js)
			if r.Verdict != report.VerdictInterrupted {
				t.Errorf("verdict %q, want %q", r.Verdict, report.VerdictInterrupted)
			}
			props := 0
			for _, cs := range r.Cases {
				if cs.Kind == report.KindProperty {
					props++
					if cs.Status != report.NotRun {
						t.Errorf("property %s: %s (%s), want %s", cs.ID, cs.Status, cs.Message, report.NotRun)
					}
				}
				if cs.Status == report.Errored || cs.Status == report.Failed {
					t.Errorf("%s: %s (%s): an interruption is neither", cs.ID, cs.Status, cs.Message)
				}
			}
			if props == 0 {
				t.Errorf("no property in the report (%d cases)", len(r.Cases))
			}
		})
	}
}

// TestRuntimeLevelExploreAndSimInterrupted: explore and sim at the runtime
// level stop at a SIGINT, exit 3 and say so: explore how many sequences it
// had explored (never "context canceled", never blaming the runtime the
// interruption ended), sim which traces it did not run.
func TestRuntimeLevelExploreAndSimInterrupted(t *testing.T) {
	plankit := plankitBin(t)
	for _, c := range []struct{ name, adapter string }{{"built-in", ""}, {"through an adapter", plankit + " serve --level runtime"}} {
		t.Run("explore, "+c.name, func(t *testing.T) {
			args := []string{"explore", "--level", "runtime", "--depth", "30"}
			if c.adapter != "" {
				args = append(args, "--adapter", c.adapter)
			}
			p := newWatch(t).start(plankit, args...)
			time.Sleep(700 * time.Millisecond)
			p.signal(syscall.SIGINT)
			code, out, errs := p.wait(60 * time.Second)
			if code != ExitInterrupted || !strings.Contains(errs, "interrupted by SIGINT; explored ") || !strings.Contains(errs, " distinct states before it") {
				t.Fatalf("exit %d, want %d saying how many states were explored\n%s\n%s", code, ExitInterrupted, out, errs)
			}
			if strings.Contains(errs, "context canceled") || strings.Contains(errs, "exited") {
				t.Errorf("the interruption is reported as another failure:\n%s", errs)
			}
		})
	}
	t.Run("sim over many traces", func(t *testing.T) {
		const n = 20000 // about 15 s to run them all on a quiet machine
		trace := "../../examples/runtime/pend-lost-at-restart.yaml"
		args := []string{"sim", "--level", "runtime", "--format", "json"}
		for range n {
			args = append(args, trace)
		}
		p := newWatch(t).start(plankit, args...)
		time.Sleep(time.Second)
		p.signal(syscall.SIGINT)
		code, out, errs := p.wait(120 * time.Second)
		ran := strings.Count(out, `"trace": `)
		if code != ExitInterrupted || !strings.Contains(errs, "traces not run") {
			t.Fatalf("exit %d after %d traces, want %d naming the traces not run\n%.500s", code, ran, ExitInterrupted, errs)
		}
		if ran >= n {
			t.Errorf("all %d traces ran despite the interruption", ran)
		}
		if want := fmt.Sprintf("%d of %d traces not run", n-ran, n); !strings.Contains(errs, want) {
			t.Errorf("stderr does not say %q:\n%.500s", want, errs)
		}
	})
}
