package sim

// The get action observes get(agent) and nothing else. Example:
//
//	get: {agent: main}
var _ = declare(kind[AgentAction]{
	name:   "get",
	of:     func(a *Action) **AgentAction { return &a.Get },
	agent_: func(g *AgentAction) string { return g.Agent },
	apply_: func(r *Runtime, _ *Result, g *AgentAction) error {
		_, err := r.agent(g.Agent)
		return err
	},
	schema: `{"$ref": "#/$defs/agentOnly"}`,
	draws: []Draw{{Name: "get", Default: true, Make: func(w World, c Chooser) (Action, bool) {
		a, ok := pickAgent(w, c, nil)
		return Action{Get: &AgentAction{Agent: a}}, ok
	}}},
})
