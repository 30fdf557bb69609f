package loop

import "github.com/plankit/plankit/sim"

// AgentRequest names an agent: the plugin level's sim.AgentAction, the
// same name and field at both levels.
type AgentRequest = sim.AgentAction

var _ = declare(kind[AgentRequest]{
	key:     "get",
	of:      func(s *Step) **AgentRequest { return &s.Get },
	agent_:  func(r *AgentRequest) string { return r.Agent },
	service: true,
	play_: func(s *Session, done *StepDone, q *AgentRequest) error {
		g, err := s.rt.Get(*q)
		done.Get = &g
		return err
	},
	doc:     "`ctx.planMode.get`",
	example: "get: {agent: main}",
	schema:  `{"$ref": "https://plankit.github.io/schema/runtime/v1/get.json#/$defs/params"}`,
	draws:   []Draw{{Name: "get", Make: func(*Gen) Step { return Step{Get: &AgentRequest{Agent: "main"}} }}},
	letters: func(Capabilities) (_, wide []Step) { return nil, []Step{{Get: &AgentRequest{Agent: "main"}}} },
})
