package loop

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/plankit/plankit/sim"
)

// The step table has one row per member of Step (but the expectation), in
// the members' order, each naming its member by the member's JSON key,
// declared for the member's type and finding it set; an empty step has no
// row.
func TestStepTableIsStepsMembers(t *testing.T) {
	for _, p := range TableProblems() {
		t.Error(p)
	}
	if s := (Step{}); s.Name() != "" || s.Members() != 0 || s.Agent() != "" || s.ScriptOf() != nil {
		t.Errorf("an empty step has a kind: %q", s.Name())
	}
	if n := (Step{Get: &AgentRequest{}, Set: &SetRequest{}}).Members(); n != 2 {
		t.Errorf("a step with get and set counts %d members", n)
	}
}

// What each kind of step needs of a runtime: its own capability, the one
// of an open with a log only, and its script's.
func TestNeedsByStepKind(t *testing.T) {
	for _, c := range []struct {
		step Step
		want []string
	}{
		{Step{Turn: &TurnRequest{}}, []string{}},
		{Step{Turn: &TurnRequest{Script: Script{Responses: []Response{{Fail: true}}}}}, []string{"retry"}},
		{Step{Set: &SetRequest{}}, []string{}},
		{Step{Get: &AgentRequest{}}, []string{}},
		{Step{Command: &CommandRequest{Script: &Script{PreSteps: []PreStep{{Behaviour: sim.Drop}}}}}, []string{"commands", "emptySteps"}},
		{Step{Append: &AppendRequest{}}, []string{"outsideAppend"}},
		{Step{Fault: &FaultRequest{}}, []string{"failAppend"}},
		{Step{Restart: &struct{}{}}, []string{"resume"}},
		{Step{Reload: &struct{}{}}, []string{"reload"}},
		{Step{Open: &OpenStep{Agent: "b"}}, []string{}},
		{Step{Open: &OpenStep{Agent: "b", Log: []sim.EventSpec{{Type: "x"}}}}, []string{"resume"}},
		{Step{Unload: &struct{}{}}, []string{"unload"}},
		{Step{Command: &CommandRequest{}, Expect: &Expect{Announces: "noop"}}, []string{"commandOutcomes", "commands"}},
	} {
		if got := (Trace{Steps: []Step{c.step}}).Needs(); !slices.Equal(got, c.want) {
			t.Errorf("%s needs %v, want %v", c.step.Name(), got, c.want)
		}
	}
	// host tools another prompt-assembly listener adds (minor 5)
	tools := Trace{HostTools: []HostTool{{Name: "read_file"}, {Name: "search", Assembly: true}}}
	if got, want := tools.Needs(), []string{"assemblyTools", "hostTools"}; !slices.Equal(got, want) {
		t.Errorf("assembly tools need %v, want %v", got, want)
	}
}

// Plan mode is unloaded from an unload to the next reload or restart.
func TestUnloadedAfter(t *testing.T) {
	for _, c := range []struct {
		step         Step
		before, want bool
	}{
		{Step{Unload: &struct{}{}}, false, true},
		{Step{Reload: &struct{}{}}, true, false},
		{Step{Restart: &struct{}{}}, true, false},
		{Step{Turn: &TurnRequest{}}, true, true},
		{Step{Turn: &TurnRequest{}}, false, false},
		{Step{}, true, true},
	} {
		if got := c.step.unloadedAfter(c.before); got != c.want {
			t.Errorf("after %q from unloaded=%t: %t, want %t", c.step.Name(), c.before, got, c.want)
		}
	}
}

// A step is written and read by the table's keys, member then
// expectation, and reads back as it was written.
func TestStepJSONByTheTable(t *testing.T) {
	in := Step{Fault: &FaultRequest{Agent: "main", Count: 2}, Expect: &Expect{Clause: "STEP-5"}}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != `{"fault":{"agent":"main","count":2},"expect":{"clause":"STEP-5"}}` {
		t.Fatalf("written %s", data)
	}
	var out Step
	if err := json.Unmarshal(data, &out); err != nil || out.Fault == nil || *out.Fault != *in.Fault || out.Expect == nil || out.Expect.Clause != "STEP-5" || out.Members() != 1 {
		t.Fatalf("read back %+v (%v)", out, err)
	}
	if err := json.Unmarshal([]byte(`{"set":{"active":"yes"}}`), &out); err == nil {
		t.Fatal("a member of the wrong shape read without an error")
	}
}
