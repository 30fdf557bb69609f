package loop

// FaultRequest fails the next Count plan/mode appends of an agent.
type FaultRequest struct {
	Agent string `json:"agent"`
	Count int    `json:"count"`
}

var _ = declare(kind[FaultRequest]{
	key:     "fault",
	of:      func(s *Step) **FaultRequest { return &s.Fault },
	agent_:  func(r *FaultRequest) string { return r.Agent },
	need:    "failAppend",
	play_:   func(s *Session, _ *StepDone, q *FaultRequest) error { return s.rt.Fault(*q) },
	doc:     "the next `count` plan/mode appends fail",
	example: "fault: {agent: main, count: 1}",
	schema:  `{"$ref": "https://plankit.github.io/schema/runtime/v1/fault.json#/$defs/params"}`,
	draws: []Draw{{Name: "fault", Needs: "failAppend", Make: func(g *Gen) Step {
		return Step{Fault: &FaultRequest{Agent: "main", Count: 1 + g.R.IntN(2)}}
	}}},
	letters: func(caps Capabilities) (_, wide []Step) {
		if !caps.FailAppend {
			return nil, nil
		}
		return nil, []Step{{Fault: &FaultRequest{Agent: "main", Count: 1}}}
	},
})
