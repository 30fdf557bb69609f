package sim

// SetAction is a user selection: set(agent, active) on the plan-mode
// service. Its outcome and error are the action's result. Example:
//
//	set: {agent: main, active: true}
type SetAction struct {
	Agent  string `json:"agent"`
	Active bool   `json:"active"`
}

var _ = declare(kind[SetAction]{
	name:   "set",
	of:     func(a *Action) **SetAction { return &a.Set },
	agent_: func(s *SetAction) string { return s.Agent },
	apply_: func(r *Runtime, res *Result, s *SetAction) error { return r.doSet(res, s) },
	schema: `{"type": "object", "additionalProperties": false, "required": ["agent", "active"], "properties": {"agent": {"$ref": "#/$defs/agent"}, "active": {"type": "boolean"}}}`,
	draws: []Draw{{Name: "set", Default: true, Make: func(w World, c Chooser) (Action, bool) {
		a, ok := pickAgent(w, c, nil)
		return Action{Set: &SetAction{Agent: a, Active: c.Intn("active", 2) == 1}}, ok
	}}},
})
