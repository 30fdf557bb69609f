package loop

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// A runtime that does not let plan mode go at an unload is found out: its
// section, its tool, its plan/mode events, its notices and a /plan that
// still succeeds are each an SVC-2 finding; the same observations before
// the unload, or after plan mode is loaded again, are not.
func TestInvariantsJudgeAnUnloadedPlanMode(t *testing.T) {
	notice, _ := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": "Plan mode is on."}}, "role": "user",
		"source": map[string]string{"kind": "plugin", "plugin": spec.PluginName, "form": "notice"}})
	leaky := Observation{
		Events: []sim.Event{
			{Seq: 0, Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":true}`)},
			{Seq: 1, Type: spec.TypeUserMessage, Data: notice},
		},
		Requests: []ModelRequest{{At: 2, Sections: []Section{{Name: spec.SectionName, Text: "Plan first."}}, Tools: []string{spec.ExitTool}}},
	}
	turn := Step{Turn: &TurnRequest{Agent: "main", Prompt: "Go."}}
	plan := Step{Command: &CommandRequest{Agent: "main", Input: " /plan think"}}
	rec := func(unloaded bool) Record {
		steps := []StepDone{}
		if unloaded {
			steps = append(steps, StepDone{Step: Step{Unload: &struct{}{}}})
		}
		steps = append(steps, StepDone{Step: turn, Obs: leaky}, StepDone{Step: plan, Start: 2, Command: &CommandResult{Kind: "success"}})
		return Record{Steps: steps, Logs: map[string][]sim.Event{"main": leaky.Events}, Agents: []string{"main"}}
	}
	tr := Trace{Config: json.RawMessage(`{"section":"Plan first."}`)}
	got := Invariants(tr, rec(true))
	var svc []string
	for _, f := range got {
		if f.Clause == "SVC-2" {
			svc = append(svc, f.Message)
		}
	}
	for _, want := range []string{"plan/mode is appended", "a plan-mode notice is logged", "plan:policy is rendered", "offers exit_plan_mode", `" /plan think" succeeds`} {
		if !slices.ContainsFunc(svc, func(m string) bool { return strings.Contains(m, want) }) {
			t.Errorf("no SVC-2 finding says %q; findings: %v", want, got)
		}
	}
	for _, f := range Invariants(tr, rec(false)) {
		if f.Clause == "SVC-2" {
			t.Errorf("with plan mode loaded: %v", f)
		}
	}
	reloaded := rec(true)
	reloaded.Steps = slices.Insert(reloaded.Steps, 1, StepDone{Step: Step{Reload: &struct{}{}}})
	for _, f := range Invariants(tr, reloaded) {
		if f.Clause == "SVC-2" {
			t.Errorf("after a reload: %v", f)
		}
	}
}

// While plan mode is unloaded its service cannot be asked: a get or set,
// as a step or as host code in a turn, is the trace's error, not the
// runtime's; after a reload it may be asked again.
func TestSessionRefusesTheServiceWhileUnloaded(t *testing.T) {
	s := &Session{unloaded: true, rec: Record{Agents: []string{"main"}, Logs: map[string][]sim.Event{}}}
	during := Script{Responses: []Response{{During: []HostAction{{ID: "g", Get: &struct{}{}}}}}}
	for _, st := range []Step{
		{Get: &AgentRequest{Agent: "main"}},
		{Set: &SetRequest{Agent: "main", Active: true}},
		{Turn: &TurnRequest{Agent: "main", Prompt: "Go.", Script: during}},
	} {
		var in *sim.InputError
		if err := s.step(st); !errors.As(err, &in) || !strings.Contains(err.Error(), "unloaded") {
			t.Errorf("%s while unloaded: %v, want an input error", st.Name(), err)
		}
	}
	if asksService(Step{Turn: &TurnRequest{Agent: "main", Prompt: "Go."}}) {
		t.Error("a turn without host actions asks the service")
	}
}

// While plan mode is unloaded an outside writer may still append plan/mode
// (as an append step or host code in a turn): that is the host's, not a
// plan mode that did not let go; one more is.
func TestInvariantsLetOutsideWritersAppendWhileUnloaded(t *testing.T) {
	pm := func(seq int) sim.Event {
		return sim.Event{Seq: seq, Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":true}`)}
	}
	turn := Step{Turn: &TurnRequest{Agent: "main", Prompt: "Go.", Script: Script{Responses: []Response{{During: []HostAction{{ID: "w", Append: &AppendArg{Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":true}`)}}}}}}}}
	for _, c := range []struct {
		events []sim.Event
		want   int
	}{{[]sim.Event{pm(0)}, 0}, {[]sim.Event{pm(0), pm(1)}, 1}} {
		rec := Record{Agents: []string{"main"}, Logs: map[string][]sim.Event{"main": c.events}, Steps: []StepDone{
			{Step: Step{Unload: &struct{}{}}}, {Step: turn, Obs: Observation{Events: c.events}},
		}}
		n := 0
		for _, f := range Invariants(Trace{}, rec) {
			if f.Clause == "SVC-2" {
				n++
			}
		}
		if n != c.want {
			t.Errorf("%d plan/mode events with one outside append: %d SVC-2 findings, want %d", len(c.events), n, c.want)
		}
	}
}

// The exit tool stands in every request's catalog exactly once (EXIT-1):
// missing or listed twice is a finding, once is not.
func TestInvariantsCountTheExitTool(t *testing.T) {
	for _, tc := range []struct {
		tools []string
		want  string
	}{
		{[]string{"read", spec.ExitTool}, ""},
		{[]string{"read"}, "has no exit_plan_mode"},
		{[]string{spec.ExitTool, "read", spec.ExitTool}, "lists exit_plan_mode 2 times"},
	} {
		obs := Observation{Requests: []ModelRequest{{At: 0, Tools: tc.tools}}}
		rec := Record{Steps: []StepDone{{Step: Step{Turn: &TurnRequest{Agent: "main", Prompt: "Go."}}, Obs: obs}},
			Logs: map[string][]sim.Event{"main": nil}, Agents: []string{"main"}}
		var exit []string
		for _, f := range Invariants(Trace{}, rec) {
			if f.Clause == "EXIT-1" && strings.Contains(f.Message, "exit_plan_mode") {
				exit = append(exit, f.Message)
			}
		}
		switch {
		case tc.want == "" && len(exit) > 0:
			t.Errorf("%v: %v", tc.tools, exit)
		case tc.want != "" && !slices.ContainsFunc(exit, func(m string) bool { return strings.Contains(m, tc.want) }):
			t.Errorf("%v: no finding says %q: %v", tc.tools, tc.want, exit)
		}
	}
}
