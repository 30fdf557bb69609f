package lockstep

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/voice"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// A plugin that defers an idle commit's narration to the next accepted
// in-turn pre-step (idle-revert-notice=net) and one that injects it at the
// commit (keep) agree with the reference when they declare nothing (either:
// a diverging sequence passes when the other reading's reference agrees at
// every action) or the reading they follow; declaring the other reading
// diverges under STEP-6 or STEP-7, the clauses the choice refines.
func TestLockstepIdleRevertNoticeReadings(t *testing.T) {
	for _, r := range voice.IdleRevertReadings {
		res, err := Run(context.Background(), Options{NewImpl: r.Port(reference.Choices{}), Seed: 1, Cases: 200, Out: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		d := res.Divergence
		if (d != nil) == r.Honest() {
			t.Errorf("%s: divergence %v, want %v", r, d != nil, !r.Honest())
			if d != nil {
				t.Log(d.Summary())
			}
			continue
		}
		if d == nil {
			continue
		}
		t.Log(d.Summary())
		if len(d.Clauses) == 0 || !slices.Contains([]string{spec.STEP6, spec.STEP7}, d.Clauses[0]) {
			t.Errorf("%s: clauses %v, want STEP-6 or STEP-7 first", r, d.Clauses)
		}
		if !d.Reproduced || !d.PassesReference {
			t.Errorf("%s: trace reproduced %v, passes the reference %v", r, d.Reproduced, d.PassesReference)
		}
	}
}

// Where the implementation leaves idle-revert-notice undeclared and
// deviates elsewhere too, the divergence reported is the one of the
// reading that agreed with it longer: a deferring plugin (net) that keeps
// a cancelled selection pending is named under PEND-5 at the cancel, not
// under STEP-6 at the step before it, whose request carries, under the
// reference's keep, the notice of an idle change reverted before it; its
// trace, written against the reference under net (and saying so), fails
// against it and passes that reference.
func TestLockstepEitherReportsTheReadingThatAgreedLonger(t *testing.T) {
	newImpl := reference.Factory(reference.Options{Choices: reference.Choices{IdleRevertNotice: spec.IdleRevertNoticeNet}, Mutants: reference.Mutants{reference.CancelKeepsPending}, Declares: map[string]string{spec.ChoiceIdleRevertNotice: ""}})
	id, err := sim.Start(newImpl())
	if err != nil {
		t.Fatal(err)
	}
	keepRef, err := ReferenceFor(id.Choices, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &searcher{opts: Options{NewImpl: newImpl, Out: t.TempDir()}, newRef: keepRef, choices: id.Choices, reviewReplies: id.ReviewReplies, id: id}
	if err := s.withReadings(); err != nil {
		t.Fatal(err)
	}
	const agent = "main"
	acts := []sim.Action{
		{Prompt: &sim.TextAction{Agent: agent, Text: "Look."}},
		{Step: &sim.StepAction{Agent: agent}},
		{EndTurn: &sim.EndTurnAction{Agent: agent}},
		{Set: &sim.SetAction{Agent: agent, Active: true}},  // keep injects a notice here
		{Set: &sim.SetAction{Agent: agent, Active: false}}, // and keeps it; net owes nothing now
		{Prompt: &sim.TextAction{Agent: agent, Text: "Plan."}},
		{Step: &sim.StepAction{Agent: agent}}, // keep: the notice; net: none
		{Set: &sim.SetAction{Agent: agent, Active: true}},
		{Set: &sim.SetAction{Agent: agent, Active: false}}, // cancelled, yet left pending
	}
	setup := properties.Setup{Services: sim.Services{Commands: true, UserQuestions: true}, Retries: sim.RetriesPreStep}
	f, _, err := s.run(setup, acts)
	if err != nil || f == nil {
		t.Fatalf("no divergence (%v)", err)
	}
	if f.by == nil || f.by.reading[spec.ChoiceIdleRevertNotice] != spec.IdleRevertNoticeNet || len(f.acts) != len(acts) || f.diff.Clauses[0] != spec.PEND5 {
		t.Fatalf("reported %s at action %d (by %v), want the net reading's PEND-5 divergence at action %d", f.diff, len(f.acts), f.by != nil, len(acts))
	}
	d := s.divergence(f, "random", 0)
	if err := s.finish(d); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(d.Trace)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Reproduced || !d.PassesReference || !strings.Contains(string(b), "under idle-revert-notice=net") {
		t.Errorf("trace reproduced %v, passes the reference under net %v, says which reading:\n%s", d.Reproduced, d.PassesReference, b)
	}
}
