package properties

import (
	"fmt"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

// checkWithoutPackage is the SVC-2 property: a session without the
// plan-mode package, driven through random turns, steps, plan-mode tool
// calls and /plan commands, never shows a plan/mode event, a plan:policy
// section, an exit_plan_mode tool in a request, or a /plan command. The
// implementation is not involved: this holds the runtime to running
// without it.
func checkWithoutPackage(c Chooser, steps int) (*Failure, error) {
	setup := Setup{Services: sim.Services{Commands: true, UserQuestions: true}, Retries: sim.RetriesPreStep, NoPlugin: true}
	rt, _, err := sim.New(nil, setup.Options())
	if err != nil {
		return nil, err
	}
	defer rt.Close()
	var actions []sim.Action
	for i := 0; i < steps; i++ {
		agent := []string{"main", "side"}[c.Intn("agent", 2)]
		_, open := rt.Status(agent)
		var act sim.Action
		var x trace.Expect
		switch k := c.Intn("kind", 5); {
		case !open && k < 3:
			act = sim.Action{Prompt: &sim.TextAction{Agent: agent, Text: fmt.Sprintf("task %d", i)}}
		case open && rt.AwaitingRetry(agent):
			act = sim.Action{Retry: &sim.StepAction{Agent: agent}}
		case open && k < 3:
			s := &sim.StepAction{Agent: agent}
			if c.Intn("exit", 2) == 0 {
				s.Model = &sim.Model{Calls: []sim.ToolCall{{Name: spec.ExitTool, Args: sim.JSON(map[string]string{"plan": sim.Plans[0]}), Review: sim.ReviewOf(0)}}}
				x.Tool = &trace.ToolExpect{OK: ptr(false)}
			}
			if c.Intn("fail", 4) == 0 {
				s.Request = "fail"
				x.Tool = nil
			}
			act = sim.Action{Step: s}
			x.Decision = sim.Accept
			x.Section = ptr(false)
			x.Tools = []string{}
		case k == 3:
			input := sim.CommandInputs[c.Intn("input", len(sim.CommandInputs))]
			act = sim.Action{Command: &sim.CommandAction{Agent: agent, Input: input}}
			x.Command = &trace.CommandExpect{Registered: ptr(false), Kind: "error"}
		case open:
			act = sim.Action{EndTurn: &sim.EndTurnAction{Agent: agent}}
		default:
			act = sim.Action{Compact: &sim.AgentAction{Agent: agent}}
		}
		x.Agent = agent
		x.PlanMode = []bool{}
		actions = append(actions, act)
		res, err := rt.Do(act)
		if err != nil {
			return nil, err
		}
		if msgs := x.Check(agent, res); len(msgs) > 0 {
			return &Failure{Setup: setup, Actions: actions, Index: len(actions) - 1, Expect: x, Messages: msgs}, nil
		}
	}
	return nil, nil
}
