package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/report"
)

// TestRuntimeDiff: diff --level runtime finds nothing in the built-in
// runtime (in-process and through serve --level runtime), finds a mutant
// under its clause with a trace that replays, and refuses bad flags.
func TestRuntimeDiff(t *testing.T) {
	bin := plankitBin(t)
	dir := t.TempDir()
	js := filepath.Join(dir, "report.json")
	manifest := filepath.Join(t.TempDir(), "expected.txt")
	if err := os.WriteFile(manifest, []byte("assume: notice-forces-step -- a notice starts a step the runtime would skip\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"built-in", []string{"--cases", "40", "--steps", "12"}, ExitPass, "no divergence"},
		{"through serve", []string{"--adapter", bin + " serve --level runtime", "--cases", "15", "--steps", "12", "--depth", "1"}, ExitPass, "no divergence"},
		{"a mutant", []string{"--mutant", "notice-forces-step", "--cases", "0", "--out", dir, "--json", js}, ExitFail, "clauses:     PEND-2"},
		{"a manifest's assume: lines", []string{"--mutant", "notice-forces-step", "--expect", manifest, "--cases", "20", "--steps", "12"}, ExitPass, "assuming notice-forces-step"},
		{"an unknown variant", []string{"--assume", "nosuch"}, ExitUsage, "runtime variants: same-step-retries"},
		{"a runtime variant at plugin level", []string{"--level", "plugin", "--assume", "header-on-change"}, ExitUsage, "unknown mutant"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"diff", "--level", "runtime"}, c.args...)
			if c.args[0] == "--level" {
				args = append([]string{"diff"}, c.args...)
			}
			code, out, errs := run(t, args...)
			if code != c.code || !strings.Contains(out+errs, c.want) {
				t.Fatalf("exit %d, want %d and %q\n%s\n%s", code, c.code, c.want, out, errs)
			}
		})
	}
	var rep report.Run
	b, err := os.ReadFile(js)
	if err != nil || json.Unmarshal(b, &rep) != nil {
		t.Fatalf("report: %v\n%s", err, b)
	}
	if rep.Verdict != report.VerdictFail || len(rep.Cases) != 1 || rep.Cases[0].ID != "runtime-lockstep-depth2" || rep.Cases[0].Status != report.Failed || !slices.Contains(rep.Cases[0].Clauses, "PEND-2") {
		t.Fatalf("report cases: %+v", rep.Cases)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(files) != 1 {
		t.Fatalf("traces: %v", files)
	}
	if code, _, _ := run(t, "sim", "--level", "runtime", "--mutant", "notice-forces-step", files[0]); code != ExitFail {
		t.Errorf("the trace does not fail against the mutant: exit %d", code)
	}
	if code, _, _ := run(t, "sim", "--level", "runtime", files[0]); code != ExitPass {
		t.Errorf("the trace does not pass against the built-in runtime: exit %d", code)
	}
}

// TestRuntimeDiffJobs: the output and the reports are the same bytes for
// --jobs 1 and --jobs 4.
func TestRuntimeDiffJobs(t *testing.T) {
	runJobs := func(jobs string) string {
		dir := t.TempDir()
		js := filepath.Join(dir, "report.json")
		_, out, _ := run(t, "diff", "--level", "runtime", "--mutant", "notice-forces-step", "--cases", "40", "--steps", "12", "--seed", "3", "--jobs", jobs, "--out", dir, "--json", js)
		b, err := os.ReadFile(js)
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(out+string(b), dir, "OUT")
	}
	if a, b := runJobs("1"), runJobs("4"); a != b {
		t.Fatalf("--jobs 1 and --jobs 4 differ:\n%s\n---\n%s", a, b)
	}
}

// TestRuntimeExploreFindsAForcedStep: explore --level runtime compares
// every state with the model and finds a pending selection that makes the
// loop run a step (PEND-2).
func TestRuntimeExploreFindsAForcedStep(t *testing.T) {
	code, out, errs := run(t, "explore", "--level", "runtime", "--depth", "2", "--mutant", "notice-forces-step", "--out", t.TempDir())
	if code != ExitFail || !strings.Contains(out, "PEND-2") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = run(t, "explore", "--level", "runtime", "--depth", "2")
	if code != ExitPass || !strings.Contains(out, "no violation") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}

// TestRuntimeDiffInterruptedThroughAdapter: a signal during diff --level
// runtime through serve --level runtime ends it with exit 3, and the report
// says both searches did not run to the end, as at plugin level.
func TestRuntimeDiffInterruptedThroughAdapter(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	pools := &poolSet{}
	ctx = withPools(ctx, pools)
	defer pools.closeAll()
	js := filepath.Join(t.TempDir(), "report.json")
	out := &interruptOnce{at: "lockstep (runtime):", cancel: cancel, pools: pools}
	cmd := newDiffCmd()
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	cmd.SetContext(ctx)
	cmd.SetOut(out)
	cmd.SetArgs([]string{"--level", "runtime", "--adapter", plankitBin(t) + " serve --level runtime", "--jobs", "1", "--cases", "100000", "--out", t.TempDir(), "--json", js})
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
