package conformance

import (
	"errors"
	"fmt"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/rtrace"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/trace"
)

// Replay replays a trace file against the implementation newPort starts,
// as `plankit sim` does against the reference or an adapter: a
// counterexample a failing check named, the trace of a divergence Diff,
// Explore or Fuzz wrote, or any plugin-level trace. Every expectation that
// fails fails t, saying which action and what was expected; a trace that
// cannot be read, an action the trace cannot ask, and an implementation
// that could not be run fail t too. It returns the run (nil when the file
// could not be read), so a test can look at it further.
//
// Call it from a test of your own to run one failure again, under a
// debugger say, without the suite around it:
//
//	func TestReplay(t *testing.T) {
//		conformance.Replay(t, planmode.NewPort, "/tmp/plankit-counterexamples-1/model-state-machine-seed1-case4.yaml")
//	}
func Replay(t testing.TB, newPort func() sim.Port, path string) *trace.Run {
	t.Helper()
	tr, err := trace.ReadFile(path)
	if err != nil {
		t.Fatalf("replay: %v", err)
		return nil
	}
	run := trace.Execute(tr, declared(newPort, nil)())
	for _, s := range run.Steps {
		for _, f := range s.Failures {
			t.Errorf("%s: %s: %s", path, run.Describe(s), f)
		}
	}
	if run.Err != nil {
		var ie *sim.ImplError
		if errors.As(run.Err, &ie) {
			t.Errorf("%s: the implementation could not be run: %v", path, run.Err)
		} else {
			t.Errorf("%s: the run stopped: %v", path, run.Err)
		}
	}
	return run
}

// ReplayRuntime is Replay at the runtime level: it replays a runtime trace
// (a counterexample of the runtime level's checks) against the runtime
// newRuntime starts, as `plankit sim --level runtime` does, and fails t
// with each finding.
func ReplayRuntime(t testing.TB, newRuntime func() loop.Runtime, path string) loop.Record {
	t.Helper()
	tr, err := rtrace.ReadFile(path)
	if err != nil {
		t.Fatalf("replay: %v", err)
		return loop.Record{}
	}
	rec, runErr := loop.Run(newRuntime(), *tr)
	for _, f := range loop.Verdict(*tr, rec) {
		t.Errorf("%s: %s", path, f)
	}
	if runErr != nil {
		t.Errorf("%s: the run stopped: %v", path, runErr)
	}
	return rec
}

// replayHint says how a failure with a counterexample trace replays
// against the implementation from Go ("" without one).
func replayHint(path string, runtime bool) string {
	if path == "" {
		return ""
	}
	if runtime {
		return fmt.Sprintf("\nreplay it against the runtime: conformance.ReplayRuntime(t, newRuntime, %q)", path)
	}
	return fmt.Sprintf("\nreplay it against the implementation: conformance.Replay(t, newPort, %q)", path)
}
