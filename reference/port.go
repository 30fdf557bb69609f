package reference

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// Choices are the reference's picks for the silent points of the
// specification (spec.Choices, docs/spec-choices.md). The zero value is
// the default pick.
type Choices struct {
	FoldEnd           string // spec.ChoiceFoldEnd
	CancelPending     string // spec.ChoiceCancelPending
	SectionSource     string // spec.ChoiceSectionSource
	ReloadPending     string // spec.ChoiceReloadPending
	IdleAppendFailure string // spec.ChoiceIdleAppendFailure
	PlanHeading       string // spec.ChoicePlanHeading
	EmptyStep         string // spec.ChoiceEmptyStep
	PlanModeData      string // spec.ChoicePlanModeData
	PlanModeMalformed string // spec.ChoicePlanModeMalformed
	IdleRevertNotice  string // spec.ChoiceIdleRevertNotice
	PlanArgument      string // spec.ChoicePlanArgument
	UnloadedHeader    string // spec.ChoiceUnloadedHeader
	LoggedPending     string // spec.ChoiceLoggedPending
	// FaultScope is the runtime's (spec.ChoiceFaultScope): plan mode
	// itself does not read it; it is declared here so that a runtime
	// around the reference can declare it.
	FaultScope string
}

// Followed are the readings the reference follows of the silent points
// whose default accepts either reading (an implementation that declares
// nothing there is held to neither), each declared: the reference stating
// every reading it follows, so that the checks holding an implementation to
// those readings run against it (the runtime-level kill matrix, the
// runtime-level suite's tests).
func Followed() Choices {
	return Choices{PlanModeMalformed: spec.PlanModeMalformedKeep, IdleRevertNotice: spec.IdleRevertNoticeKeep, PlanArgument: spec.PlanArgumentTrimmed,
		UnloadedHeader: spec.UnloadedHeaderFold, LoggedPending: spec.LoggedPendingKeep, FaultScope: spec.FaultScopePlanMode}
}

// fields maps each choice name to the field holding the pick.
func (c *Choices) fields() map[string]*string {
	return map[string]*string{
		spec.ChoiceFoldEnd:           &c.FoldEnd,
		spec.ChoiceCancelPending:     &c.CancelPending,
		spec.ChoiceSectionSource:     &c.SectionSource,
		spec.ChoiceReloadPending:     &c.ReloadPending,
		spec.ChoiceIdleAppendFailure: &c.IdleAppendFailure,
		spec.ChoicePlanHeading:       &c.PlanHeading,
		spec.ChoiceEmptyStep:         &c.EmptyStep,
		spec.ChoicePlanModeData:      &c.PlanModeData,
		spec.ChoicePlanModeMalformed: &c.PlanModeMalformed,
		spec.ChoiceIdleRevertNotice:  &c.IdleRevertNotice,
		spec.ChoicePlanArgument:      &c.PlanArgument,
		spec.ChoiceUnloadedHeader:    &c.UnloadedHeader,
		spec.ChoiceLoggedPending:     &c.LoggedPending,
		spec.ChoiceFaultScope:        &c.FaultScope,
	}
}

// reading is how the fold reads plan/mode data under these choices.
func (c Choices) reading() spec.PlanModeReading {
	return spec.PlanModeReading{Data: c.PlanModeData, Malformed: c.PlanModeMalformed}
}

func (c Choices) withDefaults() Choices {
	fields := c.fields()
	for _, ch := range spec.Choices {
		if f := fields[ch.Name]; f != nil && *f == "" {
			*f = ch.Default()
		}
	}
	return c
}

// Map returns the choices by name, as an implementation declares them.
func (c Choices) Map() map[string]string {
	c = c.withDefaults()
	m := map[string]string{}
	for name, f := range c.fields() {
		m[name] = *f
	}
	return m
}

// ParseChoices reads name=value choices, rejecting unknown names and values.
func ParseChoices(m map[string]string) (Choices, error) {
	var c Choices
	fields := c.fields()
	for _, name := range slices.Sorted(maps.Keys(m)) {
		v := m[name]
		f, ok := fields[name]
		ch, known := spec.LookupChoice(name)
		if !ok || !known {
			return c, fmt.Errorf("unknown choice %q", name)
		}
		if !ch.Accepts(v) {
			return c, fmt.Errorf("choice %s: unknown value %q (one of %v)", name, v, ch.ValueNames())
		}
		*f = v
	}
	return c, nil
}

// Options configure the in-process reference.
type Options struct {
	Choices Choices
	Mutants Mutants
	// Declares replaces what the reference declares at start for the
	// named choices (a value "" declares nothing for it), whatever Choices
	// makes it follow. Tests build with it an implementation that declares
	// another reading than the one it takes, or none, to show a check
	// holding an implementation to its declaration and judging neither
	// reading of an undeclared silent point.
	Declares map[string]string
}

// Version is the reference's version, reported at start.
const Version = "1.0.0"

// Port is the reference (or a mutant of it) in-process, as a sim.Port.
type Port struct{ sim.Port }

// PreTool implements sim.ToolGate: the plugin's gate on the host's tool
// calls.
func (p *Port) PreTool(req sim.PreToolRequest) (sim.PreToolReply, error) {
	return preTool(p.Port, req)
}

// NewPort returns the reference (or one of its mutants) as a port: the
// plugin with the mutants' hooks, wrapped by the mutants that change what
// crosses the port.
func NewPort(opts Options) *Port {
	opts.Choices = opts.Choices.withDefaults()
	k, wrap := opts.Mutants.apply()
	return &Port{wrap(&plugin{opts: opts, hooks: k})}
}

// plugin serves the reference controller in-process through sim.Port. It
// keeps its own view of every session log (the folds of it, session), fed
// only by the requests' Sync events and its own appends, exactly as an
// out-of-process implementation would.
type plugin struct {
	opts     Options
	hooks    *hooks
	config   json.RawMessage
	services sim.Services
	// hostTools are the host's tools registered before the plugin loaded.
	hostTools []sim.Tool
	// process-local state, dropped by Stop.
	sessions map[string]*session
	ctl      *Controller
	// carried are the pending selections a stop handed to the next load:
	// none (PEND-8).
	carried map[string]intent
	// host is the host of the call being served, reused call after call
	// (a call ends before the next begins).
	host callHost
	// found is the session sync found last (calls name the same agent
	// again and again); Start and Open forget it.
	found      *session
	foundAgent string
}

var errNotStarted = errors.New("the reference is not started")

// Capabilities are what the reference can do: every optional part of the
// contract (its Start resets it to a new instance, so it declares reuse).
var Capabilities = sim.Capabilities{Commands: true, UserQuestions: true, Fork: true, Reload: true, Reuse: true,
	CommandOutcomes: true, Unload: true, ReviewReplies: true, HostTools: true, EmptySteps: true}

// Start implements sim.Port.
func (p *plugin) Start() (sim.Identity, error) {
	p.sessions = map[string]*session{}
	p.found = nil
	p.ctl = nil
	name := "plankit-reference"
	if len(p.opts.Mutants) > 0 {
		name = fmt.Sprintf("plankit-reference+%s", p.opts.Mutants[0])
	}
	choices := p.opts.Choices.Map()
	for name, v := range p.opts.Declares {
		if v == "" {
			delete(choices, name)
		} else {
			choices[name] = v
		}
	}
	return sim.Identity{Name: name, Version: Version, Language: "go", Choices: choices, Capabilities: Capabilities}, nil
}

// Load implements sim.Port.
func (p *plugin) Load(req sim.LoadRequest) (sim.LoadReply, error) {
	if p.sessions == nil {
		return sim.LoadReply{}, errNotStarted
	}
	p.config, p.services, p.hostTools = req.Config, req.Services, req.HostTools
	return p.load(nil, nil), nil
}

// load composes a fresh controller with the pending selections and owed
// narrations a reload carries over (nil: none).
func (p *plugin) load(pending map[string]intent, owed map[string]bool) sim.LoadReply {
	cfg, err := ResolveConfig(p.config)
	if err != nil {
		p.ctl = nil
		return sim.LoadReply{Error: err.Error()}
	}
	if pending == nil {
		pending = map[string]intent{}
	}
	if owed == nil {
		owed = map[string]bool{}
	}
	if p.carried != nil {
		pending = p.carried
		p.carried = nil
	}
	p.ctl = &Controller{config: cfg, services: p.services, hostTools: p.hostTools, sessions: p.sessions, pending: pending, owed: owed, choices: p.opts.Choices, hooks: p.hooks}
	reply := sim.LoadReply{Listener: sim.Prepend, Tools: []sim.Tool{{Name: spec.ExitTool}}, Sections: []string{spec.SectionName}}
	if p.services.Commands {
		reply.Commands = []string{spec.Command}
	}
	return reply
}

// Open implements sim.Port.
func (p *plugin) Open(req sim.OpenRequest) error {
	if p.ctl == nil {
		return errNotStarted
	}
	s := &session{folds: p.hooks.folds, reading: p.opts.Choices.reading(), unloadedHeader: p.opts.Choices.UnloadedHeader}
	for _, e := range req.Events {
		s.add(e)
	}
	s.active = p.hooks.resumed.at(req, s.active) // the log's fold (LOG-3)
	p.sessions[req.Agent] = s
	p.found = nil
	return nil
}

// callHost is the host of one port call: it records effects in order and
// fails the armed number of appends.
type callHost struct {
	p       *plugin
	fail    int
	effects []sim.Effect
	// down is the downstream listeners' decision Next returns (hasDown:
	// set; otherwise Next enters).
	down    sim.Decision
	hasDown bool
	review  sim.Review
}

// effect records ef. The effects go out in the call's reply, so each call
// has its own slice, made at its first effect with room for a call's
// usual two (a pre-step's call of next() and its append, a selection's
// append and notice).
func (h *callHost) effect(ef sim.Effect) {
	if h.effects == nil {
		h.effects = make([]sim.Effect, 0, 2)
	}
	h.effects = append(h.effects, ef)
}

func (h *callHost) Append(agent, typ string, data json.RawMessage) error {
	ef := sim.Effect{Kind: sim.EffectAppend, Type: typ, Data: data}
	if h.fail > 0 {
		h.fail--
		ef.Failed = true
		h.effect(ef)
		return errors.New("append failed")
	}
	h.effect(ef)
	s := h.p.sessions[agent]
	if typ == spec.TypePlanMode && !bytes.Equal(data, planModeOn) && !bytes.Equal(data, planModeOff) {
		data = sim.Canonical(data) // as the log holds it; the fold reads it
	}
	s.add(sim.Event{Seq: s.n, Type: typ, Data: data})
	return nil
}

func (h *callHost) Steer(_ string, m sim.Message) {
	h.effect(sim.Effect{Kind: sim.EffectSteer, Message: &m})
}

func (h *callHost) Inject(_ string, m sim.Message) {
	h.effect(sim.Effect{Kind: sim.EffectInject, Message: &m})
}

func (h *callHost) Next() sim.Decision {
	h.effect(sim.Effect{Kind: sim.EffectDownstream})
	if !h.hasDown {
		return sim.Decision{Kind: sim.Enter}
	}
	return h.down
}

func (h *callHost) Ask(_ string, question json.RawMessage) (sim.Review, error) {
	h.effect(sim.Effect{Kind: sim.EffectAsk, Question: question})
	if h.review.Reload {
		h.p.reload()
	}
	return h.review, nil
}

// begin syncs the call's host events into the session mirror and returns
// the call's host.
func (p *plugin) begin(c sim.Call) (*callHost, *session, error) {
	s, err := p.sync(c)
	if err != nil {
		return nil, nil, err
	}
	p.host = callHost{p: p, fail: c.FailAppends}
	return &p.host, s, nil
}

// sync syncs the call's host events into the session mirror, for a call
// that needs no host (get, assemble).
func (p *plugin) sync(c sim.Call) (*session, error) {
	if p.ctl == nil {
		return nil, errNotStarted
	}
	s := p.found
	if s == nil || p.foundAgent != c.Agent {
		var ok bool
		if s, ok = p.sessions[c.Agent]; !ok {
			return nil, fmt.Errorf("unknown agent %q", c.Agent)
		}
		p.found, p.foundAgent = s, c.Agent
	}
	for _, e := range c.Sync {
		if e.Seq != s.n {
			return nil, fmt.Errorf("agent %q: sync event seq %d, want %d", c.Agent, e.Seq, s.n)
		}
		// Another writer's plan/mode is in force at once (LOG-3), unless
		// a mutant's hook has it logged but not folded.
		folds := e.Type != spec.TypePlanMode || p.hooks.heard.at(e, true)
		s.log(e, folds)
		if folds && e.Type == spec.TypePlanMode {
			p.ctl.heard(c.Agent)
		}
	}
	return s, nil
}

// Set implements sim.Port.
func (p *plugin) Set(req sim.SetRequest) (sim.SetReply, error) {
	h, _, err := p.begin(req.Call)
	if err != nil {
		return sim.SetReply{}, err
	}
	outcome, err := p.ctl.Set(h, req.Agent, req.Active)
	reply := sim.SetReply{Outcome: outcome, Effects: h.effects}
	if err != nil {
		reply.Error = err.Error()
	}
	return reply, nil
}

// Get implements sim.Port.
func (p *plugin) Get(c sim.Call) (sim.GetReply, error) {
	if _, err := p.sync(c); err != nil {
		return sim.GetReply{}, err
	}
	return p.ctl.Get(c.Agent), nil
}

// PreStep implements sim.Port.
func (p *plugin) PreStep(req sim.PreStepRequest) (sim.PreStepReply, error) {
	h, _, err := p.begin(req.Call)
	if err != nil {
		return sim.PreStepReply{}, err
	}
	h.down, h.hasDown = req.Downstream, true
	d := p.ctl.PreStep(h, req.Agent, req)
	return sim.PreStepReply{Decision: d, Effects: h.effects}, nil
}

// Assemble implements sim.Port.
func (p *plugin) Assemble(req sim.AssembleRequest) (sim.AssembleReply, error) {
	if _, err := p.sync(req.Call); err != nil {
		return sim.AssembleReply{}, err
	}
	return sim.AssembleReply{Sections: p.ctl.Sections(req.Agent), Tools: p.ctl.Tools(req.Agent, req.Tools)}, nil
}

// PreTool implements sim.ToolGate: the plugin's view of a host tool call.
func (p *plugin) PreTool(req sim.PreToolRequest) (sim.PreToolReply, error) {
	h, _, err := p.begin(req.Call)
	if err != nil {
		return sim.PreToolReply{}, err
	}
	reply := sim.PreToolReply{Decision: sim.ToolAllow}
	if reason := p.ctl.GateHostTool(req.Agent, req.Name); reason != "" {
		reply = sim.PreToolReply{Decision: sim.ToolDeny, Reason: reason}
	}
	reply.Effects = h.effects
	return reply, nil
}

// ExitTool implements sim.Port.
func (p *plugin) ExitTool(req sim.ExitToolRequest) (sim.ToolReply, error) {
	h, _, err := p.begin(req.Call)
	if err != nil {
		return sim.ToolReply{}, err
	}
	h.review = req.Review
	out, err := p.ctl.ExitPlanMode(h, req.Agent, req.Args)
	reply := sim.ToolReply{OK: err == nil, Result: out, Effects: h.effects}
	if err != nil {
		reply.Error = err.Error()
	}
	return reply, nil
}

// Command implements sim.Port.
func (p *plugin) Command(req sim.CommandRequest) (sim.CommandReply, error) {
	h, _, err := p.begin(req.Call)
	if err != nil {
		return sim.CommandReply{}, err
	}
	if req.Name != spec.Command {
		return sim.CommandReply{Kind: "error", Text: fmt.Sprintf("unknown command /%s", req.Name)}, nil
	}
	reply := p.ctl.Command(h, req.Agent, req.Input)
	reply.Effects = h.effects
	return reply, nil
}

// Fold implements sim.Port.
func (p *plugin) Fold(req sim.FoldRequest) (sim.FoldReply, error) {
	end := len(req.Events)
	if req.End != nil {
		end = *req.End
		switch p.opts.Choices.FoldEnd {
		case spec.FoldEndError:
			if end < 0 || end > len(req.Events) {
				return sim.FoldReply{Error: fmt.Sprintf("end %d is outside the log [0, %d]", end, len(req.Events))}, nil
			}
		case spec.FoldEndSlice:
			end = SliceEnd(end, len(req.Events))
		}
	}
	return sim.FoldReply{Active: fold(req.Events, end, p.opts.Choices.reading(), p.hooks.folds)}, nil
}

// Reload implements sim.Port.
func (p *plugin) Reload() (sim.LoadReply, error) {
	if p.sessions == nil {
		return sim.LoadReply{}, errNotStarted
	}
	return p.reload(), nil
}

// reload disposes the controller and loads a fresh one; pending selections
// are the old service's state and are dropped unless reload-pending=keep.
func (p *plugin) reload() sim.LoadReply {
	var keep map[string]intent
	var owed map[string]bool
	if p.ctl != nil {
		p.ctl.disposed = true
		if p.opts.Choices.ReloadPending == spec.ReloadPendingKeep {
			keep = maps.Clone(p.ctl.pending)
		}
		// A committed change's narration is not a selection: a reload in
		// place keeps it, as it keeps a notice already in the runtime's
		// inbox (idle-revert-notice=net).
		owed = maps.Clone(p.ctl.owed)
	}
	return p.load(keep, owed)
}

// Unload implements sim.Port: the controller is disposed with its pending
// selections and nothing stays registered; the sessions stay, so a later
// load folds their logs.
func (p *plugin) Unload() (sim.LoadReply, error) {
	if p.sessions == nil {
		return sim.LoadReply{}, errNotStarted
	}
	if p.ctl != nil {
		p.ctl.disposed = true
		p.carried = p.hooks.unloaded.at(p.ctl.pending, nil) // PEND-8: lost with the service
	}
	p.ctl = nil
	return sim.LoadReply{}, nil
}

// Stop implements sim.Port: the process ends and its state is gone.
func (p *plugin) Stop() error {
	if p.ctl != nil {
		p.carried = p.hooks.survivors.at(p.ctl.pending, nil)
	}
	p.sessions = nil
	p.found = nil
	p.ctl = nil
	return nil
}

// Factory returns a function building a fresh reference port with opts:
// the shape every suite takes, one fresh implementation per run.
func Factory(opts Options) func() sim.Port {
	return func() sim.Port { return NewPort(opts) }
}

// AlternativeChoices picks, for every choice that has one, the value other
// than the default, so suites can run against the other reading of every
// silent point at once.
func AlternativeChoices() Choices {
	alt := map[string]string{}
	for _, ch := range spec.Choices {
		if len(ch.Values) > 1 {
			alt[ch.Name] = ch.Values[1].Name
		}
	}
	c, err := ParseChoices(alt)
	if err != nil {
		panic("reference: spec.Choices and Choices disagree: " + err.Error()) // fixed data
	}
	return c
}
