package loop

var _ = declare(kind[struct{}]{
	key:         "restart",
	of:          func(s *Step) **struct{} { return &s.Restart },
	need:        "resume",
	composition: loads,
	play_: func(s *Session, _ *StepDone, _ *struct{}) error {
		if err := s.stopForRestart(); err != nil {
			return err
		}
		return s.start(false)
	},
	doc:     "stop; a new process opens the whole observed log",
	example: "restart: {}",
	schema:  `{"type": "object", "properties": {}, "required": [], "additionalProperties": false, "description": "Stop the runtime; a new process opens the whole observed log."}`,
	draws:   []Draw{{Name: "restart", Needs: "resume", Make: func(*Gen) Step { return Step{Restart: &struct{}{}} }}},
	letters: func(caps Capabilities) (alphabet, _ []Step) {
		if !caps.Resume {
			return nil, nil
		}
		return []Step{{Restart: &struct{}{}}}, nil
	},
})
