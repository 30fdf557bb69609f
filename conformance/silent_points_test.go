package conformance

import (
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/spec"
)

// A plugin that folds the boolean active of another writer's plan/mode
// whatever other fields its data has passes by default (choice
// plan-mode-data=fold-active): the reference folds that way, and the
// scenario and the outside-writers property that hold the reading pass;
// one that folds only exact data passes when it declares so.
func TestExtraFieldFoldPassesByDefault(t *testing.T) {
	for _, c := range []struct {
		choices reference.Choices
		passes  string
		skipped string
	}{
		{reference.Choices{}, "log-outside-extra-field-folds-active", "log-outside-extra-field-ignored"},
		{reference.Choices{PlanModeData: spec.PlanModeDataExact}, "log-outside-extra-field-ignored", "log-outside-extra-field-folds-active"},
	} {
		rep := mustRun(t, Options{NewPort: reference.Factory(reference.Options{Choices: c.choices}), Seed: 1, Checks: 30})
		if rep.Verdict != report.VerdictPass {
			t.Errorf("choices %+v: verdict %s, failing %v", c.choices, rep.Verdict, failing(rep))
		}
		status := map[string]string{}
		for _, k := range rep.Cases {
			status[k.ID] = k.Status
		}
		if status[c.passes] != report.Passed || status["outside-writers-LOG-1-LOG-3"] != report.Passed || status[c.skipped] != report.Skipped {
			t.Errorf("choices %+v: %s %s, outside-writers %s, %s %s", c.choices, c.passes, status[c.passes], status["outside-writers-LOG-1-LOG-3"], c.skipped, status[c.skipped])
		}
	}
}

// A plugin whose fold leaves the state at a plan/mode with no boolean
// active (keep) or reads the truthiness of its active (truthy, the
// published package) passes when it declares nothing about it (choice
// plan-mode-malformed=either: not judged); declaring a value judges it,
// so a plugin declaring the reading it does not follow fails.
func TestMalformedPlanModeIsNotJudgedByDefault(t *testing.T) {
	const (
		keepCase   = "log-outside-malformed-plan-mode/no-active"
		truthyCase = "log-outside-malformed-plan-mode-truthy/no-active"
		outside    = "outside-writers-LOG-1-LOG-3"
	)
	for _, c := range []struct {
		behaves, declares string
		want              map[string]string // case ID -> status
	}{
		{spec.PlanModeMalformedKeep, spec.PlanModeMalformedEither, map[string]string{keepCase: report.Skipped, truthyCase: report.Skipped, outside: report.Passed}},
		{spec.PlanModeMalformedTruthy, spec.PlanModeMalformedEither, map[string]string{keepCase: report.Skipped, truthyCase: report.Skipped, outside: report.Passed}},
		{spec.PlanModeMalformedKeep, spec.PlanModeMalformedKeep, map[string]string{keepCase: report.Passed, truthyCase: report.Skipped, outside: report.Passed}},
		{spec.PlanModeMalformedTruthy, spec.PlanModeMalformedTruthy, map[string]string{keepCase: report.Skipped, truthyCase: report.Passed, outside: report.Passed}},
		{spec.PlanModeMalformedTruthy, spec.PlanModeMalformedKeep, map[string]string{keepCase: report.Failed, truthyCase: report.Skipped}},
		{spec.PlanModeMalformedKeep, spec.PlanModeMalformedTruthy, map[string]string{keepCase: report.Skipped, truthyCase: report.Failed}},
	} {
		newPort := reference.Factory(reference.Options{Choices: reference.Choices{PlanModeMalformed: c.behaves}, Declares: map[string]string{spec.ChoicePlanModeMalformed: c.declares}})
		rep := mustRun(t, Options{NewPort: newPort, Seed: 1, Checks: 30})
		status := map[string]string{}
		for _, k := range rep.Cases {
			status[k.ID] = k.Status
		}
		for id, want := range c.want {
			if status[id] != want {
				t.Errorf("behaves %s, declares %s: %s %s, want %s", c.behaves, c.declares, id, status[id], want)
			}
		}
		if pass := c.want[keepCase] != report.Failed && c.want[truthyCase] != report.Failed; pass != (rep.Verdict == report.VerdictPass) {
			t.Errorf("behaves %s, declares %s: verdict %s, failing %v", c.behaves, c.declares, rep.Verdict, failing(rep))
		}
	}
}

// A plugin that defers the narration of a change committed between turns
// to the next accepted in-turn pre-step (idle-revert-notice=net), so that
// a change reverted before the next request is never narrated, passes the
// whole check by default (either: not judged) and when it declares net;
// declaring keep, the reading it does not follow, fails it, and the
// reference (keep) fails it declaring net. Every failing check is named
// under STEP-6 or STEP-7, the clauses the choice refines (a property by
// the first observation that diverged in lockstep).
func TestIdleRevertNoticeIsNotJudgedByDefault(t *testing.T) {
	for _, c := range []struct {
		behaves, declares string
		pass              bool
	}{
		{spec.IdleRevertNoticeNet, spec.IdleRevertNoticeEither, true},
		{spec.IdleRevertNoticeNet, spec.IdleRevertNoticeKeep, false},
		{spec.IdleRevertNoticeKeep, spec.IdleRevertNoticeNet, false},
	} {
		newPort := reference.Factory(reference.Options{Choices: reference.Choices{IdleRevertNotice: c.behaves}, Declares: map[string]string{spec.ChoiceIdleRevertNotice: c.declares}})
		rep := mustRun(t, Options{NewPort: newPort, Seed: 1, Checks: 15})
		if pass := rep.Verdict == report.VerdictPass; pass != c.pass {
			t.Errorf("behaves %s, declares %s: verdict %s, failing %v", c.behaves, c.declares, rep.Verdict, failing(rep))
		}
		for _, k := range rep.Cases {
			if !k.Failing() {
				continue
			}
			named := k.Attributed
			if len(named) == 0 {
				named = k.Clauses
			}
			if len(named) == 0 || named[0] != spec.STEP6 && named[0] != spec.STEP7 {
				t.Errorf("behaves %s, declares %s: %s named under %v, want STEP-6 or STEP-7 first", c.behaves, c.declares, k.ID, named)
			}
		}
	}
}
