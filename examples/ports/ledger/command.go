package ledger

import (
	"strings"

	"github.com/plankit/plankit/sim"
)

// Command runs /plan [off|message] (CMD-1..4). The argument is the raw text
// after the command name; unless the port was built Trimmed, whitespace
// around it is part of it, so only "off" exactly is off.
func (p *Port) Command(req sim.CommandRequest) (sim.CommandReply, error) {
	r, pl, h, err := p.enter(req.Call)
	if err != nil {
		return sim.CommandReply{}, err
	}
	defer p.remember(req.Agent, h)
	if req.Name != commandName || !r.services.Commands {
		return sim.CommandReply{Kind: "error", Text: "/" + req.Name + " is not a command here", Effects: h.effects}, nil
	}
	arg := req.Input
	if p.trimmed {
		arg = strings.TrimSpace(arg)
	}
	want, message := true, ""
	switch {
	case arg == "off", p.mistake == "uppercase-off" && strings.EqualFold(arg, "off"):
		want = false
	case arg != "":
		message = arg
	}
	outcome, serr := p.choose(pl, h, req.Agent, want)
	if serr != nil {
		return sim.CommandReply{Kind: "error", Text: "/plan did not take effect: " + serr.Error(), Effects: h.effects}, nil
	}
	if message != "" {
		h.steer(sim.Message{Role: "user", Text: message, Source: sim.Source{Kind: "user"}})
	}
	if outcome == "noop" && p.mistake == "wrong-reply-outcome" {
		outcome = "committed"
		if h.book.open {
			outcome = "queued"
		}
	}
	return sim.CommandReply{Kind: "success", Text: phrase(want, outcome), Outcome: outcome, Effects: h.effects}, nil
}

func phrase(want bool, outcome string) string {
	mode := "Plan mode on"
	if !want {
		mode = "Plan mode off"
	}
	switch outcome {
	case "committed":
		return mode + "."
	case "queued":
		return mode + " from the next model request."
	case "cancelled":
		return mode + ": the opposite request still waiting was withdrawn."
	}
	return mode + " already; nothing changed."
}
