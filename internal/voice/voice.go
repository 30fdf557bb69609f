// Package voice holds test support: implementations that differ from the
// reference wherever SPEC.md leaves room — their own words for notices,
// command replies and errors, the notice's place among a step's messages,
// extra fields in a tool's result — and are otherwise the reference. The
// kit must pass them at every command; its tests use them to show that it
// compares meaning, not wording or an order SPEC.md does not fix.
//
// The kit's real evidence of this is the independent implementations
// under examples/, written from SPEC.md alone; these wrappers pin the
// free points one at a time in the tests of the packages that compare.
package voice

import (
	"encoding/json"
	"strings"

	"github.com/plankit/plankit/sim"
)

// Plugin wraps a plugin port: its notices have other words and summary
// and come first among the step's messages, its command replies and
// errors are worded otherwise (a keep-planning failure still carries the
// user's feedback), and an approval's result carries a field besides
// approved.
func Plugin(p sim.Port) sim.Port {
	if g, ok := p.(toolGatePort); ok {
		return &gated{plugin{g}, g}
	}
	return plugin{p}
}

type toolGatePort interface {
	sim.Port
	sim.ToolGate
}

type plugin struct{ sim.Port }

type gated struct {
	plugin
	gate sim.ToolGate
}

func (g *gated) PreTool(r sim.PreToolRequest) (sim.PreToolReply, error) {
	rep, err := g.gate.PreTool(r)
	rep.Effects = effects(rep.Effects)
	if rep.Reason != "" {
		rep.Reason = "Refused: " + strings.ToUpper(rep.Reason)
	}
	return rep, err
}

// StopForRestart keeps a restarting port's behaviour.
func (p plugin) StopForRestart() error {
	if r, ok := p.Port.(sim.Restarter); ok {
		return r.StopForRestart()
	}
	return p.Port.Stop()
}

const notePrefix = "[planning] "

// Notice is how this voice words a notice.
func Notice(m sim.Message) sim.Message {
	if !m.IsPlanNotice() || strings.HasPrefix(m.Text, notePrefix) {
		return m // not a notice, or already in this voice
	}
	m.Text = notePrefix + strings.ToUpper(m.Text)
	m.Source.Summary = "state flipped"
	m.Source.Form = "note"
	return m
}

func effects(es []sim.Effect) []sim.Effect {
	out := make([]sim.Effect, len(es))
	for i, e := range es {
		if e.Message != nil {
			m := Notice(*e.Message)
			e.Message = &m
		}
		out[i] = e
	}
	return out
}

func (p plugin) Set(r sim.SetRequest) (sim.SetReply, error) {
	rep, err := p.Port.Set(r)
	rep.Effects = effects(rep.Effects)
	if rep.Error != "" {
		rep.Error = "set failed: " + strings.ToUpper(rep.Error)
	}
	return rep, err
}

func (p plugin) PreStep(r sim.PreStepRequest) (sim.PreStepReply, error) {
	rep, err := p.Port.PreStep(r)
	rep.Effects = effects(rep.Effects)
	var notices, rest []sim.Message
	for _, m := range rep.Decision.Messages {
		if m.IsPlanNotice() {
			notices = append(notices, Notice(m))
		} else {
			rest = append(rest, m)
		}
	}
	if len(notices) > 0 {
		rep.Decision.Messages = append(notices, rest...)
	}
	return rep, err
}

func (p plugin) ExitTool(r sim.ExitToolRequest) (sim.ToolReply, error) {
	rep, err := p.Port.ExitTool(r)
	rep.Effects = effects(rep.Effects)
	if rep.OK {
		var v map[string]any
		if json.Unmarshal(rep.Result, &v) == nil {
			v["note"] = "Plan approved; leaving plan mode at the next step."
			rep.Result, _ = json.Marshal(v)
		}
	}
	if rep.Error != "" {
		rep.Error = "exit_plan_mode refused >> " + rep.Error + " <<"
	}
	return rep, err
}

func (p plugin) Command(r sim.CommandRequest) (sim.CommandReply, error) {
	rep, err := p.Port.Command(r)
	rep.Effects = effects(rep.Effects)
	if rep.Text != "" {
		rep.Text = "/plan says: " + strings.ToUpper(rep.Text)
	}
	return rep, err
}

func (p plugin) Fold(r sim.FoldRequest) (sim.FoldReply, error) {
	rep, err := p.Port.Fold(r)
	if rep.Error != "" {
		rep.Error = "cannot fold: " + rep.Error
	}
	return rep, err
}

func (p plugin) Load(r sim.LoadRequest) (sim.LoadReply, error) {
	rep, err := p.Port.Load(r)
	if rep.Error != "" {
		rep.Error = "bad config! " + strings.ToUpper(rep.Error)
	}
	return rep, err
}
