package sim

// The reload action reloads the plan-mode service in place (the host's
// reload of its plugins), keeping the process. Runtime-wide. Example:
//
//	reload: {}
var _ = declare(kind[struct{}]{
	name:     "reload",
	of:       func(a *Action) **struct{} { return &a.Reload },
	apply_:   func(r *Runtime, res *Result, _ *struct{}) error { return r.doReload(res) },
	touches_: allAgents[struct{}],
	schema:   `{"type": "object", "additionalProperties": false}`,
	draws: []Draw{{Name: "reload", Default: true, Make: func(w World, c Chooser) (Action, bool) {
		return Action{Reload: &struct{}{}}, true
	}}},
})
