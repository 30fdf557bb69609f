package sim

// The compact action compacts an agent's session: the runtime appends
// compact/start, compact/summary and compact/end; the log keeps every
// earlier event. Example:
//
//	compact: {agent: main}
var _ = declare(kind[AgentAction]{
	name:   "compact",
	of:     func(a *Action) **AgentAction { return &a.Compact },
	agent_: func(c *AgentAction) string { return c.Agent },
	apply_: func(r *Runtime, res *Result, c *AgentAction) error { return r.doCompact(res, c) },
	schema: `{"$ref": "#/$defs/agentOnly"}`,
	draws: []Draw{{Name: "compact", Default: true, Make: func(w World, c Chooser) (Action, bool) {
		a, ok := pickAgent(w, c, nil)
		return Action{Compact: &AgentAction{Agent: a}}, ok
	}}},
})
