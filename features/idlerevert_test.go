package features

import (
	"context"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/spec"
)

// The scenarios hold a plugin to the reading of idle-revert-notice it
// declares, and to neither when it declares none (either): one that defers
// an idle commit's narration to the next accepted in-turn pre-step (net)
// passes by default and fails the keep scenarios when it declares keep;
// the reference (keep) fails the net scenario when it declares net. The
// scenarios true under both readings (the next request carries exactly one
// notice after a plain idle change) run for every declaration.
func TestIdleRevertNoticeScenarios(t *testing.T) {
	const (
		keepCase   = "step-no-narration-when-header-shows-new-state"
		netCase    = "step-idle-revert-not-narrated"
		injectCase = "pend-skipped-step-injects-notice"
		bothCase   = "step-narrate-idle-commit"
		rejected   = "step-idle-change-narrated-once-after-rejected-step"
		skipped    = "pend-skipped-step-appends-and-narrates-later"
	)
	for _, c := range []struct {
		behaves, declares string
		want              map[string]string // case ID -> status; every other case passes or is skipped
	}{
		{spec.IdleRevertNoticeNet, "", map[string]string{keepCase: report.Skipped, netCase: report.Skipped, injectCase: report.Skipped}},
		{spec.IdleRevertNoticeNet, spec.IdleRevertNoticeEither, map[string]string{keepCase: report.Skipped, netCase: report.Skipped, injectCase: report.Skipped}},
		{spec.IdleRevertNoticeNet, spec.IdleRevertNoticeNet, map[string]string{keepCase: report.Skipped, netCase: report.Passed, injectCase: report.Skipped}},
		{spec.IdleRevertNoticeKeep, spec.IdleRevertNoticeKeep, map[string]string{keepCase: report.Passed, netCase: report.Skipped, injectCase: report.Passed}},
		{spec.IdleRevertNoticeNet, spec.IdleRevertNoticeKeep, map[string]string{keepCase: report.Failed, netCase: report.Skipped, injectCase: report.Failed}},
		{spec.IdleRevertNoticeKeep, spec.IdleRevertNoticeNet, map[string]string{keepCase: report.Skipped, netCase: report.Failed, injectCase: report.Skipped}},
	} {
		newRef := reference.Factory(reference.Options{Choices: reference.Choices{IdleRevertNotice: c.behaves, EmptyStep: spec.EmptyStepInject}, Declares: map[string]string{spec.ChoiceIdleRevertNotice: c.declares}})
		res, err := Run(context.Background(), Options{NewPort: newRef})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{bothCase, rejected, skipped} {
			if _, ok := c.want[id]; !ok {
				c.want[id] = report.Passed
			}
		}
		for _, k := range res.Cases {
			want, named := c.want[k.ID]
			switch {
			case named && k.Status != want:
				t.Errorf("behaves %s, declares %q: %s %s (%s), want %s", c.behaves, c.declares, k.ID, k.Status, k.Message, want)
			case !named && k.Status != report.Passed && k.Status != report.Skipped:
				t.Errorf("behaves %s, declares %q: %s %s: %s", c.behaves, c.declares, k.ID, k.Status, k.Message)
			}
		}
	}
}
