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
