package features

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/trace"
)

// TestScenarioAndTraceFailInTheSameWords: a Then-step checks with
// trace.Expect, so a scenario and a trace that expect the same thing of the
// same actions fail in the same words. Each trace in testdata/samewords
// replays one scenario; against the reference both pass, against the
// mutant both fail, and the scenario's failure is the trace's.
func TestScenarioAndTraceFailInTheSameWords(t *testing.T) {
	for _, c := range []struct{ scenario, mutant string }{
		{"pend-cancel-before-boundary", "cancel-keeps-pending"},
		{"pend-get-shows-pending", "get-hides-pending"},
		{"cfg-section-while-active", "section-wrong-order"},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			tr, err := trace.ReadFile(filepath.Join("testdata", "samewords", c.scenario+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			for _, mutants := range []reference.Mutants{nil, {reference.Mutant(c.mutant)}} {
				newPort := reference.Factory(reference.Options{Mutants: mutants})
				run := trace.Execute(tr, newPort())
				if run.Err != nil {
					t.Fatalf("mutants %v: trace: %v", mutants, run.Err)
				}
				res, err := Run(context.Background(), Options{NewPort: newPort, Selection: Selection{Tags: "@id:" + c.scenario}})
				if err != nil || len(res.Cases) != 1 {
					t.Fatalf("mutants %v: scenario: %v, %d cases", mutants, err, len(res.Cases))
				}
				got := res.Cases[0]
				failed, ok := run.FirstFailure()
				if mutants == nil {
					if ok || got.Status != report.Passed {
						t.Fatalf("the reference fails: trace %q, scenario %s %q", failed.Failures, got.Status, got.Message)
					}
					continue
				}
				if !ok || got.Status != report.Failed {
					t.Fatalf("mutant %s survives: trace failures %q, scenario %s %q", c.mutant, failed.Failures, got.Status, got.Message)
				}
				if want := strings.Join(failed.Failures, "; "); !strings.HasSuffix(got.Message, "\": "+want) {
					t.Errorf("mutant %s: the scenario fails with %q, the trace with %q", c.mutant, got.Message, want)
				}
			}
		})
	}
}
