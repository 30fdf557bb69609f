package lockstep

import (
	"context"
	"slices"
	"testing"

	"github.com/plankit/plankit/internal/voice"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/spec"
)

// The runtime-level lockstep comparison holds a runtime to the reading of
// idle-revert-notice it declares and to neither when it declares none: the
// built-in runtime around a plan mode that defers an idle commit's
// narration (net) agrees with the reference side by default (a diverging
// script is played against the reference side under net too) and when it
// declares net; declaring keep, it diverges on the notices a step logs,
// under STEP-6, as the reference's reading (keep) does declaring net.
func TestRuntimeLockstepIdleRevertNoticeReadings(t *testing.T) {
	for _, r := range voice.IdleRevertReadings {
		newPort := r.Port(reference.Choices{})
		newImpl := func() loop.Runtime { b, _ := loop.NewBuiltin(newPort(), loop.RetryPreStep); return b }
		res, err := RunRuntime(context.Background(), RuntimeOptions{NewImpl: newImpl, Seed: 1, Cases: 60, Steps: 16, Out: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		d := res.Runtime
		if (d != nil) == r.Honest() {
			t.Errorf("%s: divergence %v, want %v", r, d != nil, !r.Honest())
			if d != nil {
				t.Log(d.Summary())
			}
			continue
		}
		if d != nil && (d.Observation != RtNotices || !slices.Contains(d.Clauses, spec.STEP6)) {
			t.Errorf("%s: %s, want the notices a step logs, under STEP-6", r, d.Summary())
		}
	}
}
