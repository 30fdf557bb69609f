package ledger

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"

	"github.com/plankit/plankit/sim"
)

// The plan review as this plugin asks it.
const (
	reviewKey    = "plan-signoff"
	approveLabel = "Approve plan"
	reviseLabel  = "Revise"
)

// seamReply is the user-questions seam's answer in this plugin's own terms.
type seamReply struct {
	closed  bool // the user closed the question without answering
	answers []seamAnswer
}

type seamAnswer struct {
	key    string
	chosen []string
	note   string
}

// ExitTool executes exit_plan_mode (EXIT-2..7).
func (p *Port) ExitTool(req sim.ExitToolRequest) (sim.ToolReply, error) {
	r, pl, h, err := p.enter(req.Call)
	if err != nil {
		return sim.ToolReply{}, err
	}
	defer p.remember(req.Agent, h)
	refuse := func(why string) (sim.ToolReply, error) {
		return sim.ToolReply{OK: false, Error: why, Effects: h.effects}, nil
	}
	if !h.book.on {
		return refuse("exit_plan_mode is for leaving plan mode, and plan mode is off.")
	}
	plan, ok := planArgument(req.Args)
	if !ok {
		return refuse(`exit_plan_mode takes {"plan": "<the plan in markdown>"}.`)
	}
	opens := titled
	if p.mistake == "heading-after-text" {
		opens = titledSomewhere
	}
	if !opens(plan) {
		return refuse("A plan is complete markdown opening with a level-one heading (\"# Title\"); present it again.")
	}
	if !r.services.UserQuestions {
		return refuse("There is no way to ask the user for a review here; plan mode stays on.")
	}
	question, _ := json.Marshal(map[string]any{
		"key":      reviewKey,
		"ask":      "Approve this plan and let the assistant start working?",
		"markdown": plan,
		"buttons":  []string{approveLabel, reviseLabel},
	})
	h.effects = append(h.effects, sim.Effect{Kind: sim.EffectAsk, Question: question})
	if req.Review.Reload {
		if _, err := p.Reload(); err != nil {
			return sim.ToolReply{}, err
		}
	}
	if req.Review.Fail != "" {
		return refuse("The review could not be held (" + req.Review.Fail + "); plan mode stays on.")
	}
	if pl.retired {
		return refuse("Plan mode was reloaded while the plan was under review; plan mode stays on. Present the plan again.")
	}
	reply := scripted(req.Review)
	if reply.closed {
		return refuse("The user closed the review without a decision; plan mode stays on. Wait for the user.")
	}
	var mine []seamAnswer
	for _, a := range reply.answers {
		if a.key == reviewKey {
			mine = append(mine, a)
		}
	}
	if len(mine) == 1 && slices.Equal(mine[0].chosen, []string{approveLabel}) && mine[0].note == "" {
		e := &entry{active: false, approval: true}
		if p.mistake == "approval-one-step-late" {
			e.holdOff = 1
		}
		pl.queue[req.Agent] = e
		return sim.ToolReply{OK: true, Result: json.RawMessage(`{"approved":true}`), Effects: h.effects}, nil
	}
	if e, ok := pl.queue[req.Agent]; ok && e.approval {
		delete(pl.queue, req.Agent) // keep planning withdraws an approval's exit
	}
	if len(mine) == 1 && mine[0].note != "" {
		return refuse("The user wants the plan revised before leaving plan mode. Their feedback: " + mine[0].note)
	}
	return refuse("The user wants the plan revised before leaving plan mode; present a new version.")
}

// scripted is the seam's reply to a scripted review, in this plugin's labels.
func scripted(rv sim.Review) seamReply {
	label := func(meaning string) string {
		if meaning == sim.Approve {
			return approveLabel
		}
		return reviseLabel
	}
	switch {
	case rv.Answer == sim.Dismiss:
		return seamReply{closed: true}
	case rv.Reply != nil:
		var out seamReply
		for _, a := range rv.Reply.Answers {
			key := a.Question
			if key == "" {
				key = reviewKey
			}
			var chosen []string
			for _, s := range a.Selected {
				chosen = append(chosen, label(s))
			}
			out.answers = append(out.answers, seamAnswer{key: key, chosen: chosen, note: a.Custom})
		}
		return out
	case rv.Answer == sim.Approve || rv.Answer == sim.KeepPlanning:
		return seamReply{answers: []seamAnswer{{key: reviewKey, chosen: []string{label(rv.Answer)}, note: rv.Feedback}}}
	case rv.Feedback != "":
		return seamReply{answers: []seamAnswer{{key: reviewKey, note: rv.Feedback}}}
	}
	return seamReply{}
}

func planArgument(args json.RawMessage) (string, bool) {
	var v struct {
		Plan *string `json:"plan"`
	}
	if json.Unmarshal(args, &v) != nil || v.Plan == nil {
		return "", false
	}
	return *v.Plan, true
}

// titled: leading whitespace aside, the plan's first line is a level-one
// ATX heading with a title ("#", blanks, text).
func titled(plan string) bool {
	first, _, _ := strings.Cut(strings.TrimLeftFunc(plan, unicode.IsSpace), "\n")
	rest, ok := strings.CutPrefix(first, "#")
	if !ok {
		return false
	}
	title := strings.TrimLeft(rest, " \t")
	return len(title) < len(rest) && strings.TrimSpace(title) != ""
}

// titledSomewhere is the seeded mistake heading-after-text: a title on
// any line will do.
func titledSomewhere(plan string) bool {
	return slices.ContainsFunc(strings.Split(plan, "\n"), titled)
}
