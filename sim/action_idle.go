package sim

// The idle action ends an agent's checkpointing: the agent goes idle. An
// agent with an open turn refuses it. Example:
//
//	idle: {agent: main}
var _ = declare(kind[AgentAction]{
	name:   "idle",
	of:     func(a *Action) **AgentAction { return &a.Idle },
	agent_: func(i *AgentAction) string { return i.Agent },
	apply_: func(r *Runtime, _ *Result, i *AgentAction) error { return r.doIdle(i) },
	refuses_: func(w State, i *AgentAction) string {
		return unless(!w.Open(i.Agent), "it has an open turn; end it before going idle")
	},
	schema: `{"$ref": "#/$defs/agentOnly"}`,
	draws: []Draw{{Name: "idle", Default: true, Make: func(w World, c Chooser) (Action, bool) {
		a, ok := pickAgent(w, c, func(n string) bool { return !w.Open(n) })
		return Action{Idle: &AgentAction{Agent: a}}, ok
	}}},
})
