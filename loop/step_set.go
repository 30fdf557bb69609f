package loop

import (
	"fmt"

	"github.com/plankit/plankit/sim"
)

// SetRequest is a selection between turns: the plugin level's set action
// (sim.SetAction), the same names and fields at both levels.
type SetRequest = sim.SetAction

var _ = declare(kind[SetRequest]{
	key:     "set",
	of:      func(s *Step) **SetRequest { return &s.Set },
	agent_:  func(r *SetRequest) string { return r.Agent },
	detail_: func(r *SetRequest) string { return fmt.Sprintf(" active=%t", r.Active) },
	service: true,
	play_: func(s *Session, done *StepDone, q *SetRequest) error {
		r, err := s.rt.Set(*q)
		done.Obs, done.Set = r.Observation, &r.SetResult
		return err
	},
	doc:     "a selection between turns",
	example: "set: {agent: main, active: true}",
	schema:  `{"$ref": "https://plankit.github.io/schema/runtime/v1/set.json#/$defs/params"}`,
	draws: []Draw{{Name: "set", Make: func(g *Gen) Step {
		return Step{Set: &SetRequest{Agent: "main", Active: g.R.IntN(2) == 0}}
	}}},
	letters: func(Capabilities) (alphabet, _ []Step) {
		return []Step{{Set: &SetRequest{Agent: "main", Active: true}}, {Set: &SetRequest{Agent: "main", Active: false}}}, nil
	},
})
