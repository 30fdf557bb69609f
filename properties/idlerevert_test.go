package properties

import (
	"context"
	"testing"

	"github.com/plankit/plankit/internal/voice"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// A plugin that defers an idle commit's narration to the next accepted
// in-turn pre-step (idle-revert-notice=net) and one that injects it at the
// commit (keep, the reference's default) both pass the properties when
// they declare nothing or the reading they follow; declaring the other
// reading fails the narration property.
func TestIdleRevertNoticeReadings(t *testing.T) {
	only := []string{NameNarration, NameStateMachine}
	for _, r := range voice.IdleRevertReadings {
		cases, err := Run(context.Background(), Options{NewPort: r.Port(reference.Choices{}), Seed: 1, Checks: 40, Only: only, CounterexampleDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range cases {
			if (k.Status == report.Passed) != r.Honest() {
				t.Errorf("%s: %s %s %s", r, k.ID, k.Status, k.Message)
			}
		}
	}
}

// Settle keeps only the readings that explained every action so far: once
// one is left, the other never comes back, so a run cannot pass by
// following one reading at one action and the other at the next.
func TestSettleNeverMixesReadings(t *testing.T) {
	setup := Setup{Services: sim.Services{Commands: true, UserQuestions: true}, Retries: sim.RetriesPreStep}
	// nothing declared: an idle commit forks the model into the two
	// readings of idle-revert-notice, and nothing else
	either := func() *Model {
		m := NewModel(setup, ChoicesOf(nil))
		if m.Undeclared() {
			t.Fatal("a model forks before any action parts its readings")
		}
		for _, act := range []sim.Action{
			{Prompt: &sim.TextAction{Agent: "main", Text: "Look."}},
			{Step: &sim.StepAction{Agent: "main"}}, // a header showing inactive
			{EndTurn: &sim.EndTurnAction{Agent: "main"}},
		} {
			m.Apply(act)
		}
		if m.Undeclared() {
			t.Fatal("a model forks before an idle commit")
		}
		m.Apply(sim.Action{Set: &sim.SetAction{Agent: "main", Active: true}})
		if len(m.alts) != 1 || m.alts[0].Choices.IdleRevertNotice != spec.IdleRevertNoticeNet || m.Choices.IdleRevertNotice != spec.IdleRevertNoticeKeep {
			t.Fatalf("an idle commit forks the model into %d others: %+v", len(m.alts), m.alts)
		}
		return m
	}
	m := either()
	if !m.Undeclared() || !m.Settle(true, []bool{true}) || !m.Undeclared() {
		t.Fatal("both readings explaining an action keep both")
	}
	if !m.Settle(false, []bool{true}) || m.Undeclared() || !m.defers() {
		t.Fatal("only the alt (net) explaining an action leaves net")
	}
	if m.Settle(true, nil) != true || m.Settle(false, nil) {
		t.Fatal("with one reading left, only it decides: the other explaining an action does not pass it")
	}
	m = either()
	if !m.Settle(true, []bool{false}) || m.Undeclared() || m.defers() {
		t.Fatal("only the model's own reading (keep) explaining an action leaves keep")
	}
	if m := either(); m.Settle(false, []bool{false}) {
		t.Fatal("neither reading explaining an action fails it")
	}

	if m := NewModel(setup, ChoicesOf(map[string]string{spec.ChoiceIdleRevertNotice: spec.IdleRevertNoticeKeep, spec.ChoicePlanArgument: spec.PlanArgumentTrimmed,
		spec.ChoiceUnloadedHeader: spec.UnloadedHeaderFold, spec.ChoiceLoggedPending: spec.LoggedPendingKeep})); m.Undeclared() {
		t.Fatal("a declared reading is the only one")
	}
}
