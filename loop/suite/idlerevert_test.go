package suite_test

import (
	"context"
	"testing"

	"github.com/plankit/plankit/internal/voice"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/spec"
)

// The runtime-level scenarios hold a runtime to the reading of
// idle-revert-notice it declares and to neither when it declares none, as
// the plugin level's (voice.Reading.Scenario); the built-in runtime around
// a plan mode that defers an idle commit's narration (net) and declares
// nothing passes the properties too.
func TestIdleRevertNoticeAtTheRuntimeLevel(t *testing.T) {
	const keepCase, netCase = "rt-step-idle-revert-keeps-first-notice", "rt-step-idle-revert-not-narrated"
	for i, r := range voice.IdleRevertReadings {
		newPort := r.Port(reference.Choices{})
		newRT := func() loop.Runtime {
			b, err := loop.NewBuiltin(newPort(), loop.RetryPreStep)
			if err != nil {
				panic(err)
			}
			return b
		}
		res := runSuite(t, suite.Options{NewRuntime: newRT})
		for _, p := range voice.Statuses(res.Cases, map[string]string{keepCase: r.Scenario(spec.IdleRevertNoticeKeep), netCase: r.Scenario(spec.IdleRevertNoticeNet)}) {
			t.Errorf("%s: %s", r, p)
		}
		if i != 0 {
			continue
		}
		props, err := suite.Properties(context.Background(), suite.PropertyOptions{NewRuntime: newRT, Seed: 1, Checks: 30})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range props {
			if k.Status == report.Failed || k.Status == report.Errored {
				t.Errorf("%s: property %s: %s: %s", r, k.ID, k.Status, k.Message)
			}
		}
	}
}
