package properties

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

// Choices are the silent-point picks the model honours, read from the
// implementation's declared sim.Identity.Choices. A choice the
// implementation does not declare takes the specification-leaning default
// (the first value listed in docs/properties.md).
type Choices struct {
	FoldEnd           string // clamp | error | slice
	CancelPending     string // clear | keep-equal
	SectionSource     string // log | pending
	ReloadPending     string // drop | keep
	IdleAppendFailure string // error | pending
	EmptyStep         string // keep-pending | inject
	PlanModeData      string // fold-active | exact
	// Assume is the known deviations the model predicts instead of
	// SPEC.md (none by default).
	Assume Deviations
}

// Deviations are known deviations of an implementation that the model can
// be told to predict, so a run goes on past them to other deviations. Each
// is named like the reference variant that reproduces it (plankit
// mutants), but restated here from its description: the model shares no
// code with the reference.
type Deviations struct {
	// ListenerAppended: the plugin's pre-step listener is registered
	// without prepend, so listeners registered before it wrap it (STEP-1).
	ListenerAppended bool
	// CancelledNarrated: a selection cancelled within a turn and kept as
	// an entry equal to the log (cancel-pending=keep-equal) is narrated at
	// the next accepted pre-step (STEP-6).
	CancelledNarrated bool
	// KeepPlanningKeepsExit: keep planning leaves an earlier approval's
	// pending exit in force (EXIT-6).
	KeepPlanningKeepsExit bool
	// ReplyAnnouncesEntering: every /plan that does not commit announces
	// queued, as does a repeated /plan off while plan mode is logged on
	// (SVC-1).
	ReplyAnnouncesEntering bool
	// NoticeForcesStep: at a step the runtime skips when its decision
	// carries no messages, the plugin appends the selection and adds its
	// notice to the empty decision, so the step runs (PEND-2).
	NoticeForcesStep bool
}

// Assumable lists the known deviations the model can predict: the name
// (as plankit mutants lists it), its clause and what it does.
var Assumable = []struct{ Name, Clause, What string }{
	{"listener-appended", spec.STEP1, "the pre-step listener is registered without prepend"},
	{"cancelled-selection-narrated", spec.STEP6, "a selection cancelled within a turn (kept as an entry equal to the log) is narrated at the next accepted pre-step"},
	{"keep-planning-keeps-exit", spec.EXIT6, "keep planning leaves an earlier approval's pending exit in force"},
	{"plan-reply-announces-entering", spec.SVC1, "every /plan that does not commit announces entering plan mode from the next step (queued), as does a repeated in-turn /plan off"},
	{"notice-forces-step", spec.PEND2, "a pending selection's notice is added to an empty accepted decision the runtime would skip, so the selection starts a step"},
}

// AssumableNames are the names of Assumable, in order, for messages.
func AssumableNames() []string {
	names := make([]string, len(Assumable))
	for i, a := range Assumable {
		names[i] = a.Name
	}
	return names
}

// ParseDeviations reads assumed deviations by name. Names the model cannot
// predict are refused, all of them named in the error.
func ParseDeviations(names []string) (Deviations, error) {
	var d Deviations
	var unknown []string
	for _, n := range names {
		switch n {
		case Assumable[0].Name:
			d.ListenerAppended = true
		case Assumable[1].Name:
			d.CancelledNarrated = true
		case Assumable[2].Name:
			d.KeepPlanningKeepsExit = true
		case Assumable[3].Name:
			d.ReplyAnnouncesEntering = true
		case Assumable[4].Name:
			d.NoticeForcesStep = true
		default:
			if !slices.Contains(unknown, n) {
				unknown = append(unknown, n)
			}
		}
	}
	if len(unknown) > 0 {
		return Deviations{}, fmt.Errorf("the model cannot predict %s; it can assume %s", strings.Join(unknown, ", "), strings.Join(AssumableNames(), ", "))
	}
	return d, nil
}

// Names lists the assumed deviations in Assumable order.
func (d Deviations) Names() []string {
	var out []string
	for i, on := range []bool{d.ListenerAppended, d.CancelledNarrated, d.KeepPlanningKeepsExit, d.ReplyAnnouncesEntering, d.NoticeForcesStep} {
		if on {
			out = append(out, Assumable[i].Name)
		}
	}
	return out
}

// ChoicesOf reads the declared choices, defaulting the missing ones.
func ChoicesOf(declared map[string]string) Choices {
	pick := func(name, def string) string {
		if v := declared[name]; v != "" {
			return v
		}
		return def
	}
	return Choices{
		FoldEnd:           pick(spec.ChoiceFoldEnd, spec.FoldEndClamp),
		CancelPending:     pick(spec.ChoiceCancelPending, spec.CancelPendingClear),
		SectionSource:     pick(spec.ChoiceSectionSource, spec.SectionSourceLog),
		ReloadPending:     pick(spec.ChoiceReloadPending, spec.ReloadPendingDrop),
		IdleAppendFailure: pick(spec.ChoiceIdleAppendFailure, spec.IdleAppendFailureError),
		EmptyStep:         pick(spec.ChoiceEmptyStep, spec.EmptyStepKeepPending),
		PlanModeData:      pick(spec.ChoicePlanModeData, spec.PlanModeDataFoldActive),
	}
}

// Setup is what a generated run is configured with; it becomes the header
// of a counterexample trace.
type Setup struct {
	Services sim.Services
	Retries  string // sim.RetriesPreStep or sim.RetriesSameStep
	// NoPlugin runs the session without the plan-mode package (SVC-2).
	NoPlugin bool
	// HostTools: the host registers HostTools before the plugin loads and
	// an assembly listener after plan mode's adds AssemblyTools (EXIT-1,
	// SVC-3); drawn only for implementations that declare host tools.
	HostTools bool
	// EmptySteps is sim.Options.EmptySteps; skip only for implementations
	// that declare empty steps.
	EmptySteps string
}

// The host's own tools of a run with Setup.HostTools.
var (
	HostTools     = []string{"read", "write"}
	AssemblyTools = []string{"search"}
)

// Within clears what the implementation does not declare it can be shown,
// so a run never needs a request it would answer unsupported.
func (s Setup) Within(id sim.Identity) Setup {
	if !id.HostTools {
		s.HostTools = false
	}
	if !id.EmptySteps {
		s.EmptySteps = ""
	}
	return s
}

// catalog is the request's tool catalog the model predicts: the host's
// tools in the host's order, then exit_plan_mode while the plugin is
// composed (EXIT-1, SVC-2).
func (s Setup) catalog(plugin bool) []sim.Tool {
	out := []sim.Tool{}
	if s.HostTools {
		for _, n := range append(slices.Clone(HostTools), AssemblyTools...) {
			out = append(out, sim.Tool{Name: n})
		}
	}
	if plugin {
		out = append(out, sim.Tool{Name: spec.ExitTool})
	}
	return out
}

// The fixed parts of every generated run.
const (
	// AuditListener is a trace listener registered before the plugin; it
	// adds AuditMessage to every step it accepts, which pins where the
	// plugin's notice sits in the chain (STEP-1).
	AuditListener = "audit"
	AuditMessage  = "Audit: the workspace is clean."
)

// Section is the guidance text every generated run configures.
const Section = trace.DefaultSection

// Options returns the simulator options of a run with this setup.
func (s Setup) Options() sim.Options {
	o := sim.Options{
		NoPlugin:  s.NoPlugin,
		Config:    sim.JSON(map[string]string{"section": Section}),
		Services:  s.Services,
		Retries:   s.Retries,
		Listeners: []sim.ListenerSpec{auditListener},
		Agents:    []string{"main", "side"},
	}
	if s.HostTools {
		o.HostTools, o.AssemblyTools = slices.Clone(HostTools), slices.Clone(AssemblyTools)
	}
	o.EmptySteps = s.EmptySteps
	return o
}

// Trace returns a trace with this setup and script.
func (s Setup) Trace(name, description string, clauses []string, script []trace.Entry) *trace.Trace {
	o := s.Options()
	services := s.Services
	rt := &trace.Runtime{Retries: s.Retries, EmptySteps: s.EmptySteps}
	if s.NoPlugin {
		rt.Plugin = ptr(false)
	}
	var hostTools []trace.HostTool
	for _, n := range o.HostTools {
		hostTools = append(hostTools, trace.HostTool{Name: n})
	}
	for _, n := range o.AssemblyTools {
		hostTools = append(hostTools, trace.HostTool{Name: n, Assembly: true})
	}
	return &trace.Trace{
		Name: name, Description: description, Clauses: clauses,
		Runtime:   rt,
		Config:    o.Config,
		Services:  &services,
		Listeners: o.Listeners,
		HostTools: hostTools,
		Agents:    o.Agents,
		Script:    script,
	}
}

// qmsg is a message waiting in an agent's runtime queue: a user message or
// a plan-mode notice injected by an idle selection.
type qmsg struct {
	notice bool
	text   string
}

// intent is a pending selection; silent marks the exit tool's approved
// exit, which is never narrated (EXIT-5).
type intent struct {
	active bool
	silent bool
}

// mevent is one event of the model's copy of a session log.
type mevent struct {
	typ    string
	plan   bool // for plan/mode: its active value
	isPlan bool
}

// agent is the model's view of one agent.
type agent struct {
	name string
	log  []mevent
	// logged is the fold of the log (LOG-2/3).
	logged  bool
	pending *intent
	open    bool
	retry   bool // the last request failed and waits for a retry
	// continues: the turn's last step ended with tool calls, so the next
	// step continues after their results.
	continues bool
	// header is the logged state when the last request/header was logged
	// (nil before the first): what the model was last told (STEP-6).
	header *bool
	// shown is whether the last header rendered plan:policy (nil before
	// the first), which decides the header's reason.
	shown *bool
	// tools is whether the last header offered exit_plan_mode (nil before
	// the first): an unloaded plugin's header has no tools.
	tools *bool
	queue []qmsg
}

// Model is the abstract plan-mode system: SPEC.md's clauses over the
// simulated runtime, as small pure Go, independent of any implementation.
// It knows each action's preconditions (Valid) and predicts what the
// implementation must do (Apply).
type Model struct {
	Setup   Setup
	Choices Choices
	agents  []*agent
	fail    int // armed append faults
	// unloaded: the plugin was unloaded and not loaded again (SVC-2).
	unloaded bool
	// ReviewReplies: the implementation takes reviews scripted as the
	// seam's reply or failure (sim.Identity.ReviewReplies); without it no
	// such review is a valid action.
	ReviewReplies bool
}

// NewModel returns the model of a fresh run.
func NewModel(s Setup, c Choices) *Model {
	m := &Model{Setup: s, Choices: c}
	for _, n := range s.Options().Agents {
		m.agents = append(m.agents, &agent{name: n})
	}
	return m
}

// Agents lists agent names in creation order.
func (m *Model) Agents() []string {
	out := make([]string, len(m.agents))
	for i, a := range m.agents {
		out[i] = a.name
	}
	return out
}

func (m *Model) agent(name string) *agent {
	for _, a := range m.agents {
		if a.name == name {
			return a
		}
	}
	return nil
}

// Key identifies the abstract state, for deduplication: everything that
// decides the future behaviour, but not log lengths.
func (m *Model) Key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "f%d", m.fail)
	if m.unloaded {
		b.WriteString("u")
	}
	for _, a := range m.agents {
		fmt.Fprintf(&b, "|%s:%v:%v:%v:%s:%s:%s:", a.name, a.logged, a.open, a.retry, intentKey(a.pending), boolKey(a.header), boolKey(a.shown))
		if m.Setup.EmptySteps == sim.EmptyStepsSkip {
			// Whether the next step continues after tool results decides
			// whether the runtime may skip it.
			fmt.Fprintf(&b, "c%v:", a.continues)
		}
		for _, q := range a.queue {
			if q.notice {
				b.WriteByte('n')
			} else {
				b.WriteString("u" + q.text + ";")
			}
		}
	}
	return b.String()
}

func intentKey(p *intent) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%v%v", p.active, p.silent)
}

func boolKey(p *bool) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

// Get is the model's get(agent) (PEND-7).
func (m *Model) Get(name string) sim.GetReply {
	a := m.agent(name)
	g := sim.GetReply{Active: a.logged}
	if a.pending != nil {
		v := a.pending.active
		g.Pending = &v
	}
	return g
}

// Open reports whether the agent has an open turn.
func (m *Model) Open(name string) bool { a := m.agent(name); return a != nil && a.open }

// AwaitingRetry reports whether the agent's last request failed.
func (m *Model) AwaitingRetry(name string) bool { a := m.agent(name); return a != nil && a.retry }

// LogLen is the length of the agent's log.
func (m *Model) LogLen(name string) int { return len(m.agent(name).log) }

// Fold is foldPlanMode over the first end events of the agent's log.
func (m *Model) Fold(name string, end int) bool {
	a := m.agent(name)
	v := false
	for _, e := range a.log[:min(max(end, 0), len(a.log))] {
		if e.isPlan {
			v = e.plan
		}
	}
	return v
}

// Valid reports whether act fits the state: the runtime would accept it
// (no *sim.InputError).
func (m *Model) Valid(act sim.Action) bool {
	switch {
	case act.Load != nil && (len(act.Load.Config) > 0 || act.Load.Services != nil):
		return false // the model keeps the run's config and services
	case m.unloaded && (act.Set != nil || act.Get != nil || act.Reload != nil || act.Fold != nil):
		return false // the service is gone: set is refused, nothing to observe
	case !m.reviewsValid(act):
		return false // a review the implementation does not take
	}
	return modelled[act.Name()] && act.Ready(m)
}

// modelled are the actions the model predicts (Apply); it finds any other
// action invalid, so generators never draw it.
var modelled = map[string]bool{
	"prompt": true, "set": true, "get": true, "command": true, "step": true, "retry": true,
	"end-turn": true, "idle": true, "fault": true, "restart": true, "reload": true,
	"fork": true, "compact": true, "fold": true, "append": true, "open": true,
	"unload": true, "load": true,
}

// Plugin reports whether the plan-mode plugin is composed.
func (m *Model) Plugin() bool { return !m.unloaded && !m.Setup.NoPlugin }

// Pending reports whether a selection waits for the agent.
func (m *Model) Pending(name string) bool { a := m.agent(name); return a != nil && a.pending != nil }

// HostTools names the host's own tools of the run (sim.World).
func (m *Model) HostTools() []string {
	if !m.Setup.HostTools {
		return nil
	}
	return append(slices.Clone(HostTools), AssemblyTools...)
}

// auditListener is the host's own pre-step listener of every run: it
// adds AuditMessage to the step's messages before the plugin's listener.
var auditListener = sim.ListenerSpec{Name: AuditListener, Registered: "before", Messages: []string{AuditMessage}}

// Listeners implements sim.World: the host's listeners, without building
// the whole runtime options at each draw.
func (m *Model) Listeners() []string { return []string{auditListener.Name} }

// reviewsValid reports whether the action's scripted reviews are ones the
// implementation takes.
func (m *Model) reviewsValid(act sim.Action) bool {
	s := act.Step
	if s == nil {
		s = act.Retry
	}
	if s == nil || s.Model == nil || m.ReviewReplies {
		return true
	}
	for _, c := range s.Model.Calls {
		if c.Review != nil && c.Review.Extended() {
			return false
		}
	}
	return true
}

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
		}
		m.unloaded = true
	case act.Load != nil:
		// A fresh load composes the plugin from the logs alone (LOG-3):
		// pending selections and queued messages are process-local.
		for _, a := range m.agents {
			x.of(a)
			a.pending = nil
			a.queue = nil
		}
		m.unloaded = false
	}
	for i := range x.p.Agents {
		ap := &x.p.Agents[i]
		ap.State = m.Get(ap.Agent)
		ap.Unobserved = !m.Plugin()
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
		a.pending = nil
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
	if narrate {
		a.queue = append(a.queue, qmsg{notice: true})
	}
	return spec.Committed, false // PEND-6
}

// command is /plan [off|message] (CMD-1..4).
func (x *pred) command(a *agent, input string) {
	x.host(a, spec.TypeCommandRun, nil)
	cmd := spec.ParseCommand(input)
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

// step proposes a step or a request-recovery retry (STEP-1..7, EXIT).
func (x *pred) step(a *agent, s *sim.StepAction, retry bool) {
	ap := x.of(a)
	if retry {
		x.host(a, spec.TypeRetry, nil)
		if x.m.Setup.Retries == sim.RetriesSameStep {
			a.retry = false
			x.p.Decision = ""
			x.finish(a, s)
			return
		}
	}
	// The plugin is outermost (STEP-1), unless it is assumed to be
	// registered without prepend: then the audit listener, registered
	// before it, wraps it, and a rejecting audit never reaches it.
	wrapped := x.m.Choices.Assume.ListenerAppended
	audit := s.Listeners[AuditListener]
	if audit == "" {
		audit = sim.Accept
	}
	ap.PreStep = !(wrapped && audit == sim.Reject) && x.m.Plugin()
	decision := s.Decision
	if decision == "" {
		decision = sim.Accept
	}
	// Either way the step's decision is the same: an aborting audit
	// fires the signal before or after the plugin, which appends nothing.
	// A dropping audit passes the downstream decision on without messages.
	switch {
	case audit == sim.Reject || ((audit == sim.Accept || audit == sim.Drop) && decision == sim.Reject):
		decision = sim.Reject
	case audit == sim.Abort || decision == sim.Abort:
		decision = sim.Abort
	}
	x.p.Decision = decision
	if decision != sim.Accept {
		// STEP-3: nothing is appended; the claimed messages stay queued.
		x.endTurn(a)
		return
	}
	claimed := a.queue
	a.queue = nil
	// skips: the runtime skips this step if its decision carries no
	// messages (it does not continue after tool results).
	skips := x.m.Setup.EmptySteps == sim.EmptyStepsSkip && !retry && !a.continues
	var msgs []qmsg
	msgs = append(msgs, claimed...)
	auditAt := -1
	addAudit := func() {
		switch audit {
		case sim.Accept:
			msgs = append(msgs, qmsg{text: AuditMessage, notice: false})
			auditAt = len(msgs) - 1
		case sim.Drop:
			msgs, auditAt = nil, -1
		}
	}
	if !wrapped {
		addAudit() // inside the plugin: its message comes first
	}
	if p := a.pending; p != nil {
		// A step the runtime will skip for want of messages is not an
		// accepted step: a notice there would start it (PEND-2).
		empty := skips && len(msgs) == 0 && !x.m.Choices.Assume.NoticeForcesStep
		switch {
		case empty && x.m.Choices.EmptyStep != spec.EmptyStepInject:
			// keep-pending: nothing happens; the selection waits.
		case p.active == a.logged:
			a.pending = nil
			if x.m.Choices.Assume.CancelledNarrated && !p.silent && a.header != nil && *a.header != p.active {
				msgs = append(msgs, qmsg{notice: true})
			}
		default:
			narrate := !p.silent && a.header != nil && *a.header != p.active
			if x.appendPlan(a, p.active) { // STEP-5: a failed append keeps it pending
				a.pending = nil
				switch {
				case narrate && empty: // inject: the notice waits for a later step
					a.queue = append(a.queue, qmsg{notice: true})
				case narrate:
					msgs = append(msgs, qmsg{notice: true})
				}
			}
		}
	}
	if wrapped {
		addAudit() // outside the plugin: its message comes after the notice
	}
	if skips && len(msgs) == 0 {
		// Nothing to send: the runtime skips the step and the turn ends.
		x.endTurn(a)
		return
	}
	if !retry {
		x.host(a, spec.TypeStepStart, nil)
	}
	for i, q := range msgs {
		switch {
		case q.notice:
			x.host(a, spec.TypeUserMessage, nil)
			ap.Notices++
		case i == auditAt:
			x.host(a, spec.TypeUserMessage, sim.MessageData(sim.Message{Role: "user", Text: AuditMessage, Source: sim.Source{Kind: "plugin", Plugin: AuditListener}}))
		default:
			x.host(a, spec.TypeUserMessage, sim.MessageData(sim.UserMessage(q.text)))
		}
	}
	x.request(a)
	a.retry = false
	x.finish(a, s)
}

// request logs the request header (STEP-7: derived after the append).
func (x *pred) request(a *agent) {
	plugin := x.m.Plugin()
	shown := a.logged && plugin
	if x.m.Choices.SectionSource == spec.SectionSourcePending && a.pending != nil {
		shown = a.pending.active
	}
	sections := []sim.Section{sim.BaseSection}
	if shown {
		sections = append(sections, sim.Section{Name: spec.SectionName, Order: spec.SectionOrder, Text: Section})
	}
	tools := x.m.Setup.catalog(plugin)
	reason := "initial"
	if a.shown != nil {
		reason = "resume"
		if *a.shown != shown || a.tools != nil && *a.tools != plugin {
			reason = "change"
		}
	}
	x.host(a, spec.TypeRequestHeader, sim.JSON(map[string]any{
		"header": map[string]any{"system": sections, "tools": tools},
		"reason": reason,
	}))
	logged := a.logged
	a.header = &logged
	a.shown = &shown
	a.tools = &plugin
	x.of(a).Request = &shown
	x.of(a).Tools = []string{}
	for _, t := range tools {
		x.of(a).Tools = append(x.of(a).Tools, t.Name)
	}
}

// HostCall reports whether a step's model calls one of the host's own
// tools of a run with Setup.HostTools.
func HostCall(act sim.Action) bool {
	if act.Step == nil || act.Step.Model == nil {
		return false
	}
	for _, c := range act.Step.Model.Calls {
		if slices.Contains(HostTools, c.Name) || slices.Contains(AssemblyTools, c.Name) {
			return true
		}
	}
	return false
}

// finish sends the request and plays the model output.
func (x *pred) finish(a *agent, s *sim.StepAction) {
	if s.Request == "fail" {
		a.retry = true
		return
	}
	x.host(a, spec.TypeAssistant, nil)
	a.continues = s.Model != nil && len(s.Model.Calls) > 0
	if s.Model != nil {
		for _, c := range s.Model.Calls {
			x.tool(a, c)
			x.host(a, spec.TypeToolCall, nil)
			x.host(a, spec.TypeToolResult, nil)
			if c.Review != nil && c.Review.Fail == sim.ReviewAborted && *x.p.Tool.Asked {
				// The step's signal fired while the review was open: the
				// rest of the batch does not run, the turn ends aborted.
				x.host(a, spec.TypeStepEnd, nil)
				x.endTurn(a)
				return
			}
		}
	}
	x.host(a, spec.TypeStepEnd, nil)
}

// tool is the exit tool (EXIT-2..7).
func (x *pred) tool(a *agent, c sim.ToolCall) {
	f, t := false, true
	out := &trace.ToolExpect{OK: &f, Asked: &f, Approved: &f}
	x.p.Tool = out
	if x.m.Setup.HostTools && c.Name != spec.ExitTool && slices.Contains(append(slices.Clone(HostTools), AssemblyTools...), c.Name) {
		out.OK = &t // a host tool runs, in plan mode or out of it (SVC-3)
		return
	}
	if c.Name != spec.ExitTool || !a.logged || !x.m.Plugin() { // EXIT-2; SVC-2: no tool without the plugin
		return
	}
	var args struct {
		Plan *string `json:"plan"`
	}
	if json.Unmarshal(c.Args, &args) != nil || args.Plan == nil || !spec.PlanOpensWithLevel1Heading(*args.Plan) { // EXIT-3
		return
	}
	if !x.m.Setup.Services.UserQuestions { // EXIT-7
		return
	}
	out.Asked = &t // EXIT-4
	r := sim.Review{}
	if c.Review != nil {
		r = *c.Review
	}
	if r.Reload { // EXIT-7
		x.reload()
		return
	}
	if r.Fail != "" || r.Answer == sim.Dismiss { // EXIT-7: nothing was decided
		return
	}
	approved, feedback := reviewVerdict(r)
	switch {
	case approved: // EXIT-5
		out.OK, out.Approved = &t, &t
		a.pending = &intent{active: false, silent: true}
	default: // EXIT-6: keep planning, carrying any feedback
		out.Feedback = feedback
		// Plan mode stays on: an approved exit still pending (earlier in
		// the batch, or behind a failed append) is withdrawn. A user's
		// queued selection stays pending (PEND-1).
		if a.pending != nil && a.pending.silent && !x.m.Choices.Assume.KeepPlanningKeepsExit {
			a.pending = nil
		}
	}
}

// reviewVerdict reads a review's answer (EXIT-5, EXIT-6): only answers to
// the review question count, and the plan is approved exactly when there
// is one that selects the approving option alone with no free text. The
// feedback is that one answer's free text.
func reviewVerdict(r sim.Review) (approved bool, feedback string) {
	if r.Reply == nil {
		return r.Answer == sim.Approve && r.Feedback == "", r.Feedback
	}
	var own []sim.ReviewAnswer
	for _, a := range r.Reply.Answers {
		if a.AnswersTheReview() {
			own = append(own, a)
		}
	}
	if len(own) != 1 {
		return false, ""
	}
	return slices.Equal(own[0].Selected, []string{sim.Approve}) && own[0].Custom == "", own[0].Custom
}

// planData is the value of plan/mode data, and false when the fold does
// not read it: data with no boolean active, or (choice plan-mode-data=exact)
// data that is not exactly {active: boolean}. Such an event does not change
// the state.
func (x *pred) planData(data json.RawMessage) (active, ok bool) {
	return planValue(data, x.m.Choices.PlanModeData == spec.PlanModeDataExact)
}

// planValue reads plan/mode data: its boolean active, and false when it
// has none or (exact) has other fields besides.
func planValue(data json.RawMessage, exact bool) (active, ok bool) {
	var d map[string]json.RawMessage
	if json.Unmarshal(data, &d) != nil || d == nil || exact && len(d) != 1 {
		return false, false
	}
	switch string(d["active"]) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// outside is an outside writer's append (LOG-3): the state in force is the
// fold of the log, so a plan/mode with a value changes it at once; one
// without is in the log but changes nothing (LOG-1).
func (x *pred) outside(a *agent, typ string, data json.RawMessage) {
	me := mevent{typ: typ}
	ap := x.of(a)
	if typ == spec.TypePlanMode {
		v, ok := x.planData(data)
		me.isPlan, me.plan = ok, v
		if ok {
			a.logged = v
		}
		written, _ := planValue(data, false) // the value as written, whatever the fold reads
		ap.Plan = append(ap.Plan, written)   // data with no boolean active reads as false; appended checks it as written
	}
	a.log = append(a.log, me)
	ap.Events = append(ap.Events, trace.EventExpect{Type: typ, Data: data})
}

// open starts an agent from a given log: its state is the log's fold
// (LOG-3).
func (x *pred) open(o *sim.OpenAction) {
	a := &agent{name: o.Agent}
	x.m.agents = append(x.m.agents, a)
	for _, e := range o.Log {
		me := mevent{typ: e.Type}
		switch e.Type {
		case spec.TypePlanMode:
			v, ok := x.planData(e.Data)
			me.isPlan, me.plan = ok, v
			if ok {
				a.logged = v
			}
		case spec.TypeTurnStart:
			a.open = true
		case spec.TypeTurnEnd:
			a.open = false
		}
		a.log = append(a.log, me)
	}
	x.of(a)
	if a.open {
		x.endTurn(a) // a turn the log leaves open ends interrupted
	}
}

// fold is foldPlanMode over an agent's log or given events (LOG-2).
func (x *pred) fold(f *sim.FoldAction) {
	var events []mevent
	if f.Agent != "" {
		events = x.m.agent(f.Agent).log
	} else {
		for _, e := range f.Events {
			me := mevent{typ: e.Type}
			if e.Type == spec.TypePlanMode {
				me.plan, me.isPlan = x.planData(e.Data)
			}
			events = append(events, me)
		}
	}
	end := len(events)
	if f.End != nil {
		end = *f.End
		if end < 0 || end > len(events) {
			switch x.m.Choices.FoldEnd {
			case spec.FoldEndError:
				x.p.FoldErr = true
				return
			case spec.FoldEndSlice: // events.slice(0, end): a negative end counts from the end
				if end < 0 {
					end = len(events) + end
				}
			}
			end = min(max(end, 0), len(events))
		}
	}
	v := false
	for _, e := range events[:end] {
		if e.isPlan {
			v = e.plan
		}
	}
	x.p.Fold = &v
}
