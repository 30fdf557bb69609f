package suite_test

import (
	"context"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/spec"
)

// The runtime-level scenarios hold a runtime to the reading of
// idle-revert-notice it declares and to neither when it declares none: the
// built-in runtime around a plan mode that defers an idle commit's
// narration (net) passes the suite and its properties by default, fails
// the keep scenario when it declares keep, and the reference's own reading
// (keep) fails the net scenario when it declares net.
func TestIdleRevertNoticeAtTheRuntimeLevel(t *testing.T) {
	const keepCase, netCase = "rt-step-idle-revert-keeps-first-notice", "rt-step-idle-revert-not-narrated"
	for _, c := range []struct {
		behaves, declares string
		want              map[string]string
		props             bool
	}{
		{spec.IdleRevertNoticeNet, "", map[string]string{keepCase: report.Skipped, netCase: report.Skipped}, true},
		{spec.IdleRevertNoticeNet, spec.IdleRevertNoticeNet, map[string]string{keepCase: report.Skipped, netCase: report.Passed}, false},
		{spec.IdleRevertNoticeKeep, spec.IdleRevertNoticeKeep, map[string]string{keepCase: report.Passed, netCase: report.Skipped}, false},
		{spec.IdleRevertNoticeNet, spec.IdleRevertNoticeKeep, map[string]string{keepCase: report.Failed, netCase: report.Skipped}, false},
		{spec.IdleRevertNoticeKeep, spec.IdleRevertNoticeNet, map[string]string{keepCase: report.Skipped, netCase: report.Failed}, false},
	} {
		newPort := reference.Factory(reference.Options{Choices: reference.Choices{IdleRevertNotice: c.behaves}, Declares: map[string]string{spec.ChoiceIdleRevertNotice: c.declares}})
		newRT := func() loop.Runtime {
			b, err := loop.NewBuiltin(newPort(), loop.RetryPreStep)
			if err != nil {
				panic(err)
			}
			return b
		}
		res := runSuite(t, suite.Options{NewRuntime: newRT})
		for _, k := range res.Cases {
			want, named := c.want[k.ID]
			switch {
			case named && k.Status != want:
				t.Errorf("behaves %s, declares %q: %s %s (%s), want %s", c.behaves, c.declares, k.ID, k.Status, k.Message, want)
			case !named && k.Status != report.Passed && k.Status != report.Skipped:
				t.Errorf("behaves %s, declares %q: %s %s: %s", c.behaves, c.declares, k.ID, k.Status, k.Message)
			}
		}
		if !c.props {
			continue
		}
		props, err := suite.Properties(context.Background(), suite.PropertyOptions{NewRuntime: newRT, Seed: 1, Checks: 30})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range props {
			if k.Status == report.Failed || k.Status == report.Errored {
				t.Errorf("behaves %s, declares %q: property %s: %s: %s", c.behaves, c.declares, k.ID, k.Status, k.Message)
			}
		}
	}
}
