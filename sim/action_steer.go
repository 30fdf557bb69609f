package sim

// The steer action queues user text for the agent's next step; between
// turns it starts a turn, as a prompt does. Example:
//
//	steer: {agent: main, text: "Also update the docs."}
var _ = declare(kind[TextAction]{
	name:   "steer",
	of:     func(a *Action) **TextAction { return &a.Steer },
	agent_: func(t *TextAction) string { return t.Agent },
	apply_: func(r *Runtime, res *Result, t *TextAction) error { return r.doQueue(res, t, true) },
	schema: `{"$ref": "#/$defs/text"}`,
})
