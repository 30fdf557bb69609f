package sim

import (
	"encoding/json"

	"github.com/plankit/plankit/spec"
)

// AppendAction is an outside writer — another process, a UI, a tool of the
// host's — appending an event to an agent's live session log (LOG-3: the
// log is the only state, so the state in force follows every plan/mode
// appended, at once). The implementation sees the event with its next
// request (Call.Sync). The runtime level's append step is the same action.
// Example:
//
//	append: {agent: main, type: plan/mode, data: {active: true}}
type AppendAction struct {
	Agent string          `json:"agent"`
	Type  string          `json:"type"`
	Data  json.RawMessage `json:"data"`
}

// drawnOutsideData are the plan/mode data outside writers append.
var drawnOutsideData = []string{`{"active":true}`, `{"active":false}`}

// drawnMalformedData are plan/mode data that are not exactly {active:
// boolean} (LOG-1): the first has a boolean active and another field
// (choice plan-mode-data), the others have no boolean active (choice
// plan-mode-malformed), drawn only where World.MalformedPlanMode.
var drawnMalformedData = []string{`{"active":true,"by":"ui"}`, `{"active":"yes"}`, `{"active":"no"}`, `{}`}

var _ = declare(kind[AppendAction]{
	name:   "append",
	of:     func(a *Action) **AppendAction { return &a.Append },
	agent_: func(p *AppendAction) string { return p.Agent },
	apply_: func(r *Runtime, res *Result, p *AppendAction) error {
		a, err := r.agent(p.Agent)
		if err != nil {
			return err
		}
		if p.Type == "" {
			return inputf("an appended event needs a type")
		}
		r.hostAppend(res, a, p.Type, p.Data)
		return nil
	},
	schema: `{"type": "object", "additionalProperties": false, "required": ["agent", "type"], "description": "An outside writer appends an event to the agent's live log; the implementation sees it with its next request (LOG-3).", "properties": {"agent": {"$ref": "#/$defs/agent"}, "type": {"type": "string", "minLength": 1}, "data": {"description": "The event's data, as written (null when absent)."}}}`,
	draws: []Draw{
		{Name: "append", Make: func(w World, c Chooser) (Action, bool) {
			a, ok := pickAgent(w, c, nil)
			typ, data := spec.TypePlanMode, oneOf(c, "outside-data", drawnOutsideData...)
			if c.Intn("outside-type", 4) == 0 {
				typ, data = "note/added", `{"text":"From the outside."}`
			}
			return Action{Append: &AppendAction{Agent: a, Type: typ, Data: json.RawMessage(data)}}, ok
		}},
		{Name: "append-malformed", Make: func(w World, c Chooser) (Action, bool) {
			a, ok := pickAgent(w, c, nil)
			data := drawnMalformedData[0]
			if w.MalformedPlanMode() {
				data = oneOf(c, "malformed-data", drawnMalformedData...)
			}
			return Action{Append: &AppendAction{Agent: a, Type: spec.TypePlanMode, Data: json.RawMessage(data)}}, ok
		}},
	},
})
