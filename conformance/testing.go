package conformance

import (
	"fmt"
	"strings"
	"testing"

	"github.com/plankit/plankit/report"
)

// Test runs the conformance suite against the implementation opts.NewPort
// starts, from a go test of its own, and returns the report (to write as
// JUnit, say). Each check is a subtest of t named by its ID, so
// `go test -run 'TestPlanMode/pend-'` narrows the output, not the run.
//
// A failed check fails its subtest with the clauses the report counts it
// under (those of its first failing observation, as plankit check names
// them), what diverged, and how to run it again against the
// implementation from Go: its counterexample trace through Replay (or
// ReplayRuntime), or a scenario alone, selected by Options.Tags; a check
// skipped for a silent-point choice, an
// expected failure listed in opts.Manifest, and a check that was not judged
// (error, not-run) skip theirs. Options that
// cannot run, an implementation that could not be run, an interrupted run
// and an out-of-date manifest fail t itself.
//
// A context for the run is t.Context(); Output defaults to discarding the
// progress.
func Test(t *testing.T, opts Options) report.Run {
	t.Helper()
	rep, err := Run(t.Context(), opts)
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	runtime := opts.NewRuntime != nil
	for _, c := range rep.Cases {
		t.Run(c.ID, func(t *testing.T) { judgeCase(t, c, runtime) })
	}
	judgeRun(t, rep)
	return rep
}

// judgeCase reports one check's outcome on its subtest: a failure under
// the clauses the report counts it under; runtime says the check ran at
// the runtime level.
func judgeCase(tb testing.TB, c report.Case, runtime bool) {
	tb.Helper()
	clauses := strings.Join(c.FailedClauses(), " ")
	switch c.Status {
	case report.Passed:
	case report.Failed:
		tb.Errorf("[%s] %s%s", clauses, c.Message, rerunHint(c, runtime))
	case report.UnexpectedPass:
		tb.Errorf("[%s] %s", clauses, c.Message)
	case report.ExpectedFailed:
		tb.Skipf("expected failure [%s] %s", clauses, c.Message)
	case report.Skipped:
		tb.Skip(c.Message)
	case report.Errored, report.NotRun:
		// Not judged: not a failure of its clauses. The run's error (the
		// implementation could not be run, the run was interrupted) fails
		// the test itself.
		tb.Skipf("not judged (%s): %s", c.Status, c.Message)
	default:
		tb.Errorf("[%s] unknown status %q: %s", clauses, c.Status, c.Message)
	}
}

// rerunHint says how to run a failed check again against the
// implementation: its counterexample trace through Replay (or
// ReplayRuntime), or, for a scenario that wrote none, the scenario alone
// (Options.Tags selects it by its id).
func rerunHint(c report.Case, runtime bool) string {
	if c.Counterexample != "" {
		return replayHint(c.Counterexample, runtime)
	}
	if c.Kind == report.KindScenario {
		id, _, _ := strings.Cut(c.ID, "/") // an outline's row runs with its outline
		return fmt.Sprintf("\nrun it alone: the same Options with Tags: %q", "@id:"+id)
	}
	return ""
}

// judgeRun reports what concerns the run as a whole.
func judgeRun(tb testing.TB, rep report.Run) {
	tb.Helper()
	for _, f := range rep.Findings {
		tb.Errorf("manifest: %s", f)
	}
	if rep.Error != "" {
		tb.Errorf("%s: %s", rep.Verdict, rep.Error)
	}
}
