package sim

// UnloadAction disposes the plan-mode plugin without loading it again
// (SVC-1, SVC-2, PEND-8): its service, tool, section, command and pre-step
// listener go, and its pending selections with it; the logs stay. A later
// load composes it afresh from the logs. Runtime-wide. Example:
//
//	unload: {}
type UnloadAction struct{}

var _ = declare(kind[UnloadAction]{
	name:     "unload",
	of:       func(a *Action) **UnloadAction { return &a.Unload },
	apply_:   func(r *Runtime, res *Result, _ *UnloadAction) error { return r.doUnload(res) },
	refuses_: func(w State, _ *UnloadAction) string { return unless(w.Plugin(), "it needs a loaded plan-mode plugin") },
	schema:   `{"type": "object", "additionalProperties": false, "description": "Dispose the plan-mode plugin without loading it again: its service, tool, section, command and listener go, with its pending selections; the logs stay. Until a load, restarts run without the plugin; a load composes it afresh from the logs (SVC-1, SVC-2, PEND-8)."}`,
	draws: []Draw{{Name: "unload", Make: func(w World, _ Chooser) (Action, bool) {
		return Action{Unload: &UnloadAction{}}, w.Plugin()
	}}},
})
