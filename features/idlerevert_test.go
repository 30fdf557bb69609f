package features

import (
	"context"
	"testing"

	"github.com/plankit/plankit/internal/voice"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/spec"
)

// The scenarios hold a plugin to the reading of idle-revert-notice it
// declares, and to neither when it declares none (either): a scenario
// tagged with a reading runs only against a plugin that declares it, and
// passes exactly when the plugin follows it (voice.Reading.Scenario); the
// scenarios true under both readings (the next request carries exactly
// one notice after a plain idle change) run, and pass, for every
// declaration.
func TestIdleRevertNoticeScenarios(t *testing.T) {
	const (
		keepCase   = "step-no-narration-when-header-shows-new-state"
		netCase    = "step-idle-revert-not-narrated"
		injectCase = "pend-skipped-step-injects-notice"
		// true under both readings: run, and pass, whatever is declared
		bothCase = "step-narrate-idle-commit"
		rejected = "step-idle-change-narrated-once-after-rejected-step"
		skipped  = "pend-skipped-step-appends-and-narrates-later"
	)
	for _, r := range voice.IdleRevertReadings {
		res, err := Run(context.Background(), Options{NewPort: r.Port(reference.Choices{EmptyStep: spec.EmptyStepInject})})
		if err != nil {
			t.Fatal(err)
		}
		keep := r.Scenario(spec.IdleRevertNoticeKeep)
		want := map[string]string{keepCase: keep, injectCase: keep, netCase: r.Scenario(spec.IdleRevertNoticeNet),
			bothCase: report.Passed, rejected: report.Passed, skipped: report.Passed}
		for _, p := range voice.Statuses(res.Cases, want) {
			t.Errorf("%s: %s", r, p)
		}
	}
}
