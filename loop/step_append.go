package loop

import (
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// AppendRequest is an outside writer's append: the plugin level's append
// action (sim.AppendAction), the same names and fields at both levels.
type AppendRequest = sim.AppendAction

var _ = declare(kind[AppendRequest]{
	key:    "append",
	of:     func(s *Step) **AppendRequest { return &s.Append },
	agent_: func(r *AppendRequest) string { return r.Agent },
	need:   "outsideAppend",
	play_: func(s *Session, done *StepDone, q *AppendRequest) (err error) {
		done.Obs, err = s.rt.Append(*q)
		return err
	},
	doc:     "an outside writer appends an event",
	example: "append: {agent: main, type: plan/mode, data: {active: true}}",
	schema:  `{"$ref": "https://plankit.github.io/schema/runtime/v1/append.json#/$defs/params"}`,
	draws: []Draw{{Name: "append", Needs: "outsideAppend", Make: func(g *Gen) Step {
		return Step{Append: &AppendRequest{Agent: "main", Type: spec.TypePlanMode, Data: sim.JSON(map[string]bool{"active": g.R.IntN(2) == 0})}}
	}}},
	letters: func(caps Capabilities) (_, wide []Step) {
		if !caps.OutsideAppend {
			return nil, nil
		}
		return nil, []Step{{Append: &AppendRequest{Agent: "main", Type: spec.TypePlanMode, Data: sim.JSON(map[string]bool{"active": true})}}}
	},
})
