package sim

// CommandAction types a slash command: the runtime logs command/run,
// dispatches a registered command to the implementation (an unregistered
// one fails as unknown) and logs command/done. Example:
//
//	command: {agent: main, input: "/plan off"}
type CommandAction struct {
	Agent string `json:"agent"`
	Input string `json:"input"`
}

// CommandInputs are the slash commands generators type: bare /plan, the
// exact off, a message, and the input details CMD-2..4 decide — surrounding
// whitespace, a blank argument, off in other cases or with trailing text,
// and another command name.
var CommandInputs = []string{
	"/plan", "/plan off", "/plan sketch the migration first",
	"/plan  off ", "/plan   ", "/plan OFF", "/plan off now", "/plans",
}

var _ = declare(kind[CommandAction]{
	name:   "command",
	of:     func(a *Action) **CommandAction { return &a.Command },
	agent_: func(c *CommandAction) string { return c.Agent },
	apply_: func(r *Runtime, res *Result, c *CommandAction) error { return r.doCommand(res, c) },
	schema: `{"type": "object", "additionalProperties": false, "required": ["agent", "input"], "properties": {"agent": {"$ref": "#/$defs/agent"}, "input": {"type": "string", "pattern": "^/"}}}`,
	draws: []Draw{{Name: "command", Default: true, Make: func(w World, c Chooser) (Action, bool) {
		a, ok := pickAgent(w, c, nil)
		return Action{Command: &CommandAction{Agent: a, Input: oneOf(c, "input", CommandInputs...)}}, ok
	}}},
})
