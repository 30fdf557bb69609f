// Package planmode is a minimal plan mode behind plankit's sim.Port: a
// starting point that compiles and runs every check, not a conforming
// implementation. conformance.Test, Diff, Explore and Fuzz say what it
// misses, clause by clause.
package planmode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/plankit/plankit/sim"
)

// Port is one instance of the implementation. The kit starts a fresh one
// for every check (NewPort) and owns the durable logs: each agent's mirror
// here is the log as the kit sent it (Open, Call.Sync) plus this instance's
// own appends.
type Port struct {
	section  string
	services sim.Services
	agents   map[string]*agent
}

type agent struct {
	log     []sim.Event
	pending *bool // the selection waiting for the next accepted step
}

// NewPort returns a new instance.
func NewPort() sim.Port { return &Port{} }

func (p *Port) Start() (sim.Identity, error) {
	*p = Port{agents: map[string]*agent{}} // a start forgets everything
	return sim.Identity{Name: "planmode-minimal", Version: "0.1.0", Language: "go",
		Capabilities: sim.Capabilities{Commands: true, UserQuestions: true, Fork: true, Reload: true}}, nil
}

func (p *Port) Load(req sim.LoadRequest) (sim.LoadReply, error) {
	var cfg struct {
		Section *string `json:"section"`
	}
	dec := json.NewDecoder(bytes.NewReader(req.Config))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil || cfg.Section == nil || strings.TrimSpace(*cfg.Section) == "" {
		return sim.LoadReply{Error: "the config is exactly {section: non-blank string}"}, nil
	}
	p.section, p.services = *cfg.Section, req.Services
	return p.registration(), nil
}

func (p *Port) registration() sim.LoadReply {
	r := sim.LoadReply{Listener: sim.Prepend, Tools: []sim.Tool{{Name: "exit_plan_mode"}}, Sections: []string{"plan:policy"}}
	if p.services.Commands {
		r.Commands = []string{"plan"}
	}
	return r
}

func (p *Port) Open(req sim.OpenRequest) error {
	p.agents[req.Agent] = &agent{log: append([]sim.Event(nil), req.Events...)}
	return nil
}

// call brings the agent's mirror up to date with the events the host
// appended since this instance last saw it.
func (p *Port) call(c sim.Call) (*agent, error) {
	a := p.agents[c.Agent]
	if a == nil {
		return nil, fmt.Errorf("unknown agent %q", c.Agent)
	}
	a.log = append(a.log, c.Sync...)
	return a, nil
}

// active is the fold of the log: the last plan/mode's active.
func (a *agent) active() bool { return fold(a.log) }

func fold(events []sim.Event) bool {
	active := false
	for _, e := range events {
		var d struct{ Active bool }
		if e.Type == "plan/mode" && json.Unmarshal(e.Data, &d) == nil {
			active = d.Active
		}
	}
	return active
}

// turnOpen reports whether the log holds a turn/start with no turn/end.
func (a *agent) turnOpen() bool {
	open := false
	for _, e := range a.log {
		switch e.Type {
		case "turn/start":
			open = true
		case "turn/end":
			open = false
		}
	}
	return open
}

// appendMode appends plan/mode, failing as the call's armed faults say.
func (a *agent) appendMode(active bool, failAppends *int, effects *[]sim.Effect) bool {
	data, _ := json.Marshal(map[string]bool{"active": active})
	if *failAppends > 0 {
		*failAppends--
		*effects = append(*effects, sim.Effect{Kind: sim.EffectAppend, Type: "plan/mode", Data: data, Failed: true})
		return false
	}
	a.log = append(a.log, sim.Event{Seq: len(a.log), Type: "plan/mode", Data: data})
	*effects = append(*effects, sim.Effect{Kind: sim.EffectAppend, Type: "plan/mode", Data: data})
	return true
}

func (p *Port) Set(req sim.SetRequest) (sim.SetReply, error) {
	a, err := p.call(req.Call)
	if err != nil {
		return sim.SetReply{}, err
	}
	return p.set(a, req.Active, req.FailAppends), nil
}

func (p *Port) set(a *agent, active bool, failAppends int) sim.SetReply {
	switch {
	case a.pending != nil && *a.pending == active, a.pending == nil && a.active() == active:
		return sim.SetReply{Outcome: "noop"}
	case a.turnOpen() && a.active() == active:
		a.pending = nil
		return sim.SetReply{Outcome: "cancelled"}
	case a.turnOpen():
		a.pending = &active
		return sim.SetReply{Outcome: "queued"}
	}
	var effects []sim.Effect
	if !a.appendMode(active, &failAppends, &effects) {
		return sim.SetReply{Error: "could not log the plan-mode change", Effects: effects}
	}
	a.pending = nil
	return sim.SetReply{Outcome: "committed", Effects: effects}
}

func (p *Port) Get(c sim.Call) (sim.GetReply, error) {
	a, err := p.call(c)
	if err != nil {
		return sim.GetReply{}, err
	}
	return sim.GetReply{Active: a.active(), Pending: a.pending}, nil
}

func (p *Port) PreStep(req sim.PreStepRequest) (sim.PreStepReply, error) {
	a, err := p.call(req.Call)
	if err != nil {
		return sim.PreStepReply{}, err
	}
	effects := []sim.Effect{{Kind: sim.EffectDownstream}} // next() first
	decision, fail := req.Downstream, req.FailAppends
	if decision.Kind == sim.Enter && !req.AbortedBefore && !req.AbortDuring && a.pending != nil {
		if a.appendMode(*a.pending, &fail, &effects) {
			text := "The user switched this session back to the default mode."
			if *a.pending {
				text = "The user switched this session to plan mode."
			}
			a.pending = nil
			decision.Messages = append(append([]sim.Message(nil), decision.Messages...), sim.Message{Role: "user", Text: text,
				Source: sim.Source{Kind: "plugin", Plugin: "plan-mode", Form: "notice", Summary: text}})
		}
	}
	return sim.PreStepReply{Decision: decision, Effects: effects}, nil
}

func (p *Port) Assemble(req sim.AssembleRequest) (sim.AssembleReply, error) {
	a, err := p.call(req.Call)
	if err != nil {
		return sim.AssembleReply{}, err
	}
	reply := sim.AssembleReply{Sections: []sim.Section{}, Tools: append(append([]sim.Tool(nil), req.Tools...), sim.Tool{Name: "exit_plan_mode"})}
	if a.active() {
		reply.Sections = append(reply.Sections, sim.Section{Name: "plan:policy", Order: 50, Text: p.section})
	}
	return reply, nil
}

func (p *Port) ExitTool(req sim.ExitToolRequest) (sim.ToolReply, error) {
	a, err := p.call(req.Call)
	if err != nil {
		return sim.ToolReply{}, err
	}
	var args struct{ Plan string }
	_ = json.Unmarshal(req.Args, &args)
	switch {
	case !a.active():
		return sim.ToolReply{Error: "exit_plan_mode runs only in plan mode"}, nil
	case !strings.HasPrefix(args.Plan, "# "):
		return sim.ToolReply{Error: "the plan must start with a # heading"}, nil
	case !p.services.UserQuestions:
		return sim.ToolReply{Error: "no way to ask the user"}, nil
	}
	question, _ := json.Marshal(map[string]string{"question": "Approve this plan and leave plan mode?", "detail": args.Plan})
	effects := []sim.Effect{{Kind: sim.EffectAsk, Question: question}}
	if req.Review.Answer != sim.Approve || req.Review.Feedback != "" {
		return sim.ToolReply{Error: "keep planning: " + req.Review.Feedback, Effects: effects}, nil
	}
	leave := false
	a.pending = &leave // left silently at the next accepted step
	return sim.ToolReply{OK: true, Result: json.RawMessage(`{"approved":true}`), Effects: effects}, nil
}

func (p *Port) Command(req sim.CommandRequest) (sim.CommandReply, error) {
	a, err := p.call(req.Call)
	if err != nil {
		return sim.CommandReply{}, err
	}
	arg := strings.TrimSpace(req.Input)
	r := p.set(a, arg != "off", req.FailAppends)
	if r.Error != "" {
		return sim.CommandReply{Kind: "error", Text: r.Error, Effects: r.Effects}, nil
	}
	reply := sim.CommandReply{Kind: "success", Text: "Plan mode: " + r.Outcome, Effects: r.Effects}
	if arg != "" && arg != "off" {
		reply.Effects = append(reply.Effects, sim.Effect{Kind: sim.EffectSteer, Message: &sim.Message{Role: "user", Text: arg, Source: sim.Source{Kind: "user"}}})
	}
	return reply, nil
}

func (p *Port) Fold(req sim.FoldRequest) (sim.FoldReply, error) {
	end := len(req.Events)
	if req.End != nil {
		end = max(0, min(*req.End, end))
	}
	return sim.FoldReply{Active: fold(req.Events[:end])}, nil
}

func (p *Port) Reload() (sim.LoadReply, error) { return p.registration(), nil }

// Unload is not declared (Capabilities.Unload): the kit never calls it.
func (p *Port) Unload() (sim.LoadReply, error) {
	return sim.LoadReply{}, errors.Join(sim.ErrUnsupported, errors.New("unload"))
}

func (p *Port) Stop() error { return nil }
