package loop_test

import (
	"encoding/json"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/rtrace"
	"github.com/plankit/plankit/sim"
)

func builtin(t *testing.T, retry string, mutants ...string) *loop.Builtin {
	t.Helper()
	opts := reference.Options{}
	for _, m := range mutants {
		opts.Mutants = append(opts.Mutants, reference.Mutant(m))
	}
	b, err := loop.NewBuiltin(reference.NewPort(opts), retry)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func intp(n int) *int { return &n }

// tour exercises every kind of step and host action.
func tour() loop.Trace {
	set := func(id string, v bool) loop.HostAction {
		return loop.HostAction{ID: id, Set: &loop.ActiveArg{Active: v}}
	}
	return loop.Trace{
		Config:    json.RawMessage(`{"section":"Plan first."}`),
		Services:  &sim.Services{Commands: true, UserQuestions: true},
		HostTools: []loop.HostTool{{Name: "read_file"}},
		Listeners: []loop.Listener{{Name: "gate", Position: "before"}},
		Steps: []loop.Step{
			{Set: &loop.SetRequest{Agent: "main", Active: true}, Expect: &loop.Expect{Outcome: "committed", PlanMode: []bool{true}}},
			{Turn: &loop.TurnRequest{Agent: "main", Prompt: "Plan it.", Script: loop.Script{Responses: []loop.Response{
				{Calls: []loop.Call{{ID: "c1", Name: "exit_plan_mode", Args: json.RawMessage(`{"plan":"# Plan\n1. a"}`), Review: &sim.Review{Answer: "approve"}}}},
				{Text: "Doing it."},
			}}}, Expect: &loop.Expect{Results: map[string]string{"c1": "ok"}, PlanMode: []bool{false}, Notices: intp(0), Section: []bool{true, false}}},
			{Turn: &loop.TurnRequest{Agent: "main", Prompt: "Read.", Script: loop.Script{Responses: []loop.Response{
				{During: []loop.HostAction{set("s1", true)}, Calls: []loop.Call{{ID: "r1", Name: "read_file", Args: json.RawMessage(`{}`), During: []loop.HostAction{set("s2", false)}}}},
				{Calls: []loop.Call{{ID: "r2", Name: "read_file", Args: json.RawMessage(`{}`), During: []loop.HostAction{set("s3", true)}}}},
				{Fail: true},
				{Text: "Done."},
			}}}, Expect: &loop.Expect{Results: map[string]string{"s1": "queued", "s2": "cancelled", "s3": "queued", "r1": "ok"}, PlanMode: []bool{true}, TurnEnd: "completed"}},
			{Get: &loop.AgentRequest{Agent: "main"}, Expect: &loop.Expect{Active: boolp(true)}},
			{Turn: &loop.TurnRequest{Agent: "main", Prompt: "Blocked.", Script: loop.Script{
				PreSteps: []loop.PreStep{{Dispatch: 1, Listener: "gate", Behaviour: "reject", During: []loop.HostAction{set("s4", false)}}}}},
				Expect: &loop.Expect{Results: map[string]string{"s4": "queued"}, PlanMode: []bool{}, TurnEnd: "blocked"}},
			{Restart: &struct{}{}},
			{Get: &loop.AgentRequest{Agent: "main"}, Expect: &loop.Expect{Active: boolp(true)}},
			{Command: &loop.CommandRequest{Agent: "main", Input: "/plan off"}, Expect: &loop.Expect{PlanMode: []bool{false}}},
			{Append: &loop.AppendRequest{Agent: "main", Type: "plan/mode", Data: json.RawMessage(`{"active":true}`)}},
			{Get: &loop.AgentRequest{Agent: "main"}, Expect: &loop.Expect{Active: boolp(true)}},
			{Fault: &loop.FaultRequest{Agent: "main", Count: 1}},
			{Set: &loop.SetRequest{Agent: "main", Active: false}, Expect: &loop.Expect{Error: boolp(true), PlanMode: []bool{}}},
			{Reload: &struct{}{}},
		},
	}
}

func boolp(b bool) *bool { return &b }

func TestTheBuiltinRuntimePassesTheTour(t *testing.T) {
	for _, retry := range []string{loop.RetryPreStep, loop.RetrySameStep, loop.RetryNone} {
		t.Run(retry, func(t *testing.T) {
			tr := tour()
			if retry == loop.RetryNone {
				tr.Steps[2].Expect.TurnEnd = "error"
			}
			rec, err := loop.Run(builtin(t, retry), tr)
			if retry == loop.RetryNone {
				if !loop.IsSkip(err) {
					t.Fatalf("a trace with a failing request against a runtime without retries: got %v, want a skip", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fs := loop.Verdict(tr, rec); len(fs) > 0 {
				b, _ := json.MarshalIndent(rec.Logs["main"], "", " ")
				t.Fatalf("%s\n%s", loop.Describe(fs), b)
			}
		})
	}
}

// A response that a retry consumes streams like any other: its host
// actions run whichever way the runtime retries, and the retried request
// is observed.
func TestTheBuiltinRuntimeRunsTheHostActionsOfARetriedResponse(t *testing.T) {
	for _, retry := range []string{loop.RetryPreStep, loop.RetrySameStep} {
		t.Run(retry, func(t *testing.T) {
			tr := loop.Trace{
				Config:   json.RawMessage(`{"section":"Plan first."}`),
				Services: &sim.Services{Commands: true, UserQuestions: true},
				Steps: []loop.Step{
					{Turn: &loop.TurnRequest{Agent: "main", Prompt: "Go.", Script: loop.Script{Responses: []loop.Response{
						{Fail: true},
						{Text: "Done.", During: []loop.HostAction{{ID: "h1", Set: &loop.ActiveArg{Active: true}}}},
					}}}, Expect: &loop.Expect{Results: map[string]string{"h1": "queued"}, Requests: intp(2), PlanMode: []bool{}}},
				},
			}
			rec, err := loop.Run(builtin(t, retry), tr)
			if err != nil {
				t.Fatal(err)
			}
			if fs := loop.Verdict(tr, rec); len(fs) > 0 {
				t.Fatal(loop.Describe(fs))
			}
		})
	}
}

// A log where an approval's exit is cancelled by the user (its append had
// failed) and the user then leaves plan mode is right by the specification:
// the user's exit is narrated. No invariant, the lint rules included, may
// call it an approval's narrated exit.
func TestAUserExitAfterACancelledApprovalIsNarrated(t *testing.T) {
	tr, err := rtrace.ReadFile("testdata/cancelled-approval-then-user-exit.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, retry := range []string{loop.RetryPreStep, loop.RetrySameStep} {
		t.Run(retry, func(t *testing.T) {
			rec, err := loop.Run(builtin(t, retry), *tr)
			if err != nil {
				t.Fatal(err)
			}
			if fs := append(loop.Verdict(*tr, rec), loop.Invariants(*tr, rec)...); len(fs) > 0 {
				t.Fatal(loop.Describe(fs))
			}
		})
	}
}

// Under AssemblyBefore a host listener's code runs when the dispatch
// reaches it; code a dispatch never reached (an earlier listener rejected
// the step) runs in no later dispatch or turn.
func TestListenerCodeNotReachedDoesNotRunLater(t *testing.T) {
	b := builtin(t, loop.RetryPreStep)
	b.Assembly = sim.AssemblyBefore
	tr := loop.Trace{
		Config:    json.RawMessage(`{"section":"Plan first."}`),
		Services:  &sim.Services{Commands: true, UserQuestions: true},
		Listeners: []loop.Listener{{Name: "guard", Position: "before"}, {Name: "gate", Position: "after"}},
		Steps: []loop.Step{
			{Turn: &loop.TurnRequest{Agent: "main", Prompt: "Blocked.", Script: loop.Script{PreSteps: []loop.PreStep{
				{Dispatch: 1, Listener: "guard", Behaviour: "reject"},
				{Dispatch: 1, Listener: "gate", Behaviour: "accept", During: []loop.HostAction{{ID: "h1", Set: &loop.ActiveArg{Active: true}}}},
			}}}},
			{Turn: &loop.TurnRequest{Agent: "main", Prompt: "Go.", Script: loop.Script{Responses: []loop.Response{{Text: "Done."}}}}},
		},
	}
	rec, err := loop.Run(b, tr)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range rec.Steps {
		if len(d.Obs.Results) > 0 {
			t.Errorf("turn %d recorded %+v: the gate's code ran though no dispatch reached it", i+1, d.Obs.Results)
		}
	}
}
