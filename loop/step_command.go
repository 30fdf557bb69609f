package loop

import (
	"fmt"

	"github.com/plankit/plankit/sim"
)

// CommandRequest types a command; Script plays the turn it may start.
type CommandRequest struct {
	Agent  string  `json:"agent"`
	Input  string  `json:"input"`
	Script *Script `json:"script,omitempty"`
}

var _ = declare(kind[CommandRequest]{
	key:     "command",
	of:      func(s *Step) **CommandRequest { return &s.Command },
	agent_:  func(r *CommandRequest) string { return r.Agent },
	need:    "commands",
	script_: func(r *CommandRequest) *Script { return r.Script },
	detail_: func(r *CommandRequest) string { return fmt.Sprintf(" %q", r.Input) },
	play_: func(s *Session, done *StepDone, q *CommandRequest) error {
		r, err := s.rt.Command(*q)
		done.Obs, done.Command = r.Observation, &r.CommandResult
		return err
	},
	doc:     "a command typed between turns (the script plays the turn it may start)",
	example: `command: {agent: main, input: "/plan off"}`,
	schema:  `{"$ref": "https://plankit.github.io/schema/runtime/v1/command.json#/$defs/params"}`,
	draws: []Draw{{Name: "command", Needs: "commands", Make: func(g *Gen) Step {
		return Step{Command: &CommandRequest{Agent: "main", Input: sim.CommandInputs[g.R.IntN(len(sim.CommandInputs))]}}
	}}},
	// the alphabet types /plan off; the wide one bare /plan and /plan
	// with a message too (sim.CommandInputs' first three)
	letters: func(caps Capabilities) (alphabet, wide []Step) {
		if !caps.Commands {
			return nil, nil
		}
		typed := func(input string) Step { return Step{Command: &CommandRequest{Agent: "main", Input: input}} }
		return []Step{typed(sim.CommandInputs[1])}, []Step{typed(sim.CommandInputs[0]), typed(sim.CommandInputs[2])}
	},
})
