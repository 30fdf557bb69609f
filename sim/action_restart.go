package sim

// The restart action kills and restarts the implementation's process: open
// turns end interrupted, queues and armed faults are lost, and the plugin
// is loaded again with every agent's whole log (unless unloaded).
// Runtime-wide. Example:
//
//	restart: {}
var _ = declare(kind[struct{}]{
	name:     "restart",
	of:       func(a *Action) **struct{} { return &a.Restart },
	apply_:   func(r *Runtime, res *Result, _ *struct{}) error { return r.doRestart(res) },
	touches_: allAgents[struct{}],
	schema:   `{"type": "object", "additionalProperties": false}`,
	draws: []Draw{{Name: "restart", Default: true, Make: func(w World, c Chooser) (Action, bool) {
		return Action{Restart: &struct{}{}}, true
	}}},
})
