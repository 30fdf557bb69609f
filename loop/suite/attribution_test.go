package suite_test

import (
	"slices"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
)

// Realistic runtime mistakes are named under the clause of the observation
// that diverged first, not the first tag of the scenario that found them
// nor the lint rule that happened to fire: every scenario that fails a
// mutant lists its failure under one of the clauses the mistake breaks.
func TestRuntimeMistakesAreNamedByTheirClause(t *testing.T) {
	for _, c := range []struct {
		mutant  reference.Mutant
		clauses []string
	}{
		// an approved exit appended at once, during the exit tool's call
		{reference.ApprovedExitAtOnce, []string{"EXIT-5"}},
		// a selection during an open turn committed at once: set's outcome,
		// or the append that did not wait for the next accepted pre-step
		{reference.QueuedCommitsNow, []string{"PEND-4", "PEND-1"}},
		// a selection that makes the loop run a step or a turn
		{reference.SelectionContinues, []string{"PEND-2"}},
		// get hiding a pending selection
		{reference.GetHidesPending, []string{"PEND-7"}},
		// a step forced by a pending selection's notice
		{reference.NoticeForcesStep, []string{"PEND-2"}},
		// a plan approved without being presented: the review seam
		{reference.ApproveWithoutReview, []string{"EXIT-4"}},
		// plan mode's listener rejecting steps: whatever the blocked step
		// did not do is named by the rejection, not by the scenario's tag
		{reference.PlanModeBlocksSteps, []string{"SVC-3"}},
		{reference.FailedAppendBlocks, []string{"STEP-5"}},
		// a host tool denied in plan mode, and the host code it would run
		{reference.HostToolsBlockedInPlan, []string{"SVC-3"}},
	} {
		t.Run(string(c.mutant), func(t *testing.T) {
			res := runSuite(t, suite.Options{NewRuntime: builtin(loop.RetryPreStep, c.mutant)})
			failed := 0
			for _, k := range res.Cases {
				if k.Status != report.Failed {
					continue
				}
				failed++
				if len(k.Attributed) == 0 || !slices.Contains(c.clauses, k.Attributed[0]) {
					t.Errorf("%s is named under %v, want one of %v: %s", k.ID, k.Attributed, c.clauses, k.Message)
				}
			}
			if failed == 0 {
				t.Errorf("no scenario fails the mutant")
			}
		})
	}
}
