package loop

import (
	"encoding/json"
	"fmt"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

var _ = declare(kind[OpenStep]{
	key:        "open",
	of:         func(s *Step) **OpenStep { return &s.Open },
	agent_:     func(o *OpenStep) string { return o.Agent },
	introduces: true,
	need:       "resume",
	needIf:     func(o *OpenStep) bool { return len(o.Log) > 0 },
	refuses_: func(_ State, o *OpenStep) string {
		for i, e := range o.Log {
			if e.Type == "" {
				return fmt.Sprintf("open: event %d of the log needs a type", i)
			}
		}
		return ""
	},
	play_: playOpen,
	// the wide alphabet opens a second agent from a log in plan mode
	// (LOG-3: its state is the log's fold from the start)
	letters: func(caps Capabilities) (_, wide []Step) {
		if !caps.Resume {
			return nil, nil
		}
		return nil, []Step{{Open: &OpenStep{Agent: "side", Log: []sim.EventSpec{{Type: spec.TypePlanMode, Data: sim.JSON(map[string]bool{"active": true})}}}}}
	},
	doc:     "a new agent whose log starts as `log` (an outside writer's, possibly malformed), as a host opens a recorded or resumed session: the plugin level's `open` action, the same names. Carried by the protocol's `open` method; a non-empty log needs `resume`. The given events are the observed log's start (the lint rules do not judge them as the runtime's); later steps may address the agent, and a restart opens it again with its whole log",
	example: "open: {agent: side, log: [{type: plan/mode, data: {active: true}}]}",
	schema:  `{"type": "object", "additionalProperties": false, "required": ["agent"], "description": "Start a new agent from a given log, as a host opens a recorded or resumed session (the plugin level's open action, carried by the protocol's open method; a non-empty log needs resume).", "properties": {"agent": {"$ref": "https://plankit.github.io/schema/runtime/v1/common.json#/$defs/agent"}, "log": {"type": "array", "items": {"type": "object", "additionalProperties": false, "required": ["type"], "properties": {"type": {"type": "string", "minLength": 1}, "data": {}}}}}}`,
})

// playOpen introduces a new agent whose log starts as the step's: the
// events are part of the observed log, and what the runtime appends on
// opening continues it.
func playOpen(s *Session, done *StepDone, o *OpenStep) error {
	events := make([]sim.Event, 0, len(o.Log))
	for i, e := range o.Log {
		data := e.Data
		if len(data) == 0 {
			data = json.RawMessage("null")
		}
		events = append(events, sim.Event{Seq: i, Type: e.Type, Data: sim.Canonical(data)})
	}
	obs, err := s.rt.Open(OpenRequest{Agent: o.Agent, Events: events})
	done.Obs = obs
	s.rec.Agents = append(s.rec.Agents, o.Agent)
	s.rec.Logs[o.Agent] = events
	if err == nil {
		done.Start = len(events)
		err = s.observe(o.Agent, obs)
	}
	return err
}
