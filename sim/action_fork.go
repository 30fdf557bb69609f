package sim

import "fmt"

// ForkAction forks a session: a new agent whose log is a copy of the
// agent's (an open turn in the copy ends interrupted). get() of both is
// observed after it. Example:
//
//	fork: {agent: main, as: child}
type ForkAction struct {
	Agent string `json:"agent"`
	As    string `json:"as"`
}

var _ = declare(kind[ForkAction]{
	name:        "fork",
	of:          func(a *Action) **ForkAction { return &a.Fork },
	agent_:      func(f *ForkAction) string { return f.Agent },
	apply_:      func(r *Runtime, res *Result, f *ForkAction) error { return r.doFork(res, f) },
	touches_:    func(_ *Runtime, f *ForkAction) []string { return []string{f.Agent, f.As} },
	introduces_: func(f *ForkAction) string { return f.As },
	refuses_:    func(_ State, f *ForkAction) string { return unless(f.As != "", "the new agent needs a name (as)") },
	schema:      `{"type": "object", "additionalProperties": false, "required": ["agent", "as"], "properties": {"agent": {"$ref": "#/$defs/agent"}, "as": {"$ref": "#/$defs/agent"}}}`,
	draws: []Draw{{Name: "fork", Default: true, Make: func(w World, c Chooser) (Action, bool) {
		n := len(w.Agents())
		if n >= MaxDrawnAgents {
			return Action{}, false
		}
		a, ok := pickAgent(w, c, nil)
		return Action{Fork: &ForkAction{Agent: a, As: fmt.Sprintf("fork-%d", n-1)}}, ok
	}}},
})
