package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plankit/plankit/report"
)

func TestDiffReferenceFindsNothing(t *testing.T) {
	code, out, errs := run(t, "diff", "--cases", "300", "--depth", "4")
	if code != ExitPass || !strings.Contains(out, "no divergence") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}

// TestDiffThroughServe: the reference behind the adapter protocol agrees
// with the in-process reference.
func TestDiffThroughServe(t *testing.T) {
	plankit := plankitBin(t)
	code, out, errs := run(t, "diff", "--adapter", plankit+" serve", "--cases", "100", "--depth", "3")
	if code != ExitPass || !strings.Contains(out, "no divergence") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}

// TestDiffMutantDivergence: a mutant is found, the report names the
// observation's clause, and the trace fails against the mutant and
// passes against the reference.
func TestDiffMutantDivergence(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "report.json")
	code, out, errs := run(t, "diff", "--mutant", "noop-queues", "--out", dir, "--json", js)
	if code != ExitFail || !strings.Contains(out, "explained by noop-queues") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	var rep report.Run
	b, err := os.ReadFile(js)
	if err != nil || json.Unmarshal(b, &rep) != nil {
		t.Fatalf("report: %v\n%s", err, b)
	}
	// Whichever observation shows the mutant first (the generators decide),
	// the console and the report name its clauses, and only they count as
	// failing.
	if rep.Verdict != report.VerdictFail || len(rep.Cases) != 2 || rep.Cases[0].Status != report.Failed || len(rep.Cases[0].Clauses) == 0 {
		t.Fatalf("report cases: %+v", rep.Cases)
	}
	clauses := rep.Cases[0].Clauses
	if !strings.Contains(out, "clauses:     "+strings.Join(clauses, " ")) {
		t.Errorf("the console names other clauses than the report's %v:\n%s", clauses, out)
	}
	for _, row := range rep.Clauses {
		if !slices.Contains(clauses, row.Clause) && row.Failed > 0 {
			t.Errorf("clause %s counted as failing: %+v", row.Clause, row)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(files) != 1 {
		t.Fatalf("traces: %v", files)
	}
	if code, o, e := run(t, "sim", "--mutant", "noop-queues", files[0]); code != ExitFail {
		t.Fatalf("the trace passes against the mutant: %d\n%s\n%s", code, o, e)
	}
	if code, o, e := run(t, "sim", files[0]); code != ExitPass {
		t.Fatalf("the trace fails against the reference: %d\n%s\n%s", code, o, e)
	}
}

// TestDiffAssume: an assumed deviation is part of the reference, from the
// flag or from the manifest's assume: line.
func TestDiffAssume(t *testing.T) {
	if code, out, errs := run(t, "diff", "--mutant", "listener-appended", "--assume", "listener-appended", "--cases", "200", "--depth", "3"); code != ExitPass {
		t.Fatalf("--assume: exit %d\n%s\n%s", code, out, errs)
	}
	manifest := filepath.Join(t.TempDir(), "expected-failures.txt")
	os.WriteFile(manifest, []byte("assume: listener-appended -- known STEP-1 deviation\n"), 0o644)
	if code, out, errs := run(t, "diff", "--mutant", "listener-appended", "--expect", manifest, "--cases", "200", "--depth", "3"); code != ExitPass {
		t.Fatalf("assume: line: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, _ := run(t, "diff", "--mutant", "listener-appended", "--cases", "200", "--depth", "0", "--out", t.TempDir()); code != ExitFail || !strings.Contains(out, "STEP-1") {
		t.Fatalf("without the assumption: exit %d\n%s", code, out)
	}
}

// TestDiffDeterministic: the same seed gives the same report and trace
// byte for byte.
func TestDiffDeterministic(t *testing.T) {
	dir := t.TempDir()
	var outs [2][]byte
	for i := range outs {
		js := filepath.Join(dir, "r.json")
		if code, _, errs := run(t, "diff", "--mutant", "narrate-twice", "--seed", "9", "--out", dir, "--json", js); code != ExitFail {
			t.Fatalf("exit %d: %s", code, errs)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		r, _ := os.ReadFile(js)
		tr, _ := os.ReadFile(files[0])
		outs[i] = append(r, tr...)
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Fatalf("two runs differ:\n%s\n---\n%s", outs[0], outs[1])
	}
}

func TestDiffUsage(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.txt")
	os.WriteFile(bad, []byte("assume: no-such-variant\n"), 0o644)
	for _, args := range [][]string{
		{"diff", "--assume", "no-such"},
		{"diff", "--cases", "0", "--depth", "0"},
		{"diff", "--expect", bad},
		{"diff", "--steps", "0"},
		{"diff", "extra"},
	} {
		if code, _, errs := run(t, args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, ExitUsage, errs)
		}
	}
	if code, _, errs := run(t, "diff", "--adapter", "/nonexistent/adapter", "--cases", "1", "--depth", "0"); code != ExitImpl {
		t.Errorf("missing adapter: exit %d, want %d (%s)", code, ExitImpl, errs)
	}
}

func TestMutantsList(t *testing.T) {
	code, out, errs := run(t, "mutants")
	if code != ExitPass || !strings.Contains(out, "noop-queues") || !strings.Contains(out, "cancelled-selection-narrated STEP-6  variant") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, _ := run(t, "mutants", "--out", "x.md"); code != ExitUsage {
		t.Fatalf("--out without --matrix: exit %d", code)
	}
}

// TestMutantsDocIsFresh: docs/mutants.md is the kill matrix plankit
// mutants --matrix computes now, and every mutant is killed in every
// column, lockstep naming its own clause.
func TestMutantsDocIsFresh(t *testing.T) {
	// The slowest test of the package, overlapped with TestSignals, which
	// mostly waits on child processes.
	t.Parallel()
	out := filepath.Join(t.TempDir(), "mutants.md")
	code, stdout, errs := run(t, "mutants", "--matrix", "--out", out)
	if code != ExitPass {
		t.Errorf("exit %d\n%s\n%s", code, stdout, errs)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	have, _ := os.ReadFile("../../docs/mutants.md")
	if !bytes.Equal(have, want) {
		t.Fatalf("docs/mutants.md is stale; run plankit mutants --matrix --out docs/mutants.md")
	}
}

// TestDiffInterrupted: a diff a signal cut short reports the searches it
// did not finish as not run, never as passed or failed, writes its
// reports saying so and exits with ExitInterrupted naming the signal.
func TestDiffInterrupted(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cases  int
		depth  int
		status []string
	}{
		{"in the random search", 50, 3, []string{report.NotRun, report.NotRun}},
		{"in the exhaustive search", 0, 3, []string{report.NotRun}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(&interruptError{sig: syscall.SIGTERM})
			js := filepath.Join(t.TempDir(), "report.json")
			o := &diffOptions{cases: tc.cases, depth: tc.depth, steps: 10, seed: 1, out: t.TempDir()}
			o.files.JSON, o.impl.jobs = js, 1
			var out bytes.Buffer
			err := runDiff(ctx, o, &out)
			if codeOf(err) != ExitInterrupted || !strings.Contains(err.Error(), "interrupted by SIGTERM") {
				t.Fatalf("exit %d (%v), want %d naming SIGTERM\n%s", codeOf(err), err, ExitInterrupted, out.String())
			}
			var rep report.Run
			b, err := os.ReadFile(js)
			if err != nil || json.Unmarshal(b, &rep) != nil {
				t.Fatalf("report: %v\n%s", err, b)
			}
			var status []string
			for _, c := range rep.Cases {
				status = append(status, c.Status)
			}
			if rep.Verdict != report.VerdictInterrupted || !slices.Equal(status, tc.status) {
				t.Fatalf("verdict %s, statuses %v: want %s, %v", rep.Verdict, status, report.VerdictInterrupted, tc.status)
			}
		})
	}
}

// interruptOnce interrupts as the root command's signal handler does (the
// context cancelled with the signal as its cause, every adapter process
// ended) shortly after the first output that contains at.
type interruptOnce struct {
	bytes.Buffer
	at     string
	cancel context.CancelCauseFunc
	pools  *poolSet
	done   bool
}

func (w *interruptOnce) Write(p []byte) (int, error) {
	n, err := w.Buffer.Write(p)
	if !w.done && strings.Contains(w.String(), w.at) {
		w.done = true
		go func() {
			time.Sleep(300 * time.Millisecond) // requests are in flight by then
			w.cancel(&interruptError{sig: syscall.SIGTERM})
			w.pools.abortAll()
		}()
	}
	return n, err
}

// TestDiffInterruptedThroughAdapter: a signal during a diff through an
// adapter ends the adapters, so the request in flight fails; the report
// still says the run was interrupted, not that the implementation broke.
func TestDiffInterruptedThroughAdapter(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	pools := &poolSet{}
	ctx = withPools(ctx, pools)
	defer pools.closeAll()
	js := filepath.Join(t.TempDir(), "report.json")
	out := &interruptOnce{at: "lockstep:", cancel: cancel, pools: pools}
	cmd := newDiffCmd()
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	cmd.SetContext(ctx)
	cmd.SetOut(out)
	cmd.SetArgs([]string{"--adapter", plankitBin(t) + " serve", "--jobs", "1", "--cases", "100000", "--depth", "3", "--out", t.TempDir(), "--json", js})
	err := cmd.Execute()
	if codeOf(err) != ExitInterrupted || !strings.Contains(fmt.Sprint(err), "interrupted by SIGTERM") {
		t.Fatalf("exit %d (%v), want %d naming SIGTERM\n%s", codeOf(err), err, ExitInterrupted, out.String())
	}
	var rep report.Run
	b, err := os.ReadFile(js)
	if err != nil || json.Unmarshal(b, &rep) != nil {
		t.Fatalf("report: %v\n%s", err, b)
	}
	if rep.Verdict != report.VerdictInterrupted || len(rep.Cases) != 2 || rep.Cases[0].Status != report.NotRun || rep.Cases[1].Status != report.NotRun {
		t.Fatalf("verdict %s, cases %+v: want interrupted, both searches not run", rep.Verdict, rep.Cases)
	}
}

// TestDiffBrokenAdapterListsItsSearches: an adapter that crashes at start
// or midway leaves every search of the report listed as an error (never
// an empty report, never a failure), exit 3.
func TestDiffBrokenAdapterListsItsSearches(t *testing.T) {
	fake := fakeAdapterBin(t)
	for _, mode := range []string{"crash start", "crash set 3"} {
		t.Run(mode, func(t *testing.T) {
			js := filepath.Join(t.TempDir(), "r.json")
			code, out, errs := run(t, "diff", "--adapter", fake+" "+mode, "--cases", "20", "--depth", "2", "--json", js)
			if code != ExitImpl {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitImpl, out, errs)
			}
			r := readJSONReport(t, js)
			if r.Verdict != report.VerdictImpl || len(r.Cases) != 2 {
				t.Fatalf("verdict %q, %d cases: want %q and both searches", r.Verdict, len(r.Cases), report.VerdictImpl)
			}
			for _, c := range r.Cases {
				if c.Status != report.Errored {
					t.Errorf("%s: %s (%s), want %s", c.ID, c.Status, c.Message, report.Errored)
				}
			}
		})
	}
}
