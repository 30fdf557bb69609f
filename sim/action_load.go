package sim

import "encoding/json"

// LoadAction (re)composes the plugin with a config and services, as a fresh
// plugin load: the implementation is stopped, started, loaded and every
// agent opened with its whole log. Runtime-wide; get() of every agent is
// observed after it. Example: `load: {config: {section: "Plan first."}}`.
type LoadAction struct {
	Config   json.RawMessage `json:"config,omitempty"`
	Services *Services       `json:"services,omitempty"`
}

var _ = declare(kind[LoadAction]{
	name:     "load",
	of:       func(a *Action) **LoadAction { return &a.Load },
	apply_:   func(r *Runtime, res *Result, l *LoadAction) error { return r.doLoad(res, l) },
	touches_: allAgents[LoadAction],
	draws: []Draw{{Name: "load", Make: func(w World, _ Chooser) (Action, bool) {
		// The plugin loaded again after an unload, as configured at start:
		// it starts clean from the logs (PEND-8, SVC-2).
		return Action{Load: &LoadAction{}}, !w.Plugin()
	}}},
	schema: `{"type": "object", "additionalProperties": false, "properties": {"config": {}, "services": {"type": "object", "additionalProperties": false, "properties": {"commands": {"type": "boolean"}, "userQuestions": {"type": "boolean"}}}}}`,
})
