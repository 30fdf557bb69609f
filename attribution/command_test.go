package attribution

import (
	"slices"
	"testing"
)

// A typed line's row says what /plan does with its argument: bare CMD-2,
// the exact off CMD-4 (and off in another case or padded, which only the
// exact argument is), any other argument CMD-3, a line that is not /plan
// CMD-1 (whether /plan is registered); the same at both levels.
func TestCommandRow(t *testing.T) {
	for input, want := range map[string]string{
		"/plan": "CMD-2", "/plan   ": "CMD-2",
		"/plan off": "CMD-4", "/plan  off ": "CMD-4", "/plan OFF": "CMD-4",
		"/plan off now": "CMD-3", "/plan sketch it first": "CMD-3",
		"/plans": "CMD-1", "/plan\toff": "CMD-1", " /plan off": "CMD-1", "/help plan": "CMD-1",
	} {
		for _, runtime := range []bool{false, true} {
			id := CommandRow(input, runtime)
			rule := Table[slices.IndexFunc(Table, func(r Rule) bool { return r.ID == id })]
			if !slices.Equal(rule.Clauses, []string{want}) || IsRuntime(rule.Observation) != runtime {
				t.Errorf("CommandRow(%q, %t) = %s (%s, %v), want a row of that level naming %s", input, runtime, id, rule.Observation, rule.Clauses, want)
			}
		}
	}
	if got := ForCommand(RowPlanCommandOther, "/plan OFF", false); !slices.Equal(got, []string{"CMD-4"}) {
		t.Errorf("ForCommand(plan-command-other, /plan OFF) = %v, want [CMD-4]", got)
	}
	if got := ForCommand(RowGetCommand, "/plans", false); !slices.Equal(got, []string{"CMD-1"}) {
		t.Errorf("ForCommand(get-command, /plans) = %v, want [CMD-1]", got)
	}
	if got := Among(RowAttempts, []string{"PEND-6", "CFG-2", "STEP-3"}); !slices.Equal(got, []string{"PEND-6", "STEP-3"}) {
		t.Errorf("Among(attempts, …) = %v", got)
	}
}
