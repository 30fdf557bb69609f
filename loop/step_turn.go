package loop

import (
	"encoding/json"
	"fmt"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// TurnRequest admits a prompt and runs the turn.
type TurnRequest struct {
	Agent  string `json:"agent"`
	Prompt string `json:"prompt"`
	Script Script `json:"script"`
}

var _ = declare(kind[TurnRequest]{
	key:     "turn",
	of:      func(s *Step) **TurnRequest { return &s.Turn },
	agent_:  func(t *TurnRequest) string { return t.Agent },
	script_: func(t *TurnRequest) *Script { return &t.Script },
	detail_: func(t *TurnRequest) string { return fmt.Sprintf(" %q", t.Prompt) },
	play_: func(s *Session, done *StepDone, t *TurnRequest) (err error) {
		done.Obs, err = s.rt.Turn(*t)
		return err
	},
	doc:     "the user's prompt, and the turn's [script](runtime-protocol.md#scripts): the model's responses, with the host's actions while it streams and runs tools, and what host listeners do at each dispatch",
	example: `turn: {agent: main, prompt: "Read the code.", script: {responses: [{calls: [{id: r1, name: read_file, args: {path: a.go}}]}, {text: Done.}]}}`,
	schema:  `{"$ref": "https://plankit.github.io/schema/runtime/v1/turn.json#/$defs/params"}`,
	draws: []Draw{
		{Name: "turn", Make: drawTurn},
		// a selection after the turn's last pre-step stays pending until
		// plan mode starts afresh (PEND-2, PEND-8)
		{Name: "turn-late-selection", Needs: "duringStream", Make: func(g *Gen) Step {
			return Step{Turn: &TurnRequest{Agent: "main", Prompt: "Last word.", Script: Script{Responses: []Response{{
				Text: "Done.", During: []HostAction{{ID: g.ID("h"), Set: &ActiveArg{Active: g.R.IntN(2) == 0}}}}}}}}
		}},
	},
	letters: turnLetters,
})

// drawTurn draws a turn of one to four requests: host actions while the
// model streams, host and exit_plan_mode calls with their reviews, failed
// requests (a retrying runtime), and host listeners' behaviour at a
// dispatch, as the capabilities allow; the focus and the wide alphabet
// draw more of what they stress.
func drawTurn(g *Gen) Step {
	r, caps, f := g.R, g.Caps, g.Focus
	tr := &TurnRequest{Agent: "main", Prompt: fmt.Sprintf("Task %d.", g.ids)}
	n := 1 + r.IntN(4)
	if (f.Reviews || f.Listeners) && n == 1 {
		n = 2 + r.IntN(3) // a tool call at least: a continuation step, a review
	}
	for i := range n {
		resp := Response{}
		if caps.DuringStream && r.IntN(2) == 0 {
			resp.During = g.hostActions(2)
			if f.Selections || f.Listeners {
				resp.During = append(resp.During, g.hostActions(2)...)
			}
		}
		if i == n-1 {
			resp.Text = "Done."
			tr.Script.Responses = append(tr.Script.Responses, resp)
			continue
		}
		if r.IntN(5) == 0 && caps.Has("retry") {
			resp.Fail = true
			tr.Script.Responses = append(tr.Script.Responses, resp)
			continue
		}
		for range 1 + r.IntN(2) {
			resp.Calls = append(resp.Calls, g.call())
		}
		tr.Script.Responses = append(tr.Script.Responses, resp)
	}
	if caps.HostListeners && r.IntN(4) == 0 {
		p := PreStep{Dispatch: 1 + r.IntN(n), Listener: listenerGate, Behaviour: []string{sim.Accept, sim.Reject, sim.Abort}[r.IntN(3)]}
		if g.Wide {
			p.Listener = []string{listenerGate, listenerGuard}[r.IntN(2)]
			if caps.EmptySteps && r.IntN(3) == 0 {
				p.Behaviour = sim.Drop
			}
		}
		if r.IntN(2) == 0 {
			p.During = g.hostActions(1)
		}
		tr.Script.PreSteps = append(tr.Script.PreSteps, p)
	}
	if caps.HostListeners && f.Listeners {
		behaviours := []string{sim.Accept, sim.Reject, sim.Abort}
		if caps.EmptySteps {
			// taking the step's messages is what shows whether plan
			// mode's listener wraps this one (STEP-1): drawn most
			behaviours = append(behaviours, sim.Drop, sim.Drop, sim.Drop)
		}
		for d := range n {
			if r.IntN(2) == 0 {
				continue
			}
			p := PreStep{Dispatch: d + 1, Listener: listenerOuter, Behaviour: behaviours[r.IntN(len(behaviours))]}
			if r.IntN(2) == 0 {
				p.During = g.hostActions(1)
			}
			tr.Script.PreSteps = append(tr.Script.PreSteps, p)
		}
	}
	return Step{Turn: tr}
}

// call draws one tool call of a response: a host tool's (with host
// actions while it runs) or exit_plan_mode's with its plan and review.
func (g *Gen) call() Call {
	r, caps := g.R, g.Caps
	c := Call{ID: g.ID("c")}
	if caps.HostTools && r.IntN(2) == 0 && (!g.Focus.Reviews || r.IntN(2) == 0) {
		c.Name, c.Args = "read_file", json.RawMessage(`{"path":"a.go"}`)
		c.During = g.hostActions(2)
		return c
	}
	c.Name = spec.ExitTool
	c.Args = sim.JSON(map[string]string{"plan": g.plans[r.IntN(len(g.plans))]})
	rv := g.reviews[r.IntN(len(g.reviews))]
	c.Review = &rv
	if g.Wide && r.IntN(3) == 0 {
		c.Review = g.wideReview()
	} else if caps.ReviewReplies && r.IntN(3) == 0 {
		rv = sim.ExtendedReviews[r.IntN(len(sim.ExtendedReviews))]
		c.Review = &rv
	}
	return c
}

// wideReview draws a review outcome beyond the three answers: an approval
// with feedback, a reload during the review, or (with reviewReplies) one of
// the seam's replies and failures; else keep planning with feedback.
func (g *Gen) wideReview() *sim.Review {
	r, caps := g.R, g.Caps
	rv := sim.Reviews[3]
	switch n := r.IntN(4); {
	case n == 0:
		rv = sim.Reviews[1]
	case n == 1 && caps.Reload:
		rv = sim.Reviews[5]
	case caps.ReviewReplies:
		rv = sim.ExtendedReviews[r.IntN(len(sim.ExtendedReviews))]
	}
	return &rv
}

// hostActions draws up to max host actions.
func (g *Gen) hostActions(max int) []HostAction {
	var out []HostAction
	for range g.R.IntN(max + 1) {
		out = append(out, g.hostAction())
	}
	return out
}

// hostAction draws one host action: a fault armed for plan mode's next
// append, a get, a command, or (most) a selection.
func (g *Gen) hostAction() HostAction {
	r, caps := g.R, g.Caps
	h := HostAction{ID: g.ID("h")}
	switch n := r.IntN(6); {
	case n == 0 && caps.FailAppend && !g.Focus.OutsideWrites:
		// (a fault armed for plan mode's next append and an outside
		// writer's plan/mode do not mix: the protocol leaves which
		// append the fault fails to the runtime)
		h.Fault = &CountArg{Count: 1}
	case n == 1:
		h.Get = &struct{}{}
	case n == 2 && caps.Commands:
		h.Command = &InputArg{Input: sim.CommandInputs[r.IntN(len(sim.CommandInputs))]}
	default:
		h.Set = &ActiveArg{Active: r.IntN(2) == 0}
	}
	return h
}

// turnLetters are the alphabet's turns: a plain one, an approved exit, a
// review's reply approving another question only, a selection while the
// model streams before a continuation step, one after the last step, one
// while a request fails before its retry, a failed append; the wide
// alphabet adds an approval then keep planning in one tool batch, a turn a
// host listener registered before plan mode rejects and one whose messages
// a host listener takes (an empty step).
func turnLetters(caps Capabilities) (alphabet, wide []Step) {
	set := func(v bool) HostAction { return HostAction{ID: "s", Set: &ActiveArg{Active: v}} }
	turn := func(prompt string, pre []PreStep, rs ...Response) Step {
		return Step{Turn: &TurnRequest{Agent: "main", Prompt: prompt, Script: Script{Responses: rs, PreSteps: pre}}}
	}
	done := Response{Text: "Done."}
	plan := sim.JSON(map[string]string{"plan": sim.Plans[0]})
	read := Call{ID: "r", Name: "read_file", Args: json.RawMessage(`{"path":"a.go"}`)}
	exit := Call{ID: "x", Name: spec.ExitTool, Args: plan, Review: sim.ReviewOf(0)}
	alphabet = []Step{turn("Plain.", nil, done)}
	if caps.UserQuestions {
		alphabet = append(alphabet, turn("Exit.", nil, Response{Calls: []Call{exit}}, done))
	}
	if caps.UserQuestions && caps.ReviewReplies {
		// the review's reply approves another question only: no approval
		other := exit
		other.Review = &sim.Review{Reply: &sim.ReviewReply{Answers: []sim.ReviewAnswer{{Question: "scope-check", Selected: []string{sim.Approve}}}}}
		alphabet = append(alphabet, turn("Exit other.", nil, Response{Calls: []Call{other}}, done))
	}
	if caps.DuringStream && caps.HostTools {
		alphabet = append(alphabet,
			turn("Stream on.", nil, Response{During: []HostAction{set(true)}, Calls: []Call{read}}, done),
			turn("Stream off.", nil, Response{During: []HostAction{set(false)}, Calls: []Call{read}}, done),
			turn("Late on.", nil, Response{During: []HostAction{set(true)}, Text: "Done."}))
		if caps.Has("retry") {
			// a selection while the request fails, then the retry
			alphabet = append(alphabet, turn("Retry on.", nil, Response{Calls: []Call{read}}, Response{Fail: true, During: []HostAction{set(true)}}, Response{Calls: []Call{read}}, done))
		}
		if caps.FailAppend {
			alphabet = append(alphabet, turn("Fault.", nil, Response{During: []HostAction{{ID: "f", Fault: &CountArg{Count: 1}}, set(true)}, Calls: []Call{read}}, done))
		}
	}
	if caps.UserQuestions {
		// an approval, then keep planning in the same tool batch: the
		// second review withdraws the exit the first left pending (EXIT-6)
		approve := Call{ID: "a", Name: spec.ExitTool, Args: plan, Review: sim.ReviewOf(0)}
		keep := Call{ID: "k", Name: spec.ExitTool, Args: plan, Review: sim.ReviewOf(2)}
		wide = append(wide, turn("Keep planning.", nil, Response{Calls: []Call{approve, keep}}, done))
	}
	if caps.HostListeners {
		wide = append(wide, turn("Rejected.", []PreStep{{Dispatch: 1, Listener: listenerGuard, Behaviour: sim.Reject}}, done))
		if caps.EmptySteps {
			wide = append(wide, turn("Taken.", []PreStep{{Dispatch: 1, Listener: listenerGate, Behaviour: sim.Drop}}, done))
		}
	}
	return alphabet, wide
}
