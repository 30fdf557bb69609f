package loop

var _ = declare(kind[struct{}]{
	key:         "reload",
	of:          func(s *Step) **struct{} { return &s.Reload },
	need:        "reload",
	composition: loads,
	play_: func(s *Session, done *StepDone, _ *struct{}) error {
		r, err := s.rt.Reload()
		done.Obs, done.Error = r.Observation, r.Error
		return err
	},
	doc:     "plan mode is disposed and loaded again",
	example: "reload: {}",
	schema:  `{"type": "object", "properties": {}, "required": [], "additionalProperties": false, "description": "Dispose plan mode and load it again in the same process."}`,
	draws:   []Draw{{Name: "reload", Needs: "reload", Make: func(*Gen) Step { return Step{Reload: &struct{}{}} }}},
	letters: func(caps Capabilities) (_, wide []Step) {
		if !caps.Reload {
			return nil, nil
		}
		return nil, []Step{{Reload: &struct{}{}}}
	},
})
