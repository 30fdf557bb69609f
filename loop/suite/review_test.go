package suite_test

import (
	"context"
	"strings"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/report"
)

// A runtime that declares everything but reviewReplies (an older minor
// version) gets the scenarios scripting the seam's replies and failures
// skipped, naming the capability, and every other scenario run.
func TestReviewRepliesSkippedWithoutTheCapability(t *testing.T) {
	newRuntime := func() loop.Runtime {
		b := builtin(loop.RetryPreStep)().(*loop.Builtin)
		id, err := b.Start()
		if err != nil {
			t.Fatal(err)
		}
		caps := id.Capabilities
		caps.ReviewReplies = false
		return limited{b, caps}
	}
	res, err := suite.Run(context.Background(), suite.Options{NewRuntime: newRuntime})
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for _, c := range res.Cases {
		replies := strings.HasPrefix(c.ID, "rt-exit-reply-") || strings.HasPrefix(c.ID, "rt-exit-seam-fails") || c.ID == "rt-exit-review-aborted"
		switch {
		case replies && c.Status == report.Skipped && strings.Contains(c.Message, "reviewReplies"):
			skipped++
		case !replies && c.Status == report.Passed:
		default:
			t.Errorf("%s: %s: %s", c.ID, c.Status, c.Message)
		}
	}
	if skipped < 8 {
		t.Errorf("%d reply scenarios skipped, want every one", skipped)
	}
}

// A runtime that declares everything but unload (minor 2 or older) gets
// the scenarios that unload plan mode skipped, naming the capability, and
// every other scenario run.
func TestUnloadSkippedWithoutTheCapability(t *testing.T) {
	newRuntime := func() loop.Runtime {
		b := builtin(loop.RetryPreStep)().(*loop.Builtin)
		id, err := b.Start()
		if err != nil {
			t.Fatal(err)
		}
		caps := id.Capabilities
		caps.Unload = false
		return limited{b, caps}
	}
	res, err := suite.Run(context.Background(), suite.Options{NewRuntime: newRuntime})
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for _, c := range res.Cases {
		unloads := strings.HasPrefix(c.ID, "rt-svc-")
		switch {
		case unloads && c.Status == report.Skipped && strings.Contains(c.Message, "unload"):
			skipped++
		case !unloads && c.Status == report.Passed:
		default:
			t.Errorf("%s: %s: %s", c.ID, c.Status, c.Message)
		}
	}
	if skipped != 5 {
		t.Errorf("%d unload scenarios skipped, want all 5", skipped)
	}
}
