package suite_test

import (
	"context"
	"strings"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/rtrace"
)

func TestPropertiesHoldForTheBuiltinRuntime(t *testing.T) {
	for _, retry := range []string{loop.RetryPreStep, loop.RetrySameStep} {
		cases, err := suite.Properties(context.Background(), suite.PropertyOptions{NewRuntime: builtin(retry), Seed: 1, Checks: 60, CounterexampleDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if c.Status != report.Passed {
				t.Errorf("retry %s: %s: %s %s", retry, c.ID, c.Status, c.Message)
			}
		}
	}
}

// A mutant the invariants catch fails the property with a shrunk trace
// that fails again when replayed and passes against the reference.
func TestAFailureIsShrunkToAReplayableTrace(t *testing.T) {
	dir := t.TempDir()
	cases, err := suite.Properties(context.Background(), suite.PropertyOptions{NewRuntime: builtin(loop.RetryPreStep, reference.SectionWhileInactive), Seed: 1, Checks: 60, CounterexampleDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if cases[0].Status != report.Failed || !strings.Contains(cases[0].Message, "CFG-2") && !strings.Contains(cases[0].Message, "STEP-7") {
		t.Fatalf("got %s: %s", cases[0].Status, cases[0].Message)
	}
	tr, err := rtrace.ReadFile(dir + "/rt-invariants.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Steps) > 2 {
		t.Errorf("shrunk to %d steps, want at most 2", len(tr.Steps))
	}
	replay(t, tr, builtin(loop.RetryPreStep, reference.SectionWhileInactive)(), true)
	replay(t, tr, builtin(loop.RetryPreStep)(), false)
}
