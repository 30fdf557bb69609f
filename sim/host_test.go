package sim_test

import (
	"slices"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

func toolNames(ts []sim.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

// TestHostCatalog: the request's catalog is the host's registered tools,
// then those an assembly listener adds, as the plugin returns them; without
// the plugin it is the host's alone.
func TestHostCatalog(t *testing.T) {
	opts := sim.Options{HostTools: []string{"read", "write"}, AssemblyTools: []string{"search"}}
	rt := newRuntime(t, opts)
	do(t, rt, sim.Action{Prompt: &sim.TextAction{Agent: "main", Text: "Go."}})
	res := do(t, rt, sim.Action{Step: &sim.StepAction{Agent: "main"}})
	if got, want := toolNames(res.Requests[0].Tools), []string{"read", "write", "search", spec.ExitTool}; !slices.Equal(got, want) {
		t.Fatalf("catalog %v, want %v", got, want)
	}
	opts.NoPlugin, opts.Agents = true, []string{"main"}
	bare, _, err := sim.New(nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	do(t, bare, sim.Action{Prompt: &sim.TextAction{Agent: "main", Text: "Go."}})
	res = do(t, bare, sim.Action{Step: &sim.StepAction{Agent: "main"}})
	if got, want := toolNames(res.Requests[0].Tools), []string{"read", "write", "search"}; !slices.Equal(got, want) {
		t.Fatalf("catalog without the plugin %v, want %v", got, want)
	}
}

// TestHostToolGate: a host tool call the plugin's gate denies fails and
// does not run its host hook; an allowed one succeeds.
func TestHostToolGate(t *testing.T) {
	for _, tc := range []struct {
		mutants reference.Mutants
		ok      bool
	}{{nil, true}, {reference.Mutants{reference.HostToolsBlockedInPlan}, false}} {
		ran := 0
		opts := sim.Options{Config: []byte(`{"section":"Plan first."}`), Agents: []string{"main"}, HostTools: []string{"write"},
			Hooks: &sim.Hooks{HostTool: func(string, int) error { ran++; return nil }}}
		rt, _, err := sim.New(reference.NewPort(reference.Options{Mutants: tc.mutants}), opts)
		if err != nil {
			t.Fatal(err)
		}
		do(t, rt, sim.Action{Set: &sim.SetAction{Agent: "main", Active: true}})
		do(t, rt, sim.Action{Prompt: &sim.TextAction{Agent: "main", Text: "Go."}})
		res := do(t, rt, sim.Action{Step: &sim.StepAction{Agent: "main", Model: &sim.Model{Calls: []sim.ToolCall{{Name: "write"}}}}})
		if got := res.Tools[0].OK; got != tc.ok || (ran == 1) != tc.ok {
			t.Errorf("mutants %v: the call ok=%v (ran %d times), want ok=%v", tc.mutants, got, ran, tc.ok)
		}
	}
}

// TestSkippedEmptyStep: with empty steps skipped, an accepted step with
// nothing to send starts no step and ends the turn; a continuation after
// tool results runs with nothing claimed; the pre-step is told which.
func TestSkippedEmptyStep(t *testing.T) {
	rt := newRuntime(t, sim.Options{EmptySteps: sim.EmptyStepsSkip, HostTools: []string{"read"}})
	do(t, rt, sim.Action{Prompt: &sim.TextAction{Agent: "main", Text: "Go."}})
	do(t, rt, sim.Action{Step: &sim.StepAction{Agent: "main", Model: &sim.Model{Calls: []sim.ToolCall{{Name: "read"}}}}})
	res := do(t, rt, sim.Action{Step: &sim.StepAction{Agent: "main"}}) // continues after the tool result
	if res.Skipped || len(res.Requests) != 1 {
		t.Fatalf("the continuation was skipped=%v with %d requests", res.Skipped, len(res.Requests))
	}
	res = do(t, rt, sim.Action{Step: &sim.StepAction{Agent: "main"}}) // after a text-only response, nothing to send
	if !res.Skipped || len(res.Requests) != 0 {
		t.Fatalf("the empty step was skipped=%v with %d requests", res.Skipped, len(res.Requests))
	}
	if _, open := rt.Status("main"); open {
		t.Fatal("the skipped step left the turn open")
	}
	if _, _, err := sim.New(nil, sim.Options{NoPlugin: true, EmptySteps: "sometimes"}); err == nil {
		t.Fatal("an unknown empty-steps value was accepted")
	}
}
