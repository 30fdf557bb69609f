package suite_test

import (
	"context"
	"fmt"
	"slices"
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

// Each focused property fails, at the default budget under some seed of
// a few (a budget across seeds, not one seed: a change to what the
// generator draws cannot turn it red), against a mutant of what it
// stresses; its shrunk trace fails again when replayed and passes against
// the faithful built-in runtime.
func TestEachPropertyKillsAMutantOfItsFocus(t *testing.T) {
	for _, c := range []struct {
		property string
		mutant   reference.Mutant
	}{
		{"rt-pending-cancel", reference.NoopQueues},
		{"rt-review-outcomes", reference.ApproveWithFeedback},
		{"rt-recovery", reference.PendingSurvivesRestart},
		{"rt-outside-writers", reference.OutsideWritesIgnored},
		{"rt-host-listeners", reference.ListenerAppended},
	} {
		t.Run(c.property, func(t *testing.T) {
			t.Parallel()
			var seen []string
			for seed := int64(1); seed <= 3; seed++ {
				dir := t.TempDir()
				cases, err := suite.Properties(context.Background(), suite.PropertyOptions{NewRuntime: builtin(loop.RetryPreStep, c.mutant), Seed: seed, CounterexampleDir: dir})
				if err != nil {
					t.Fatal(err)
				}
				i := slices.IndexFunc(cases, func(pc report.Case) bool { return pc.ID == c.property })
				if i < 0 {
					t.Fatalf("no property %s", c.property)
				}
				if cases[i].Status != report.Failed {
					seen = append(seen, fmt.Sprintf("seed %d: %s %s", seed, cases[i].Status, cases[i].Message))
					continue
				}
				tr, err := rtrace.ReadFile(dir + "/" + c.property + ".yaml")
				if err != nil {
					t.Fatal(err)
				}
				replay(t, tr, builtin(loop.RetryPreStep, c.mutant)(), true)
				replay(t, tr, builtin(loop.RetryPreStep)(), false)
				return
			}
			t.Fatalf("%s against %s: not failed under seeds 1 to 3: %v", c.property, c.mutant, seen)
		})
	}
}
