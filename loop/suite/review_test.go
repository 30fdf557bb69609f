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
	replies := func(id string) bool {
		return strings.HasPrefix(id, "rt-exit-reply-") || strings.HasPrefix(id, "rt-exit-seam-fails") || id == "rt-exit-review-aborted"
	}
	if skipped := skippedWithout(t, func(c *loop.Capabilities) { c.ReviewReplies = false }, "reviewReplies", replies); skipped < 8 {
		t.Errorf("%d reply scenarios skipped, want every one", skipped)
	}
}

// A runtime that declares everything but unload (minor 2 or older) gets
// the scenarios that unload plan mode skipped, naming the capability, and
// every other scenario run.
func TestUnloadSkippedWithoutTheCapability(t *testing.T) {
	// every SVC scenario but the catalog's signatures and what a reply
	// announces unloads plan mode
	unloads := func(id string) bool {
		return strings.HasPrefix(id, "rt-svc-") && id != "rt-svc-catalog-signatures" && id != "rt-svc-reply-announces-outcome"
	}
	if skipped := skippedWithout(t, func(c *loop.Capabilities) { c.Unload = false }, "unload", unloads); skipped != 5 {
		t.Errorf("%d unload scenarios skipped, want all 5", skipped)
	}
}

// A runtime that does not declare commandOutcomes (minor 4 or older) gets
// the scenario of what a /plan reply announces skipped, naming the
// capability, and every other scenario run.
func TestCommandOutcomesSkippedWithoutTheCapability(t *testing.T) {
	announces := func(id string) bool { return id == "rt-svc-reply-announces-outcome" }
	if skipped := skippedWithout(t, func(c *loop.Capabilities) { c.CommandOutcomes = false }, "commandOutcomes", announces); skipped != 1 {
		t.Errorf("%d announcement scenarios skipped, want 1", skipped)
	}
}

// A runtime that does not declare assemblyTools (minor 4 or older) gets
// the scenario with a tool a later prompt-assembly listener adds skipped,
// naming the capability, and every other scenario run.
func TestAssemblyToolsSkippedWithoutTheCapability(t *testing.T) {
	assembly := func(id string) bool { return id == "rt-exit-assembly-tools-in-plan-mode" }
	if skipped := skippedWithout(t, func(c *loop.Capabilities) { c.AssemblyTools = false }, "assemblyTools", assembly); skipped != 1 {
		t.Errorf("%d assembly-tool scenarios skipped, want 1", skipped)
	}
}

// skippedWithout runs the suite against the built-in runtime with one
// capability withdrawn, requires the scenarios needing it skipped with a
// message naming it and every other scenario passed, and returns how many
// were skipped.
func skippedWithout(t *testing.T, withdraw func(*loop.Capabilities), capability string, needs func(id string) bool) int {
	t.Helper()
	newRuntime := func() loop.Runtime {
		b := builtin(loop.RetryPreStep)().(*loop.Builtin)
		id, err := b.Start()
		if err != nil {
			t.Fatal(err)
		}
		caps := id.Capabilities
		withdraw(&caps)
		return limited{b, caps}
	}
	res, err := suite.Run(context.Background(), suite.Options{NewRuntime: newRuntime})
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for _, c := range res.Cases {
		switch need := needs(c.ID); {
		case need && c.Status == report.Skipped && strings.Contains(c.Message, capability):
			skipped++
		case !need && (c.Status == report.Passed || otherReading(c)):
		default:
			t.Errorf("%s: %s: %s", c.ID, c.Status, c.Message)
		}
	}
	return skipped
}
