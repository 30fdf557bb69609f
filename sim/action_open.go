package sim

import (
	"encoding/json"
	"fmt"

	"github.com/plankit/plankit/spec"
)

// OpenAction starts an agent from a given log, as the host opens a recorded
// or resumed session: the implementation is opened with the whole log and
// must fold it (LOG-3). A turn the log leaves open ends interrupted, as on
// resume. Example:
//
//	open: {agent: resumed, log: [{type: plan/mode, data: {active: true}}]}
type OpenAction struct {
	Agent string      `json:"agent"`
	Log   []EventSpec `json:"log,omitempty"`
}

// EventSpec is an event written in a trace: its type and data (seq is its
// position).
type EventSpec struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data,omitempty"`
}

// drawnLogs are the logs generated open actions start from: empty, plan
// mode on, a whole turn, a flip back.
var drawnLogs = [][]EventSpec{
	nil,
	{{Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":true}`)}},
	{{Type: spec.TypeTurnStart, Data: json.RawMessage(`{"turn":1}`)}, {Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":true}`)}, {Type: spec.TypeTurnEnd, Data: json.RawMessage(`{"reason":{"kind":"completed"},"turn":1}`)}},
	{{Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":true}`)}, {Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":false}`)}},
}

// drawnMalformedLogs end with plan/mode data with no boolean active
// (LOG-1), drawn only where World.MalformedPlanMode.
var drawnMalformedLogs = [][]EventSpec{
	{{Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":true}`)}, {Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":"no"}`)}},
	{{Type: spec.TypePlanMode, Data: json.RawMessage(`{}`)}},
}

// drawOpen draws an agent opened from one of logs.
func drawOpen(logs [][]EventSpec) func(w World, c Chooser) (Action, bool) {
	return func(w World, c Chooser) (Action, bool) {
		n := len(w.Agents())
		if n >= MaxDrawnAgents {
			return Action{}, false
		}
		return Action{Open: &OpenAction{Agent: fmt.Sprintf("opened-%d", n-1), Log: oneOf(c, "log", logs...)}}, true
	}
}

var _ = declare(kind[OpenAction]{
	name:        "open",
	of:          func(a *Action) **OpenAction { return &a.Open },
	agent_:      func(o *OpenAction) string { return o.Agent },
	introduces_: func(o *OpenAction) string { return o.Agent },
	apply_: func(r *Runtime, res *Result, o *OpenAction) error {
		l := &Log{}
		for _, e := range o.Log {
			if e.Type == "" {
				return inputf("an event of the log needs a type")
			}
			l.Append(e.Type, e.Data)
		}
		if err := r.addAgent(o.Agent, l.Events()); err != nil {
			return err
		}
		if a := r.agents[o.Agent]; a.turnOpen {
			r.endTurn(res, a, "interrupted")
		}
		return nil
	},
	schema: `{"type": "object", "additionalProperties": false, "required": ["agent"], "description": "Start a new agent from a given log, as a host opens a recorded or resumed session; a turn the log leaves open ends interrupted (LOG-3).", "properties": {"agent": {"$ref": "#/$defs/agent"}, "log": {"type": "array", "items": {"type": "object", "additionalProperties": false, "required": ["type"], "properties": {"type": {"type": "string", "minLength": 1}, "data": {}}}}}}`,
	draws: []Draw{
		{Name: "open", Make: drawOpen(drawnLogs)},
		{Name: "open-malformed", Make: func(w World, c Chooser) (Action, bool) {
			if !w.MalformedPlanMode() {
				return Action{}, false
			}
			return drawOpen(drawnMalformedLogs)(w, c)
		}},
	},
})
