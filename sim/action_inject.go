package sim

// The inject action queues text for the agent's next step without waking
// it: between turns it waits for the next turn. Example:
//
//	inject: {agent: main, text: "CI is red."}
var _ = declare(kind[TextAction]{
	name:   "inject",
	of:     func(a *Action) **TextAction { return &a.Inject },
	agent_: func(t *TextAction) string { return t.Agent },
	apply_: func(r *Runtime, res *Result, t *TextAction) error { return r.doQueue(res, t, false) },
	schema: `{"$ref": "#/$defs/text"}`,
})
