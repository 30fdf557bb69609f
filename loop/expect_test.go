package loop_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// An empty list is an expectation ("appends nothing") and must survive
// being written into a trace; a missing one stays missing.
func TestExpectKeepsEmptyListsWhenWritten(t *testing.T) {
	for _, tc := range []struct {
		in   loop.Expect
		want string
	}{
		{loop.Expect{PlanMode: []bool{}, Section: []bool{}}, `{"planMode":[],"section":[]}`},
		{loop.Expect{PlanMode: []bool{true}}, `{"planMode":[true]}`},
		{loop.Expect{Clause: "EXIT-6"}, `{"clause":"EXIT-6"}`},
	} {
		b, err := json.Marshal(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("marshal %+v: got %s, want %s", tc.in, b, tc.want)
		}
		var back loop.Expect
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if (back.PlanMode == nil) != (tc.in.PlanMode == nil) || !slices.Equal(back.PlanMode, tc.in.PlanMode) {
			t.Errorf("round trip of %s: planMode %#v, want %#v", b, back.PlanMode, tc.in.PlanMode)
		}
	}
}

// TestExpectationsOfRequestsAndResults: the expectations on a step's
// events, requests and results say what they saw.
func TestExpectationsOfRequestsAndResults(t *testing.T) {
	order := 50
	d := loop.StepDone{
		Step: loop.Step{Turn: &loop.TurnRequest{Agent: "main"}},
		Obs: loop.Observation{
			Events: []sim.Event{{Type: spec.TypeTurnStart}, {Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":true}`)}, {Type: spec.TypeStepStart}},
			Requests: []loop.ModelRequest{{
				Sections: []loop.Section{{Name: spec.SectionName, Order: &order, Text: "Plan first."}},
				Tools:    []string{spec.ExitTool},
			}},
			Results: []loop.ActionResult{{ID: "c1", Tool: &loop.ToolResult{Name: spec.ExitTool, Error: "Keep planning: add tests."}}},
		},
		Command: &loop.CommandResult{Kind: "success"},
	}
	holds := loop.Expect{
		Events:      &loop.EventsExpect{Types: []string{spec.TypePlanMode, spec.TypeStepStart}, Are: []string{"plan/mode true", "step/start"}},
		SectionText: []loop.RequestSection{{Request: 1, Text: "Plan first."}},
		Offers:      spec.ExitTool,
		Carries:     map[string]string{"c1": "add tests"},
		Command:     "success",
	}
	if fs := holds.Check(d); len(fs) != 0 {
		t.Errorf("holds: %v", fs)
	}
	for _, c := range []struct {
		x    loop.Expect
		want string
	}{
		{loop.Expect{Events: &loop.EventsExpect{Types: []string{spec.TypePlanMode}, Are: []string{"plan/mode false"}}}, "events of types plan/mode: got plan/mode true, want plan/mode false"},
		{loop.Expect{SectionText: []loop.RequestSection{{Request: 1, Text: "Plan later."}}}, `request 1: plan:policy: got "Plan first.", want "Plan later."`},
		{loop.Expect{SectionText: []loop.RequestSection{{Request: 2, Text: "Plan first."}}}, "request 2: the step sent 1 requests"},
		{loop.Expect{NoticeIn: []int{1}}, "request 1: plan-mode notice: got none among 0 messages, want one"},
		{loop.Expect{Offers: "ask_user"}, "request 1 tools: got [exit_plan_mode], want ask_user among them"},
		{loop.Expect{Asked: []string{"c1"}}, "tool call c1 asked the user: got not asked, want asked"},
		{loop.Expect{Carries: map[string]string{"c2": "x"}}, `tool call c2 carries "x": got no result`},
		{loop.Expect{Command: "error"}, "command reported: got success, want error"},
		// A failure carries the implementation's own text.
		{loop.Expect{Results: map[string]string{"c1": "ok"}}, `result c1: got "failed" ("Keep planning: add tests."), want "ok"`},
	} {
		fs := c.x.Check(d)
		if len(fs) != 1 || fs[0].Message != c.want {
			t.Errorf("%+v: got %v, want %q", c.x, fs, c.want)
		}
	}
}

// A step's turn end is the reason kind of the last turn/end it logged: a
// reason's kind, a plain string reason, or none.
func TestTurnEnd(t *testing.T) {
	ends := func(data ...string) loop.StepDone {
		var d loop.StepDone
		for i, s := range data {
			d.Obs.Events = append(d.Obs.Events, sim.Event{Seq: i, Type: spec.TypeTurnEnd, Data: json.RawMessage(s)})
		}
		return d
	}
	for _, tc := range []struct {
		step loop.StepDone
		want string
	}{
		{ends(), ""},
		{ends(`{"turn":1,"reason":{"kind":"completed"}}`), "completed"},
		{ends(`{"turn":1,"reason":"blocked"}`), "blocked"},
		{ends(`{"turn":1}`), ""},
		{ends(`{"turn":1,"reason":{"kind":""}}`), ""},
		{ends(`{"turn":1,"reason":"blocked"}`, `{"turn":2,"reason":{"kind":"interrupted"}}`), "interrupted"},
		{ends(`{"turn":1,"reason":"blocked"}`, `not json`), ""},
	} {
		if got := loop.TurnEnd(tc.step); got != tc.want {
			t.Errorf("%v: turn end %q, want %q", tc.step.Obs.Events, got, tc.want)
		}
	}
}
