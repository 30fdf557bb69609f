package sim

import (
	"encoding/json"

	"github.com/plankit/plankit/spec"
)

// Listener behaviours scripted for one pre-step.
const (
	Accept = "accept"
	Abort  = "abort"
	// Veto runs the rest of the chain, then rejects the step whatever it
	// decided: a listener that inspects the downstream result and blocks.
	Veto = "veto"
	// Reject (shared with the decision kind) rejects without calling next.
)

// StepAction proposes a step of the agent's open turn: the pre-step chain
// runs, and if it accepts, the request is sent and the model's output
// played (or, under Retry, a request-recovery retry of the step whose
// request failed). Example:
//
//	step: {agent: main, decision: reject}
//	step: {agent: main, model: {calls: [{name: exit_plan_mode, args: {plan: "# P"}, review: {answer: approve}}]}}
//	step: {agent: main, request: fail}
type StepAction struct {
	Agent string `json:"agent"`
	// Decision is the behaviour of the innermost downstream listener:
	// accept (default), reject or abort.
	Decision string `json:"decision,omitempty"`
	// Listeners overrides the behaviour of named trace listeners for this
	// step.
	Listeners map[string]string `json:"listeners,omitempty"`
	// Request fail makes the request fail after its header is logged, so the
	// step awaits a retry.
	Request string `json:"request,omitempty"`
	Model   *Model `json:"model,omitempty"`
}

// Model is the scripted model output of a step.
type Model struct {
	Text  string     `json:"text,omitempty"`
	Calls []ToolCall `json:"calls,omitempty"`
}

// ToolCall is one scripted tool call of the model.
type ToolCall struct {
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args,omitempty"`
	Review *Review         `json:"review,omitempty"`
}

// Plans are the plans generated exit-tool calls present, at both levels:
// a complete one first, then the shapes an implementation may misread
// (EXIT-3, under plan-heading=level-1): no heading, an empty plan, a #
// with no space (not a markdown heading), headings of levels 2 and 3, a
// heading after other text — all refused —; a heading after blank lines or
// indented (the plan is read trimmed) and a heading with no body — all
// complete.
var Plans = []string{
	"# Plan\n\n1. Read the code.\n2. Change it.", "Just do it.", "", "#Plan\n1. Read the code.", "## Plan\n\n1. Read the code.",
	"Intro first.\n# Plan\n1. Read the code.", "### Plan\n1. Read the code.", "\n\n# Plan\n1. Read the code.", "  # Plan\n1. Read the code.", "# Plan",
}

// Reviews are the scripted review answers of generated exit-tool calls, at
// both levels: an approval, with feedback, keep planning, with feedback,
// a dismissal, and an approval during which the service is reloaded.
var Reviews = []Review{
	{Answer: Approve},
	{Answer: Approve, Feedback: "also add tests"},
	{Answer: KeepPlanning},
	{Answer: KeepPlanning, Feedback: "split step 2"},
	{Answer: Dismiss},
	{Answer: Approve, Reload: true},
}

// ReviewOf is a fresh copy of the i-th of Reviews, for a call to hold.
func ReviewOf(i int) *Review {
	r := Reviews[i]
	return &r
}

// drawStep draws a step's script: its decision, a listener's override,
// a failing request or an exit-tool call.
func drawStep(w World, c Chooser) *StepAction {
	s := &StepAction{}
	switch c.Intn("decision", 10) {
	case 0:
		s.Decision = Reject
	case 1:
		s.Decision = Abort
	case 2:
		if ls := w.Listeners(); len(ls) > 0 {
			s.Listeners = map[string]string{ls[0]: oneOf(c, "audit", Reject, Abort)}
		}
	}
	if c.Intn("request", 5) == 0 {
		s.Request = "fail"
	} else if c.Intn("exit", 3) == 0 {
		plan := Plans[0]
		if c.Intn("plan", 4) == 0 {
			plan = oneOf(c, "badplan", Plans[1:]...)
		}
		r := oneOf(c, "review", Reviews...)
		s.Model = &Model{Calls: []ToolCall{{Name: spec.ExitTool, Args: JSON(map[string]string{"plan": plan}), Review: &r}}}
	}
	return s
}

// canStep: the agent has an open turn whose last request did not fail.
func canStep(w State, n string) bool { return w.Open(n) && !w.AwaitingRetry(n) }

// drawStepOf draws a step of an agent that can step: it picks the agent,
// then script draws what the step does (nil: no such step fits w).
func drawStepOf(script func(w World, c Chooser) *StepAction) func(World, Chooser) (Action, bool) {
	return func(w World, c Chooser) (Action, bool) {
		a, ok := pickAgent(w, c, func(n string) bool { return canStep(w, n) })
		if !ok {
			return Action{}, false
		}
		s := script(w, c)
		if s == nil {
			return Action{}, false
		}
		s.Agent = a
		return Action{Step: s}, true
	}
}

var _ = declare(kind[StepAction]{
	name:   "step",
	of:     func(a *Action) **StepAction { return &a.Step },
	agent_: func(s *StepAction) string { return s.Agent },
	apply_: func(r *Runtime, res *Result, s *StepAction) error { return r.doStep(res, s, false) },
	refuses_: func(w State, s *StepAction) string {
		switch {
		case !w.Open(s.Agent):
			return "no open turn; a step runs only inside a turn (prompt first)"
		case w.AwaitingRetry(s.Agent):
			return "it awaits a retry of its failed request; use retry or end-turn"
		}
		return ""
	},
	schema: `{"$ref": "#/$defs/step"}`,
	draws: []Draw{
		{Name: "step", Default: true, Make: drawStepOf(drawStep)},
		{Name: "step-exit", Default: true, Make: drawStepOf(func(w World, c Chooser) *StepAction {
			// A step whose model presents a complete plan, mostly approved:
			// the exit tool's path through review to the silent exit.
			r := Review{Answer: Approve}
			if c.Intn("approve", 3) == 0 {
				r = oneOf(c, "review", Reviews[1:]...)
			}
			calls := []ToolCall{{Name: spec.ExitTool, Args: JSON(map[string]string{"plan": Plans[0]}), Review: &r}}
			if c.Intn("batch", 3) == 0 {
				// A second call in the same tool batch, after the first one's
				// answer (EXIT-5, EXIT-6): the logged state still gates it.
				r2 := oneOf(c, "review2", Reviews...)
				calls = append(calls, ToolCall{Name: spec.ExitTool, Args: JSON(map[string]string{"plan": Plans[0]}), Review: &r2})
			}
			return &StepAction{Model: &Model{Calls: calls}}
		})},
		{Name: "step-reply", Make: drawStepOf(func(w World, c Chooser) *StepAction {
			// A step whose model presents a complete plan and whose review
			// is one of the seam's replies or failures (ExtendedReviews),
			// sometimes after an approval earlier in the same tool batch.
			r := oneOf(c, "reply", ExtendedReviews...)
			var calls []ToolCall
			if c.Intn("reply-after-approval", 3) == 0 {
				calls = append(calls, ToolCall{Name: spec.ExitTool, Args: JSON(map[string]string{"plan": Plans[0]}), Review: &Review{Answer: Approve}})
			}
			calls = append(calls, ToolCall{Name: spec.ExitTool, Args: JSON(map[string]string{"plan": Plans[0]}), Review: &r})
			return &StepAction{Model: &Model{Calls: calls}}
		})},
		{Name: "step-host-tool", Make: drawStepOf(func(w World, c Chooser) *StepAction {
			// A step whose model calls the host's own tools, in plan mode
			// or out of it (EXIT-1, SVC-3).
			tools := w.HostTools()
			if len(tools) == 0 {
				return nil
			}
			var calls []ToolCall
			for range 1 + c.Intn("host-calls", 2) {
				calls = append(calls, ToolCall{Name: oneOf(c, "host-tool", tools...), Args: JSON(map[string]string{"path": "README.md"})})
			}
			return &StepAction{Model: &Model{Calls: calls}}
		})},
		{Name: "step-empty", Make: drawStepOf(func(w World, c Chooser) *StepAction {
			// A step whose messages the first scripted listener takes for
			// itself, so the decision carries none: a runtime that skips
			// such steps must not be made to run one by a notice (PEND-2).
			ls := w.Listeners()
			if len(ls) == 0 {
				return nil
			}
			return &StepAction{Listeners: map[string]string{ls[0]: Drop}}
		})},
	},
})
