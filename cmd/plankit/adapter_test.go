package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plankit/plankit/internal/proctest"
	"github.com/plankit/plankit/report"

	"github.com/plankit/plankit/reference"
)

// TestAdapterCLI drives the built plankit binary: through `plankit serve`
// and through the Python example it gives the in-process results, and
// every broken adapter ends with exit 3 and a message naming the cause.
func TestAdapterCLI(t *testing.T) {
	plankit := plankitBin(t)
	fake := fakeAdapterBin(t)
	examples, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(examples) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	exe := func(args ...string) (int, string, string) {
		t.Helper()
		return runProgram(t, exec.Command(plankit, args...))
	}

	for _, format := range []string{"text", "json", "jsonl"} {
		t.Run("serve matches in-process/"+format, func(t *testing.T) {
			wantCode, want, _ := exe(append([]string{"sim", "-f", format}, examples...)...)
			args := append([]string{"sim", "-f", format, "--validate-protocol", "--adapter", plankit + " serve"}, examples...)
			code, got, errs := exe(args...)
			if code != wantCode || wantCode != ExitPass {
				t.Fatalf("exit %d (in-process %d)\n%s", code, wantCode, errs)
			}
			if got != want {
				t.Fatalf("output through serve differs from in-process:\n--- serve\n%s\n--- in-process\n%s", got, want)
			}
		})
	}

	// Every mutant served gives what the in-process mutant gives, exit
	// code included, so checks through serve kill the same mutants.
	t.Run("serve matches in-process for every mutant", func(t *testing.T) {
		traces := append([]string{"../../adapter/testdata/traces/tour.yaml"}, examples...)
		changed := 0
		_, plain, _ := run(t, append([]string{"sim"}, traces...)...)
		for _, m := range reference.Catalogue {
			if m.Name == reference.PendingSurvivesRestart || m.Name == reference.UnloadKeepsPending {
				// Its deviation lives in the process; a real restart
				// (a new process, as a load after an unload starts)
				// cannot carry it (see plankit serve --help).
				continue
			}
			wantCode, want, _ := run(t, append([]string{"sim", "--mutant", string(m.Name)}, traces...)...)
			code, got, errs := run(t, append([]string{"sim", "--adapter", plankit + " serve --mutant " + string(m.Name)}, traces...)...)
			if proctest.WithoutIdentity(want) != proctest.WithoutIdentity(plain) {
				changed++
			}
			if code != wantCode || got != want {
				t.Errorf("mutant %s: exit %d (in-process %d); outputs equal: %v\n%s", m.Name, code, wantCode, got == want, errs)
			}
		}
		if changed < len(reference.Catalogue)/2 {
			t.Fatalf("only %d of %d mutants change the timelines; the comparison shows too little", changed, len(reference.Catalogue))
		}
	})

	t.Run("python example matches the reference", func(t *testing.T) {
		_, want, _ := exe(append([]string{"sim"}, examples...)...)
		args := append([]string{"sim", "--validate-protocol", "--adapter", "python3 adapter.py", "--adapter-dir", "../../examples/adapters/python"}, examples...)
		code, got, errs := exe(args...)
		if code != ExitPass {
			t.Fatalf("exit %d\n%s\n%s", code, got, errs)
		}
		if proctest.WithoutIdentity(got) != proctest.WithoutIdentity(want) {
			t.Fatalf("python output differs from the reference:\n--- python\n%s\n--- reference\n%s", got, want)
		}
	})

	// Reference: issue "Checking external implementations", Robustness.
	// The trace has several steps, so the fake reaches its second preStep.
	midTurn := "../../examples/pend-mid-turn-later-turn.yaml"
	broken := []struct{ mode, cause string }{
		{"hang", `request seq 13 "preStep": no reply within 1s`},
		{"crash", `request seq 13 "preStep": the adapter process exited (exit status 7) before replying`},
		{"garbage", `request seq 13 "preStep": protocol error: the reply is not valid JSON`},
		{"schema", `request seq 13 "preStep": protocol error: the reply does not match the protocol schema`},
		{"wrongseq", `request seq 13 "preStep": protocol error: the reply has seq 14, want seq 13`},
		{"oversized", `request seq 13 "preStep": protocol error: reply line longer than the limit of 4194304 bytes`},
		{"flood-crash", `simulated crash after the flood in preStep`},
		{"error", `simulated failure in preStep`},
		{"unsupported", `unsupported by the implementation: preStep is not implemented`},
	}
	for _, b := range broken {
		t.Run("broken/"+b.mode, func(t *testing.T) {
			t0 := time.Now()
			// A short timeout for the hang, the default otherwise.
			timeout := "5s"
			if b.mode == "hang" {
				timeout = "1s"
			}
			code, _, errs := run(t, "sim", "--timeout", timeout, "--adapter", fake+" "+b.mode+" preStep 2", midTurn)
			if code != ExitImpl {
				t.Fatalf("exit %d, want %d (ExitImpl)\n%s", code, ExitImpl, errs)
			}
			if !strings.Contains(errs, b.cause) {
				t.Fatalf("stderr does not name the cause %q:\n%s", b.cause, errs)
			}
			if took := time.Since(t0); took > 20*time.Second {
				t.Fatalf("took %v", took)
			}
		})
	}

	// A declared choice value plankit does not know stops every suite at
	// start with exit 3, naming the choice and the values plankit knows,
	// instead of skipping or judging checks under another reading.
	for _, cmd := range [][]string{{"check", "--checks", "5"}, {"check", "--only", "properties", "--checks", "5"}, {"explore", "--depth", "1"}, {"sim", midTurn}} {
		t.Run("unknown choice value is refused/"+strings.Join(cmd, " "), func(t *testing.T) {
			args := append(append([]string{}, cmd[0], "--adapter", fake+" choice start"), cmd[1:]...)
			code, out, errs := run(t, args...)
			if code != ExitImpl {
				t.Fatalf("exit %d, want %d (ExitImpl)\n%s\n%s", code, ExitImpl, out, errs)
			}
			if !strings.Contains(errs, `fold-end="middle"`) || !strings.Contains(errs, "known values: clamp, error, slice") {
				t.Fatalf("stderr does not name the choice and the known values:\n%s", errs)
			}
		})
	}

	// An implementation that answers "unsupported" (here: to every reload)
	// is not judged on the checks that need the request: they are skipped,
	// saying which request, and the rest of the gate still passes.
	t.Run("unsupported requests skip the checks that need them", func(t *testing.T) {
		rep := filepath.Join(t.TempDir(), "r.json")
		code, out, errs := run(t, "check", "--format", "summary", "--checks", "5", "--json", rep, "--adapter", fake+" unsupported reload 1")
		if code != ExitPass {
			t.Fatalf("exit %d\n%s\n%s", code, out, errs)
		}
		data, _ := os.ReadFile(rep)
		var r report.Run
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		skipped := 0
		for _, c := range r.Cases {
			if c.Status == report.Skipped && strings.Contains(c.Message, `"reload": unsupported by the implementation`) {
				skipped++
			}
		}
		if skipped == 0 {
			t.Fatalf("no check was skipped for the unsupported reload:\n%s", out)
		}
	})

	t.Run("flood passes", func(t *testing.T) {
		code, out, errs := run(t, "sim", "--adapter", fake+" flood none", midTurn)
		if code != ExitPass {
			t.Fatalf("exit %d\n%s\n%s", code, out, errs)
		}
	})

	usage := []struct {
		args  []string
		cause string
	}{
		{[]string{"--adapter", plankit + " serve", "--mutant", "fold-first"}, "--mutant and --choice pick the built-in reference"},
		{[]string{"--adapter", `"unclosed`}, "--adapter"},
		{[]string{"--adapter", "  "}, "empty command line"},
		{[]string{"--validate-protocol"}, "need --adapter"},
		{[]string{"--adapter", plankit + " serve", "--timeout", "0s"}, "--timeout must be positive"},
	}
	for _, u := range usage {
		t.Run("usage/"+strings.Join(u.args, " "), func(t *testing.T) {
			code, _, errs := run(t, append(append([]string{"sim"}, u.args...), examples[0])...)
			if code != ExitUsage || !strings.Contains(errs, u.cause) {
				t.Fatalf("exit %d, want %d with %q:\n%s", code, ExitUsage, u.cause, errs)
			}
		})
	}

	t.Run("serve rejects a non-request", func(t *testing.T) {
		cmd := exec.Command(plankit, "serve")
		cmd.Stdin = strings.NewReader("hello\n")
		if code, _, errs := runProgram(t, cmd); code != ExitUsage || !strings.Contains(errs, "request is not JSON") {
			t.Fatalf("serve on garbage: exit %d\n%s", code, errs)
		}
	})
}

// runProgram runs cmd with its standard output and error captured and
// returns its exit code and both outputs; a program that cannot be run
// fails t.
func runProgram(t testing.TB, cmd *exec.Cmd) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// builds holds the programs the tests drive, built once per test binary
// (TestMain removes them).
var builds proctest.Builds

// plankitBin is plankit built from this package.
func plankitBin(t testing.TB) string { return builds.Program(t, ".") }

// fakeRuntimeBin is the runtime whose misbehaviours the tests choose.
func fakeRuntimeBin(t testing.TB) string {
	return builds.Program(t, "../../adapter/testdata/fakeruntime")
}

// fakeAdapterBin is the adapter whose misbehaviours the tests choose.
func fakeAdapterBin(t testing.TB) string {
	return builds.Program(t, "../../adapter/testdata/fakeadapter")
}

// TestInvocationsRunningAtOnceKeepTheirAdapters: each invocation of Main
// ends only its own adapter processes, so two running at once in one
// process (as parallel tests do) both finish: the second's end does not
// take the first's adapter away mid-run.
func TestInvocationsRunningAtOnceKeepTheirAdapters(t *testing.T) {
	serve := plankitBin(t) + " serve"
	long, short := "../../examples/pend-mid-turn-later-turn.yaml", "../../examples/svc-unload.yaml"
	codes := make(chan string, 8)
	for i := range 8 {
		go func() {
			trace := long
			if i%2 == 1 {
				trace = short
			}
			code, out, errs := run(t, "sim", "--adapter", serve, trace)
			codes <- fmt.Sprintf("%d %s%s", code, out, errs)
		}()
	}
	for range 8 {
		if got := <-codes; !strings.HasPrefix(got, "0 ") {
			t.Errorf("an invocation running beside others: exit %s", got)
		}
	}
	if s := poolsOf(context.Background()); s == poolsOf(context.Background()) {
		t.Errorf("a command run outside Main shares a pool set")
	}
}
