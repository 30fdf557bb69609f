package sim

import (
	"encoding/json"

	"github.com/plankit/plankit/spec"
)

// FoldAction calls foldPlanMode on an agent's log or on given events, up
// to end when given; the fold's value or error is the action's result.
// Example:
//
//	fold: {agent: main, end: 3}
//	fold: {events: [{type: plan/mode, data: {active: true}}]}
type FoldAction struct {
	Agent  string          `json:"agent,omitempty"`
	Events []FoldEventSpec `json:"events,omitempty"`
	End    *int            `json:"end,omitempty"`
}

// FoldEventSpec is an event written in a trace for a fold.
type FoldEventSpec = EventSpec

var _ = declare(kind[FoldAction]{
	name:   "fold",
	of:     func(a *Action) **FoldAction { return &a.Fold },
	agent_: func(f *FoldAction) string { return f.Agent },
	apply_: func(r *Runtime, res *Result, f *FoldAction) error { return r.doFold(res, f) },
	schema: `{"type": "object", "additionalProperties": false, "properties": {"agent": {"$ref": "#/$defs/agent"}, "events": {"type": "array", "items": {"type": "object", "additionalProperties": false, "required": ["type"], "properties": {"type": {"type": "string"}, "data": {}}}}, "end": {"type": "integer"}}}`,
	draws: []Draw{{Name: "fold", Default: true, Make: func(w World, c Chooser) (Action, bool) {
		return drawFold(w, c), true
	}}},
})

// drawFold draws a foldPlanMode call: over an agent's log with or without
// an end (in range or at the edges), or over given events where plan/mode
// is mixed with other events (LOG-2).
func drawFold(w World, c Chooser) Action {
	f := &FoldAction{}
	if c.Intn("fold-events", 3) == 0 {
		n := c.Intn("fold-len", 6)
		for i := 0; i < n; i++ {
			switch c.Intn("fold-event", 4) {
			case 0:
				f.Events = append(f.Events, FoldEventSpec{Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":true}`)})
			case 1:
				f.Events = append(f.Events, FoldEventSpec{Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":false}`)})
			case 2:
				f.Events = append(f.Events, FoldEventSpec{Type: spec.TypeUserMessage, Data: MessageData(UserMessage("active: true"))})
			default:
				f.Events = append(f.Events, FoldEventSpec{Type: spec.TypeTurnStart, Data: json.RawMessage(`{"turn":1}`)})
			}
		}
	} else {
		a, _ := pickAgent(w, c, nil)
		f.Agent = a
		n := w.LogLen(a)
		var end int
		switch c.Intn("fold-at", 5) {
		case 0:
			return Action{Fold: f}
		case 1:
			end = -1 - c.Intn("neg", 2)
		case 2:
			end = n + 1 + c.Intn("over", 3)
		default:
			end = c.Intn("end", n+1)
		}
		f.End = &end
		return Action{Fold: f}
	}
	if c.Intn("fold-has-end", 2) == 0 {
		end := c.Intn("fold-at", len(f.Events)+3) - 1
		f.End = &end
	}
	return Action{Fold: f}
}
