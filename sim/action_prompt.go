package sim

// The prompt action is a user prompt admitted between turns: it queues the
// text and starts a turn (turn/start at once, STEP-4). An agent with an
// open turn refuses it (use steer). Example:
//
//	prompt: {agent: main, text: "Plan the refactor."}
var _ = declare(kind[TextAction]{
	name:   "prompt",
	of:     func(a *Action) **TextAction { return &a.Prompt },
	agent_: func(t *TextAction) string { return t.Agent },
	apply_: func(r *Runtime, res *Result, t *TextAction) error { return r.doPrompt(res, t) },
	refuses_: func(w State, t *TextAction) string {
		return unless(!w.Open(t.Agent), "it has an open turn; a prompt is admitted only between turns (use steer)")
	},
	schema: `{"$ref": "#/$defs/text"}`,
	draws: []Draw{{Name: "prompt", Default: true, Make: func(w World, c Chooser) (Action, bool) {
		a, ok := pickAgent(w, c, func(n string) bool { return !w.Open(n) })
		return Action{Prompt: &TextAction{Agent: a, Text: oneOf(c, "text", "Tidy the README.", "Plan the refactor.")}}, ok
	}}},
})
