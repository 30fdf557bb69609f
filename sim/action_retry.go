package sim

// The retry action is a request-recovery retry of the step whose request
// failed: through the pre-step again (the specification) or inside the
// same step (the shipped dsh loop), as Options.Retries says. Its value is
// a step's script. Example:
//
//	retry: {agent: main}
var _ = declare(kind[StepAction]{
	name:   "retry",
	of:     func(a *Action) **StepAction { return &a.Retry },
	agent_: func(s *StepAction) string { return s.Agent },
	apply_: func(r *Runtime, res *Result, s *StepAction) error { return r.doStep(res, s, true) },
	refuses_: func(w State, s *StepAction) string {
		return unless(w.Open(s.Agent) && w.AwaitingRetry(s.Agent), "it has no failed request to retry")
	},
	schema: `{"$ref": "#/$defs/step"}`,
	draws: []Draw{{Name: "retry", Default: true, Make: func(w World, c Chooser) (Action, bool) {
		a, ok := pickAgent(w, c, w.AwaitingRetry)
		if !ok {
			return Action{}, false
		}
		s := drawStep(w, c)
		s.Agent = a
		return Action{Retry: s}, true
	}}},
})
