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
	want := []string{`planMode: expected [false], got [{"active":false,"extra":1}]`}
	if got := (&Expect{PlanMode: []bool{false}}).Check("main", r); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	r.Appended[1].Event.Data = json.RawMessage(`{"active":false}`)
	if got := (&Expect{PlanMode: []bool{false}}).Check("main", r); got != nil {
		t.Errorf("exact data: got %q", got)
	}
	// An outside writer's malformed data is not the implementation's: it
	// reads as the value it folds to (none, so false) and passes.
	r.Appended[1].Event.Data, r.Appended[1].ByPlugin = json.RawMessage(`{"active":false,"extra":1}`), false
	if got := (&Expect{PlanMode: []bool{false}}).Check("main", r); got != nil {
		t.Errorf("an outside writer's malformed data: got %q", got)
	}
}

func TestListenerExpectations(t *testing.T) {
	note := sim.Message{Role: "user", Text: "Remember the style guide."}
	r := stepResult()
	r.PreStep = &sim.PreStepTrace{Downstream: sim.Decision{Kind: sim.Accept, Messages: []sim.Message{note}}, Decision: sim.Decision{Kind: sim.Accept, Messages: []sim.Message{note}}}
	r.Effects = []sim.AgentEffect{
		{Agent: "main", Effect: sim.Effect{Kind: sim.EffectDownstream}},
		{Agent: "main", Effect: sim.Effect{Kind: sim.EffectAppend, Type: spec.TypePlanMode}},
	}
	yes, no := true, false
	holds := Expect{Listener: &ListenerExpect{Ran: &yes, Saw: []string{note.Text}, Passed: &yes, DownstreamFirst: &yes}}
	if got := holds.Check("main", r); got != nil {
		t.Errorf("holds: %q", got)
	}
	rejected := r
	rejected.PreStep = &sim.PreStepTrace{Downstream: r.PreStep.Downstream, Decision: sim.Decision{Kind: sim.Reject}}
	for _, c := range []struct {
		name string
		x    ListenerExpect
		r    sim.Result
		want string
	}{
		{"ran", ListenerExpect{Ran: &no}, r, "listener.ran: expected false, got true"},
		{"saw", ListenerExpect{Saw: []string{"Other."}}, r, `listener.saw: expected "Other." in the downstream decision, got {"kind":"accept","messages":[{"role":"user","source":{"kind":""},"text":"Remember the style guide."}]}`},
		{"passed", ListenerExpect{Passed: &yes}, rejected, "listener.passed: expected true, got false (the downstream decided accept, the plugin returned reject)"},
		{"downstream first", ListenerExpect{DownstreamFirst: &no}, r, "listener.downstreamFirst: expected false, got true"},
		{"did not run", ListenerExpect{Saw: []string{note.Text}}, stepResult(), "listener: the plugin's listener did not run for the step"},
	} {
		got := (&Expect{Listener: &c.x}).Check("main", c.r)
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestRegisteredExpectations(t *testing.T) {
	reg := &sim.LoadReply{Listener: sim.Append, Tools: []sim.Tool{{Name: spec.ExitTool}}, Sections: []string{spec.SectionName}}
	yes := true
	x := Expect{Registered: &RegisteredExpect{Listener: sim.Prepend, Tools: []string{spec.ExitTool, "ask"}, Sections: []string{spec.SectionName}, Command: &yes}}
	want := []string{
		"registered.listener: expected prepend, got append",
		`registered.tools: expected ask among them, got ["exit_plan_mode"]`,
		"registered.command: expected true, got false (commands [])",
	}
	if got := x.Check("main", sim.Result{Load: reg}); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := x.Check("main", sim.Result{}); !slices.Equal(got, []string{"registered: the action loaded nothing"}) {
		t.Errorf("no load: got %q", got)
	}
}

func TestStartsAndUserMessages(t *testing.T) {
	r := stepResult()
	r.Appended = append(r.Appended, sim.Appended{Agent: "main", Event: sim.Event{Type: spec.TypeUserMessage, Data: sim.MessageData(sim.Message{Role: "user", Source: sim.Source{Kind: "user"}, Text: "Plan it."})}})
	no := false
	x := Expect{Started: &no, UserMessages: []string{"Plan it.", "Go."}}
	want := []string{
		"started: expected false, got true (appended [step/start plan/mode request/header user/message])",
		`userMessages: expected "Go." among them, got ["Plan it."]`,
	}
	if got := x.Check("main", r); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
