package trace

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// stepResult is an accepted step of agent main: plan/mode appended before
// the request header, one request with the plan:policy section, a review
// and two tool calls.
func stepResult() sim.Result {
	appended := func(typ, data string) sim.Appended {
		return sim.Appended{Agent: "main", Event: sim.Event{Type: typ, Data: json.RawMessage(data)}, ByPlugin: typ == spec.TypePlanMode}
	}
	return sim.Result{
		Decision: sim.Accept,
		Appended: []sim.Appended{
			appended(spec.TypeStepStart, `{}`),
			appended(spec.TypePlanMode, `{"active":true}`),
			appended(spec.TypeRequestHeader, `{}`),
		},
		Requests: []sim.Request{{Agent: "main", Sections: []sim.Section{{Name: spec.SectionName, Text: "Plan first.", Order: spec.SectionOrder}}}},
		Effects:  []sim.AgentEffect{{Agent: "main", Effect: sim.Effect{Kind: sim.EffectAsk}}},
		Tools: []sim.ToolOutcome{
			{OK: true, Result: json.RawMessage(`{"approved": true}`), Asked: true},
			{Error: "exit_plan_mode is only available in plan mode"},
		},
	}
}

func TestExpectationsOfAStep(t *testing.T) {
	text, other := "Plan first.", "Plan later."
	n := func(v int) *int { return &v }
	yes, no := true, false
	for _, c := range []struct {
		name string
		x    Expect
		want []string
	}{
		{"all hold", Expect{Order: []string{spec.TypePlanMode, spec.TypeRequestHeader}, Requests: n(1), SectionText: &text, Reviews: n(1), Tool: &ToolExpect{Call: 1, OK: &yes, Approved: &yes}}, nil},
		{"order", Expect{Order: []string{spec.TypeRequestHeader, spec.TypePlanMode}}, []string{"order: expected request/header before plan/mode in this order, got [step/start plan/mode request/header]"}},
		{"order of a missing type", Expect{Order: []string{spec.TypePlanMode, spec.TypeTurnStart}}, []string{"order: expected plan/mode before turn/start in this order, got [step/start plan/mode request/header]"}},
		{"requests", Expect{Requests: n(0)}, []string{"requests: expected 0, got 1"}},
		{"section text", Expect{SectionText: &other}, []string{`sectionText: expected "Plan later." at order 50, got "Plan first." at order 50`}},
		{"reviews", Expect{Reviews: n(0)}, []string{"reviews: expected 0, got 1"}},
		{"the last tool call", Expect{Tool: &ToolExpect{OK: &yes}}, []string{`tool.ok: expected true, got false (error "exit_plan_mode is only available in plan mode")`}},
		{"a tool call by number", Expect{Tool: &ToolExpect{Call: 1, Approved: &no}}, []string{`tool.approved: expected false, got true (result {"approved": true})`}},
		{"a tool call that did not run", Expect{Tool: &ToolExpect{Call: 3, OK: &yes}}, []string{"tool.call: the action ran 2 tool calls, so there is no call 3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.x.Check("main", stepResult()); !slices.Equal(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestSectionTextOfARequestWithoutTheSection(t *testing.T) {
	r := stepResult()
	r.Requests[0].Sections = nil
	text := "Plan first."
	want := []string{`sectionText: expected "Plan first." at order 50, got absent`}
	if got := (&Expect{SectionText: &text}).Check("main", r); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestPlanDataMustBeExactlyActive: a plan/mode event whose data is not
// exactly {"active": bool} fails a plan expectation, even one whose values
// it would otherwise read as.
func TestPlanDataMustBeExactlyActive(t *testing.T) {
	r := stepResult()
	r.Appended[1].Event.Data = json.RawMessage(`{"active":false,"extra":1}`)
	want := []string{`plan: expected [false], got [{"active":false,"extra":1}]`}
	if got := (&Expect{Plan: []bool{false}}).Check("main", r); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	r.Appended[1].Event.Data = json.RawMessage(`{"active":false}`)
	if got := (&Expect{Plan: []bool{false}}).Check("main", r); got != nil {
		t.Errorf("exact data: got %q", got)
	}
	// An outside writer's malformed data is not the implementation's: it
	// reads as the value it folds to (none, so false) and passes.
	r.Appended[1].Event.Data, r.Appended[1].ByPlugin = json.RawMessage(`{"active":false,"extra":1}`), false
	if got := (&Expect{Plan: []bool{false}}).Check("main", r); got != nil {
		t.Errorf("an outside writer's malformed data: got %q", got)
	}
}
