package loop

var _ = declare(kind[struct{}]{
	key:         "unload",
	of:          func(s *Step) **struct{} { return &s.Unload },
	need:        "unload",
	composition: unloads,
	play_:       func(s *Session, _ *StepDone, _ *struct{}) error { return s.rt.Unload() },
	doc:         "plan mode is disposed without loading it again (capability `unload`): until a `reload` or `restart` loads it afresh from the logs, no request may render plan:policy or offer `exit_plan_mode`, no `plan/mode` event or notice may be appended, and `/plan` is an unknown command (SVC-2, checked by the invariants); pending selections are lost (PEND-8); a `get` or `set` (a step or a host action) is refused until then",
	example:     "unload: {}",
	schema:      `{"type": "object", "properties": {}, "required": [], "additionalProperties": false, "description": "Dispose plan mode without loading it again (unload); a later reload or restart loads it afresh from the logs."}`,
	draws:       []Draw{{Name: "unload", Needs: "unload", Make: func(*Gen) Step { return Step{Unload: &struct{}{}} }}},
	letters: func(caps Capabilities) (_, wide []Step) {
		if !caps.Unload {
			return nil, nil
		}
		return nil, []Step{{Unload: &struct{}{}}}
	},
})
