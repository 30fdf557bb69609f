package properties

import (
	"encoding/json"
	"reflect"
	"slices"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

// AgentPrediction is what one agent must show after an action.
type AgentPrediction struct {
	Agent   string
	State   sim.GetReply
	Events  []trace.EventExpect
	Plan    []bool
	Notices int
	// Request is set when the action sent a request for this agent: whether
	// its plan:policy section is rendered.
	Request *bool
	// PreStep is set when the plugin's listener must have run for this
	// agent's step.
	PreStep bool
	// Tools is the last request's tool catalog, when Request is set.
	Tools []string
	// Unobserved: the plugin is not composed, so no get() is recorded and
	// State is not checked.
	Unobserved bool
}

// Prediction is what the implementation must do for one action.
type Prediction struct {
	Agents   []AgentPrediction
	Outcome  string
	Error    bool
	Decision string
	Tool     *trace.ToolExpect
	Command  *trace.CommandExpect
	Fold     *bool
	FoldErr  bool
	// Alts are the predictions under the other readings of the silent
	// points the implementation leaves undeclared (Model.Settle), one per
	// alt of the model, in order; empty when there is one reading. Same[i]
	// says Alts[i] predicts exactly what this prediction does.
	Alts []Prediction
	Same []bool
}

// For returns the prediction for an agent.
func (p *Prediction) For(name string) *AgentPrediction {
	for i := range p.Agents {
		if p.Agents[i].Agent == name {
			return &p.Agents[i]
		}
	}
	return nil
}

// pred accumulates a prediction while the model applies an action.
type pred struct {
	m *Model
	p Prediction
}

func (x *pred) of(a *agent) *AgentPrediction {
	if ap := x.p.For(a.name); ap != nil {
		return ap
	}
	x.p.Agents = append(x.p.Agents, AgentPrediction{Agent: a.name, Plan: []bool{}})
	return &x.p.Agents[len(x.p.Agents)-1]
}

// host appends a runtime event.
func (x *pred) host(a *agent, typ string, data json.RawMessage) {
	a.log = append(a.log, mevent{typ: typ})
	ap := x.of(a)
	ap.Events = append(ap.Events, trace.EventExpect{Type: typ, Data: data})
}

// appendPlan is the plugin's append of plan/mode; false when the armed
// fault fails it.
func (x *pred) appendPlan(a *agent, active bool) bool {
	if x.m.fail > 0 {
		x.m.fail--
		return false
	}
	a.log = append(a.log, mevent{typ: spec.TypePlanMode, isPlan: true, plan: active})
	a.logged = active
	ap := x.of(a)
	ap.Events = append(ap.Events, trace.EventExpect{Type: spec.TypePlanMode, Data: sim.JSON(spec.PlanModeData{Active: active})})
	ap.Plan = append(ap.Plan, active)
	return true
}

// Apply advances the model by act and returns what the implementation must
// show. act must be Valid.
func (m *Model) Apply(act sim.Action) Prediction {
	m.fork(act)
	return m.apply(act)
}

// apply is Apply without forking.
func (m *Model) apply(act sim.Action) Prediction {
	x := &pred{m: m}
	switch {
	case act.Prompt != nil:
		a := m.agent(act.Prompt.Agent)
		a.queue = append(a.queue, qmsg{text: act.Prompt.Text})
		x.admit(a)
	case act.Set != nil:
		a := m.agent(act.Set.Agent)
		x.p.Outcome, x.p.Error = x.set(a, act.Set.Active)
	case act.Get != nil:
		x.of(m.agent(act.Get.Agent))
	case act.Command != nil:
		x.command(m.agent(act.Command.Agent), act.Command.Input)
	case act.Step != nil:
		x.step(m.agent(act.Step.Agent), act.Step, false)
	case act.Retry != nil:
		x.step(m.agent(act.Retry.Agent), act.Retry, true)
	case act.EndTurn != nil:
		x.endTurn(m.agent(act.EndTurn.Agent))
	case act.Idle != nil:
		x.of(m.agent(act.Idle.Agent))
	case act.Fault != nil:
		m.fail += act.Fault.Appends
	case act.Restart != nil:
		for _, a := range m.agents {
			x.of(a)
			if a.open {
				x.endTurn(a)
			}
			a.queue = nil
			a.pending = nil // PEND-8: pending selections are process-local
			a.owed = false  // and so is a narration an idle commit owes
		}
		m.fail = 0
	case act.Reload != nil:
		for _, a := range m.agents {
			x.of(a)
		}
		x.reload()
	case act.Fork != nil:
		parent := m.agent(act.Fork.Agent)
		child := &agent{name: act.Fork.As, log: slices.Clone(parent.log), logged: parent.logged, header: parent.header, open: parent.open}
		m.agents = append(m.agents, child)
		x.of(parent)
		x.of(child)
		if child.open {
			x.endTurn(child)
		}
	case act.Compact != nil:
		a := m.agent(act.Compact.Agent)
		x.host(a, spec.TypeCompactStart, nil)
		x.host(a, spec.TypeCompactSummary, nil)
		x.host(a, spec.TypeCompactEnd, nil)
	case act.Fold != nil:
		x.fold(act.Fold)
	case act.Append != nil:
		x.outside(m.agent(act.Append.Agent), act.Append.Type, act.Append.Data)
	case act.Open != nil:
		x.open(act.Open)
	case act.Unload != nil:
		// SVC-2, PEND-8: the service goes with its pending selections; the
		// logs stay.
		for _, a := range m.agents {
			a.pending = nil
			a.owed = false
		}
		m.unloaded = true
	case act.Load != nil:
		// A fresh load composes the plugin from the logs alone (LOG-3):
		// pending selections and queued messages are process-local.
		for _, a := range m.agents {
			x.of(a)
			a.pending = nil
			a.queue = nil
			a.owed = false
		}
		m.unloaded = false
	}
	for i := range x.p.Agents {
		ap := &x.p.Agents[i]
		ap.State = m.Get(ap.Agent)
		ap.Unobserved = !m.Plugin()
	}
	for _, alt := range m.alts {
		p := alt.apply(act)
		x.p.Alts = append(x.p.Alts, p)
		x.p.Same = append(x.p.Same, reflect.DeepEqual(p, Prediction{Agents: x.p.Agents, Outcome: x.p.Outcome, Error: x.p.Error, Decision: x.p.Decision,
			Tool: x.p.Tool, Command: x.p.Command, Fold: x.p.Fold, FoldErr: x.p.FoldErr}))
	}
	return x.p
}

func (x *pred) admit(a *agent) {
	a.open = true
	a.retry = false
	a.continues = false
	x.host(a, spec.TypeTurnStart, nil)
}

func (x *pred) endTurn(a *agent) {
	if a.retry {
		x.host(a, spec.TypeStepEnd, nil)
	}
	a.retry = false
	a.open = false
	x.host(a, spec.TypeTurnEnd, nil)
}

func (x *pred) reload() {
	if x.m.Choices.ReloadPending == spec.ReloadPendingKeep {
		return
	}
	for _, a := range x.m.agents {
		a.pending = nil // a committed change's owed narration stays, as a queued notice does
	}
}

// set is set(agent, active): PEND-3..6, STEP-6 for an idle commit.
func (x *pred) set(a *agent, active bool) (outcome string, failed bool) {
	x.of(a)
	current := a.logged
	if a.pending != nil {
		current = a.pending.active
	}
	if active == current {
		return spec.Noop, false // PEND-3
	}
	if a.open {
		if active == a.logged { // PEND-5
			if x.m.Choices.CancelPending == spec.CancelPendingKeepEqual {
				a.pending = &intent{active: a.logged}
			} else {
				a.pending = nil
			}
			return spec.Cancelled, false
		}
		a.pending = &intent{active: active} // PEND-4
		return spec.Queued, false
	}
	if active == a.logged { // PEND-6, a leftover opposite selection
		a.pending = nil
		return spec.Cancelled, false
	}
	narrate := a.header != nil && *a.header != active
	if !x.appendPlan(a, active) {
		if x.m.Choices.IdleAppendFailure == spec.IdleAppendFailurePending {
			a.pending = &intent{active: active}
			return spec.Queued, false
		}
		return "", true
	}
	a.pending = nil
	switch {
	case x.m.defers():
		a.owed = narrate // the next accepted in-turn pre-step narrates the net change
	case narrate:
		a.queue = append(a.queue, qmsg{notice: true})
	}
	return spec.Committed, false // PEND-6
}

// command is /plan [off|message] (CMD-1..4).
func (x *pred) command(a *agent, input string) {
	x.host(a, spec.TypeCommandRun, nil)
	cmd := spec.ParseCommandAs(input, x.m.Choices.PlanArgument)
	registered := x.m.Setup.Services.Commands && cmd.IsPlan() && x.m.Plugin()
	kind, outcome := "error", ""
	steered := []string{}
	wake := false
	if registered {
		target := cmd.Active()
		out, failed := x.set(a, target)
		if !failed {
			kind, outcome = "success", out
			if x.m.Choices.Assume.ReplyAnnouncesEntering && (target && out != spec.Committed || !target && out == spec.Noop && a.logged) {
				outcome = spec.Queued
			}
			if msg := cmd.Message(); msg != "" { // CMD-3: steered even when the selection changes nothing
				a.queue = append(a.queue, qmsg{text: msg})
				steered = append(steered, msg)
				wake = true
			}
		}
	}
	x.host(a, spec.TypeCommandDone, nil)
	x.p.Command = &trace.CommandExpect{Registered: &registered, Kind: kind, Outcome: outcome, Steered: steered}
	if wake && !a.open {
		x.admit(a)
	}
}
