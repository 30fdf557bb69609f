package sim

import (
	"encoding/json"
	"errors"

	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/spec"
)

// Runtime options that pick between the specification's runtime and the
// shipped dsh loop where the two differ.
const (
	// RetriesPreStep: a request-recovery retry is re-proposed through
	// agent/pre-step (the specification, STEP-2).
	RetriesPreStep = "pre-step"
	// RetriesSameStep: a retry repeats the request inside the same step with
	// no new pre-step and no new header (the shipped dsh loop).
	RetriesSameStep = "same-step"
	// AssemblyAfter: the request is derived after the pre-step accepts
	// (the specification, STEP-7).
	AssemblyAfter = "after-pre-step"
	// AssemblyBefore: the system prompt is assembled before the pre-step is
	// dispatched (the shipped dsh loop).
	AssemblyBefore = "before-pre-step"
	// EmptyStepsRun: an accepted step runs whatever its decision carries.
	EmptyStepsRun = "run"
	// EmptyStepsSkip: an accepted step whose decision carries no messages,
	// and that does not continue after tool results, is skipped: no step
	// starts and the turn ends (the shipped dsh loop).
	EmptyStepsSkip = "skip"
	// HeadersEvery: the runtime logs a request/header for each request it
	// sends (SPEC.md's glossary: the request header; STEP-6 reads it).
	HeadersEvery = "every"
	// HeadersOnChange: the runtime logs a request/header only when it
	// differs from the last one logged (the shipped dsh loop).
	HeadersOnChange = "on-change"
)

// Options configure a runtime.
type Options struct {
	// NoPlugin runs the session without the plan-mode package (SVC-2).
	NoPlugin bool
	Config   json.RawMessage
	Services Services
	Retries  string
	Assembly string
	// KeepInboxAtLoad keeps the host's inbox (the messages queued for an
	// agent's next step, a between-turns selection's notice among them)
	// across a load after an unload. Where a notice waits is a silent
	// point (docs/spec-choices.md); the default empties the inbox there.
	KeepInboxAtLoad bool
	// DropClaimedAtReject drops the messages a rejected or aborted step
	// claimed from the inbox (a between-turns selection's notice among
	// them), as the shipped dsh loop does; the default puts them back for
	// a later step. The same silent point: where a recorded notice waits.
	DropClaimedAtReject bool
	// Listeners are the other agent/pre-step listeners of the runtime.
	Listeners []ListenerSpec
	// Agents are created at start, in order.
	Agents []string
	// Logs optionally gives an agent's durable log at start (a resumed or
	// recorded session), by agent name.
	Logs map[string][]Event
	// HostTools are tools of the host's own the model may call, registered
	// with the host's tools service before the plugin loads, in order; they
	// succeed with the result "ok" unless the plugin's gate denies them.
	HostTools []string
	// AssemblyTools are host tools that another prompt-assembly listener,
	// running after plan mode's, adds to every request, in order.
	AssemblyTools []string
	// EmptySteps is what the runtime does with an accepted step whose
	// decision carries no messages and that does not continue after tool
	// results: EmptyStepsRun (default) sends its request, EmptyStepsSkip
	// skips it and ends the turn (the shipped dsh loop).
	EmptySteps string
	// Headers is when the runtime logs a request's header: HeadersEvery
	// (default) or HeadersOnChange.
	Headers string
	// NoStepEvents leaves step/start and step/end out of the logs: SPEC.md
	// names neither, so a runtime may log none (its steps are delimited by
	// their requests).
	NoStepEvents bool
	// Hooks run host code inside steps (nil: none).
	Hooks *Hooks
}

// ListenerSpec is another agent/pre-step listener, registered before or
// after the plugin, with a default behaviour that steps may override.
type ListenerSpec struct {
	Name       string   `json:"name"`
	Registered string   `json:"registered"` // "before" or "after"
	Behaviour  string   `json:"behaviour,omitempty"`
	Messages   []string `json:"messages,omitempty"` // added on accept
}

// BaseSection is the runtime's own system-prompt section, so requests show
// where the plugin's section sits in the order.
var BaseSection = Section{Name: "runtime:base", Order: 0, Text: "You are a coding agent working in the user's repository."}

// Agent statuses.
const (
	StatusIdle    = "idle"
	StatusRunning = "running"
)

type agentState struct {
	name string
	// self is []string{name}, the agents an action on this one touches.
	self     []string
	log      *Log
	seen     int // events the implementation has seen
	status   string
	turn     int
	turnOpen bool
	step     int
	// awaitingRetry: the step's request failed and waits for a retry.
	awaitingRetry bool
	retries       int
	// assembled: a request was derived; lastAssemblyJSON is its
	// assembly's canonical JSON, to compare the next request's with.
	assembled        bool
	lastAssemblyJSON json.RawMessage
	// assemblies are the agent's last two assemblies, the last used
	// first.
	assemblies [2]assembly
	// lastRequest: the step's request as sent, which a same-step retry
	// sends again.
	lastRequest Request
	// continues: the turn's last step ended with tool calls, so the next
	// step continues after their results.
	continues bool
	queue     []Message
	commands  int
}

// Runtime is the simulated agent runtime around one implementation. It owns
// the durable session logs; the implementation is reached only through the
// Port. A Runtime is deterministic: the same options and actions give the
// same results byte for byte.
type Runtime struct {
	port     Port
	opts     Options
	identity Identity
	// unloaded: the plugin was unloaded and not loaded again.
	unloaded bool
	// reregistered: the plugin registered its listener again in this
	// process (a reload, or a load after an unload), after the host's
	// listeners registered after its first load: a listener it does not
	// prepend now comes after every host listener. A restart registers
	// everything again in the first order.
	reregistered bool
	loaded       bool
	reg          LoadReply
	agents       map[string]*agentState
	found        *agentState // the agent find found last
	order        []string
	fail         int // armed append faults
	links        []chainLink
	// box holds the result the current Do records (nil outside Do);
	// boxes are the boxes of each nesting level of Do, depth the current
	// level.
	box   *resultBox
	boxes []*resultBox
	depth int
	// messages are the last messages logged with their data, which
	// logMessage copies for the same message; nextMessage is the entry
	// the next one replaces.
	messages    [4]loggedMessage
	nextMessage int
	// canonical are the last data an implementation appended with their
	// canonical bytes (appendData); nextCanonical is the entry the next
	// one replaces.
	canonical     [4]canonicalData
	nextCanonical int
}

// InputError is a problem with the script itself (an unknown agent, a step
// with no open turn). Callers report it as bad input.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// ErrUnsupported is what a port's error matches (errors.Is) when the
// implementation says it does not support a request, such as a capability
// it lacks. Suites report the check as skipped, naming the request.
var ErrUnsupported = errors.New("unsupported by the implementation")

// ImplError is an implementation that could not be run: the port failed.
type ImplError struct {
	Op  string
	Err error
}

func (e *ImplError) Error() string {
	return fmt.Sprintf("implementation failed during %s: %v", e.Op, e.Err)
}
func (e *ImplError) Unwrap() error { return e.Err }

func inputf(format string, args ...any) error { return &InputError{Msg: fmt.Sprintf(format, args...)} }

// New starts a runtime around port (nil with opts.NoPlugin) and loads the
// plugin with opts.Config. The load's result is returned as the first
// timeline entry.
func New(port Port, opts Options) (*Runtime, Result, error) {
	if opts.Retries == "" {
		opts.Retries = RetriesPreStep
	}
	if opts.Assembly == "" {
		opts.Assembly = AssemblyAfter
	}
	if opts.EmptySteps == "" {
		opts.EmptySteps = EmptyStepsRun
	}
	if opts.EmptySteps != EmptyStepsRun && opts.EmptySteps != EmptyStepsSkip {
		return nil, Result{}, inputf("empty steps must be %s or %s, not %q", EmptyStepsRun, EmptyStepsSkip, opts.EmptySteps)
	}
	if opts.Headers == "" {
		opts.Headers = HeadersEvery
	}
	if opts.Headers != HeadersEvery && opts.Headers != HeadersOnChange {
		return nil, Result{}, inputf("headers must be %s or %s, not %q", HeadersEvery, HeadersOnChange, opts.Headers)
	}
	r := &Runtime{port: port, opts: opts, agents: map[string]*agentState{}}
	if opts.NoPlugin {
		r.port = nil
	}
	for _, l := range opts.Listeners {
		if l.Registered != "before" && l.Registered != "after" {
			return nil, Result{}, inputf("listener %q: registered must be before or after, not %q", l.Name, l.Registered)
		}
	}
	res := Result{Action: Action{Load: &LoadAction{Config: opts.Config, Services: &opts.Services}}}
	if r.port != nil {
		id, err := Start(r.port)
		if err != nil {
			return nil, res, &ImplError{Op: "start", Err: err}
		}
		r.identity = id
		if err := r.load(&res); err != nil {
			return nil, res, err
		}
	}
	for _, name := range opts.Agents {
		if err := r.addAgent(name, opts.Logs[name]); err != nil {
			return nil, res, err
		}
	}
	return r, res, nil
}

// Identity is who the implementation said it is.
func (r *Runtime) Identity() Identity { return r.identity }

// Registration is what the plugin registered at its last load.
func (r *Runtime) Registration() LoadReply { return r.reg }

// Agents lists the agents in creation order.
func (r *Runtime) Agents() []string { return slices.Clone(r.order) }

// Log returns an agent's durable log (nil for an unknown agent).
func (r *Runtime) Log(agent string) []Event {
	if a := r.agents[agent]; a != nil {
		return a.log.Events()
	}
	return nil
}

// Status is an agent's status and whether its log has an open turn.
func (r *Runtime) Status(agent string) (status string, turnOpen bool) {
	if a := r.agents[agent]; a != nil {
		return a.status, a.turnOpen
	}
	return "", false
}

// AwaitingRetry reports whether the agent's last step request failed and
// waits for a retry.
func (r *Runtime) AwaitingRetry(agent string) bool {
	a := r.find(agent)
	return a != nil && a.awaitingRetry
}

// Inbox is the messages queued for the agent's next step (nil for an
// unknown agent).
func (r *Runtime) Inbox(agent string) []Message {
	if a, ok := r.agents[agent]; ok {
		return slices.Clone(a.queue)
	}
	return nil
}

// Requeue puts messages back into the agent's inbox ahead of what it
// holds: a loop that restores its inbox after a restart.
func (r *Runtime) Requeue(agent string, ms []Message) error {
	a, err := r.agent(agent)
	if err != nil {
		return err
	}
	a.queue = append(slices.Clone(ms), a.queue...)
	return nil
}

// WithdrawNotices takes the plan-mode notices out of every agent's inbox:
// a loop that lets nothing of plan mode reach the model once plan mode is
// unloaded (a reading of where a recorded notice waits).
func (r *Runtime) WithdrawNotices() {
	for _, a := range r.agents {
		a.queue = slices.DeleteFunc(a.queue, Message.IsPlanNotice)
	}
}

// Plugin reports whether a plan-mode plugin is loaded.
func (r *Runtime) Plugin() bool { return r.port != nil && r.loaded }

// state is the runtime as the action table's preconditions read it
// (State): Runtime's own Open opens an agent.
type state struct{ r *Runtime }

func (s state) Agents() []string { return s.r.order }
func (s state) Open(agent string) bool {
	a := s.r.find(agent)
	return a != nil && a.turnOpen
}
func (s state) AwaitingRetry(agent string) bool { return s.r.AwaitingRetry(agent) }
func (s state) Plugin() bool                    { return s.r.Plugin() }

// Close stops the implementation.
func (r *Runtime) Close() error {
	if r.port == nil {
		return nil
	}
	return r.port.Stop()
}

func (r *Runtime) load(res *Result) error {
	cfg := r.opts.Config
	if len(cfg) == 0 {
		cfg = json.RawMessage("{}")
	}
	reply, err := r.port.Load(LoadRequest{Config: cfg, Services: r.opts.Services, HostTools: toolList(r.opts.HostTools)})
	if err != nil {
		return &ImplError{Op: "load", Err: err}
	}
	r.reg = reply
	r.loaded = reply.Error == ""
	res.Error = reply.Error
	res.Load = &reply
	return nil
}

func (r *Runtime) addAgent(name string, events []Event) error {
	if name == "" {
		return inputf("an agent needs a name")
	}
	if _, dup := r.agents[name]; dup {
		return inputf("agent %q already exists", name)
	}
	a := &agentState{name: name, self: []string{name}, log: NewLog(events), status: StatusIdle}
	r.agents[name] = a
	r.order = append(r.order, name)
	if r.Plugin() {
		if err := r.open(a); err != nil {
			return err
		}
	}
	a.seen = a.log.Len()
	a.recover()
	return nil
}

// recover derives the turn position from the log alone.
func (a *agentState) recover() {
	a.turnOpen, a.turn, a.step = false, 0, 0
	for i := range a.log.Len() {
		switch a.log.Type(i) {
		case spec.TypeTurnStart:
			a.turnOpen = true
			a.turn++
			a.step = 0
		case spec.TypeTurnEnd:
			a.turnOpen = false
		case spec.TypeStepStart:
			a.step++
		}
	}
}

// find is the named agent (nil: none). Actions name the same agent again
// and again, so the last one found is tried first (agents are never
// removed).
func (r *Runtime) find(name string) *agentState {
	if a := r.found; a != nil && a.name == name {
		return a
	}
	a := r.agents[name]
	if a != nil {
		r.found = a
	}
	return a
}

func (r *Runtime) agent(name string) (*agentState, error) {
	a := r.find(name)
	if a == nil {
		return nil, inputf("unknown agent %q (agents: %s)", name, strings.Join(r.order, ", "))
	}
	return a, nil
}

// call builds the shared part of an agent-scoped request, syncing the
// host's events and arming faults.
func (r *Runtime) call(a *agentState) Call {
	// Since is capped and logged events never change, so the port may
	// keep the slice.
	c := Call{Agent: a.name, Sync: a.log.Since(a.seen), FailAppends: r.fail}
	a.seen = a.log.Len()
	return c
}

// hostAppend appends a runtime event.
func (r *Runtime) hostAppend(res *Result, a *agentState, typ string, data any) Event {
	var e Event
	switch d := data.(type) {
	case json.RawMessage:
		e = a.log.Append(typ, d)
	default:
		enc := getEncoder(d) // Append makes it canonical, in the log's arena
		e = a.log.Append(typ, enc.bytes())
		enc.put()
	}
	r.record(res, a, e, false)
	return e
}

// apply records the implementation's effects: appends go to the log in
// order (the implementation already holds them), steer and inject queue
// messages. It returns whether a steer asked to wake the agent.
func (r *Runtime) apply(res *Result, a *agentState, effects []Effect) (wake bool) {
	if res.Effects == nil && len(effects) > 0 {
		if b := r.boxOf(res); b != nil && b.effects != nil {
			res.Effects = b.effects
		} else {
			res.Effects = make([]AgentEffect, 0, len(effects))
		}
	}
	for _, ef := range effects {
		res.Effects = append(res.Effects, AgentEffect{Agent: a.name, Effect: ef})
		switch ef.Kind {
		case EffectAppend:
			if r.fail > 0 {
				r.fail--
			}
			if ef.Failed {
				continue
			}
			r.record(res, a, r.appendData(a, ef.Type, ef.Data), true)
		case EffectSteer:
			if ef.Message != nil {
				a.queue = append(a.queue, *ef.Message)
				wake = true
			}
		case EffectInject:
			if ef.Message != nil {
				a.queue = append(a.queue, *ef.Message)
			}
		}
	}
	a.seen = a.log.Len()
	return wake
}

// appendData appends an implementation's event to the agent's log. The
// last few data made canonical are kept with their canonical bytes (a
// view of the logged data): the same data again (a plan/mode change, a
// notice) is copied, not parsed and made canonical again.
func (r *Runtime) appendData(a *agentState, typ string, data json.RawMessage) Event {
	for i := range r.canonical {
		if c := &r.canonical[i]; c.out != nil && string(c.in) == string(data) {
			return a.log.push(typ, append(a.log.buf(), c.out...))
		}
	}
	e := a.log.Append(typ, data)
	if len(data) <= maxCanonicalKept {
		r.canonical[r.nextCanonical] = canonicalData{in: append([]byte{}, data...), out: e.Data}
		r.nextCanonical = (r.nextCanonical + 1) % len(r.canonical)
	}
	return e
}

// canonicalData is data an implementation appended (a copy) and its
// canonical bytes; maxCanonicalKept bounds the data kept so.
type canonicalData struct{ in, out []byte }

const maxCanonicalKept = 256

// Do applies one action and returns what happened. An *InputError means
// the action does not fit the runtime's state; an *ImplError means the
// implementation could not be run.
func (r *Runtime) Do(act Action) (Result, error) {
	// The result is recorded in the box of this nesting level, reused:
	// hooks may call Do inside a step, and the outer action's box comes
	// back after.
	if r.depth == len(r.boxes) {
		r.boxes = append(r.boxes, new(resultBox))
	}
	box := r.boxes[r.depth]
	box.reset(&act, act.Step != nil || act.Retry != nil)
	outer := r.box
	r.box = box
	r.depth++
	defer func() { r.box = outer; r.depth-- }()
	res := &box.res
	k := kindOf(&res.Action)
	// The action table's precondition is the one rule: an action that is
	// not ready is refused before the runtime does anything.
	if why := refusal(k, &res.Action, state{r}); why != "" {
		return *res, inputf("%s", why)
	}
	err := k.apply(r, res, &res.Action)
	if err == nil {
		err = r.observe(res, k, &res.Action)
	}
	return *res, err
}

// observe records get() after the action for the agents it touched.
func (r *Runtime) observe(res *Result, k ActionKind, act *Action) error {
	if !r.Plugin() {
		return nil
	}
	names := k.touches(r, act)
	if len(names) > 0 && res.After == nil {
		if b := r.boxOf(res); b != nil && b.after != nil {
			res.After = b.after
		} else {
			res.After = make([]AgentState, 0, len(names))
		}
	}
	for _, n := range names {
		a := r.find(n)
		if a == nil {
			continue
		}
		g, err := r.port.Get(r.call(a))
		if err != nil {
			return &ImplError{Op: "get " + n, Err: err}
		}
		res.After = append(res.After, AgentState{Agent: n, Get: g})
	}
	return nil
}

func (r *Runtime) doLoad(res *Result, l *LoadAction) error {
	if r.port == nil {
		return inputf("load needs a plan-mode implementation (this session runs without the plugin)")
	}
	if len(l.Config) > 0 {
		r.opts.Config = l.Config
	}
	if l.Services != nil {
		r.opts.Services = *l.Services
	}
	if err := r.stopForRestart(); err != nil {
		return &ImplError{Op: "stop", Err: err}
	}
	r.unloaded = false
	if err := r.restartWith(res, r.opts.KeepInboxAtLoad); err != nil {
		return err
	}
	r.reregistered = true
	return nil
}

// stopForRestart stops the implementation before an immediate Start.
func (r *Runtime) stopForRestart() error {
	if rs, ok := r.port.(Restarter); ok {
		return rs.StopForRestart()
	}
	return r.port.Stop()
}

// restartWith starts the implementation again and loads the plugin (unless
// unloaded); keepInbox keeps the agents' queued messages.
func (r *Runtime) restartWith(res *Result, keepInbox bool) error {
	id, err := Start(r.port)
	if err != nil {
		return &ImplError{Op: "start", Err: err}
	}
	r.identity = id
	if r.unloaded {
		// The host no longer composes the plugin: nothing is loaded or opened.
		r.reg, r.loaded = LoadReply{}, false
		for _, n := range r.order {
			if !keepInbox {
				r.agents[n].queue = nil
			}
			r.agents[n].seen = r.agents[n].log.Len()
		}
		return nil
	}
	if err := r.load(res); err != nil {
		return err
	}
	for _, n := range r.order {
		a := r.agents[n]
		if !keepInbox {
			a.queue = nil // process-local
		}
		if r.loaded {
			if err := r.open(a); err != nil {
				return err
			}
		}
		a.seen = a.log.Len()
	}
	return nil
}

// open hands the plugin an agent's whole log (Port.Open); the agent has
// then seen all of it.
func (r *Runtime) open(a *agentState) error {
	// A copy: the log's own Events would keep a second form of a long
	// log alive.
	if err := r.port.Open(OpenRequest{Agent: a.name, Events: a.log.Copy()}); err != nil {
		return &ImplError{Op: "open " + a.name, Err: err}
	}
	a.seen = a.log.Len()
	return nil
}

func (r *Runtime) doPrompt(res *Result, p *TextAction) error {
	a, err := r.agent(p.Agent)
	if err != nil {
		return err
	}
	a.queue = append(a.queue, UserMessage(p.Text))
	r.admit(res, a)
	return nil
}

// admit starts a turn: prompt admission appends turn/start at once (STEP-4).
func (r *Runtime) admit(res *Result, a *agentState) {
	a.status = StatusRunning
	a.turn++
	a.step = 0
	a.turnOpen = true
	a.awaitingRetry = false
	a.continues = false
	r.logTurnStart(res, a)
}

func (r *Runtime) doQueue(res *Result, t *TextAction, wake bool) error {
	a, err := r.agent(t.Agent)
	if err != nil {
		return err
	}
	a.queue = append(a.queue, UserMessage(t.Text))
	if wake && !a.turnOpen {
		r.admit(res, a)
	}
	return nil
}

func (r *Runtime) doSet(res *Result, s *SetAction) error {
	a, err := r.agent(s.Agent)
	if err != nil {
		return err
	}
	if !r.Plugin() {
		return inputf("set needs the plan-mode plugin, which this session does not have")
	}
	reply, err := r.port.Set(SetRequest{Call: r.call(a), Active: s.Active})
	if err != nil {
		return &ImplError{Op: "set", Err: err}
	}
	res.Outcome = reply.Outcome
	res.Error = reply.Error
	if r.apply(res, a, reply.Effects) && !a.turnOpen {
		r.admit(res, a)
	}
	return nil
}

func (r *Runtime) doCommand(res *Result, c *CommandAction) error {
	a, err := r.agent(c.Agent)
	if err != nil {
		return err
	}
	name, args := spec.SplitCommand(c.Input)
	a.commands++
	id := fmt.Sprintf("cmd-%s-%d", a.name, a.commands)
	r.hostAppend(res, a, spec.TypeCommandRun, map[string]any{"commandId": id, "name": name, "args": args, "source": map[string]any{"kind": "user"}})
	registered := r.Plugin() && slices.Contains(r.reg.Commands, name)
	var reply CommandReply
	wake := false
	if !registered {
		reply = CommandReply{Kind: "error", Text: fmt.Sprintf("unknown command /%s", name)}
	} else {
		reply, err = r.port.Command(CommandRequest{Call: r.call(a), Name: name, Input: args})
		if err != nil {
			return &ImplError{Op: "command", Err: err}
		}
		if err := r.checkAnnounced(reply); err != nil {
			return &ImplError{Op: "command", Err: err}
		}
		wake = r.apply(res, a, reply.Effects)
	}
	r.hostAppend(res, a, spec.TypeCommandDone, map[string]any{"commandId": id, "kind": reply.Kind, "text": reply.Text})
	res.Command = &CommandOutcome{Registered: registered, Kind: reply.Kind, Text: reply.Text,
		Outcome: reply.Outcome, Reported: registered && r.identity.CommandOutcomes}
	if wake && !a.turnOpen {
		r.admit(res, a)
	}
	return nil
}

// checkAnnounced holds a command reply to the implementation's declaration:
// one that reports announced outcomes gives a known outcome with every
// success and none with an error.
func (r *Runtime) checkAnnounced(reply CommandReply) error {
	if reply.Outcome != "" && !slices.Contains(spec.Outcomes, reply.Outcome) {
		return fmt.Errorf("the command reply announces outcome %q, which is none of %s", reply.Outcome, strings.Join(spec.Outcomes, ", "))
	}
	if !r.identity.CommandOutcomes {
		return nil
	}
	if reply.Kind == "success" && reply.Outcome == "" {
		return errors.New("the command succeeded without saying which outcome it announces, though the implementation declares command outcomes")
	}
	if reply.Kind != "success" && reply.Outcome != "" {
		return fmt.Errorf("the command failed (%s) yet announces outcome %q", reply.Kind, reply.Outcome)
	}
	return nil
}

func (r *Runtime) doEndTurn(res *Result, e *EndTurnAction) error {
	a, err := r.agent(e.Agent)
	if err != nil {
		return err
	}
	reason := e.Reason
	if reason == "" {
		reason = "completed"
	}
	r.endTurn(res, a, reason)
	return nil
}

// endTurn appends turn/end; the agent stays running while it checkpoints.
func (r *Runtime) endTurn(res *Result, a *agentState, reason string) {
	if a.awaitingRetry {
		r.logStep(res, a, spec.TypeStepEnd)
	}
	a.awaitingRetry = false
	a.retries = 0
	a.turnOpen = false
	r.logTurnEnd(res, a, reason)
}

func (r *Runtime) doIdle(i *AgentAction) error {
	a, err := r.agent(i.Agent)
	if err != nil {
		return err
	}
	a.status = StatusIdle
	return nil
}

func (r *Runtime) doRestart(res *Result) error {
	if r.port != nil {
		if err := r.stopForRestart(); err != nil {
			return &ImplError{Op: "stop", Err: err}
		}
	}
	// The process died: an interrupted turn is closed on resume and every
	// agent comes back idle.
	for _, n := range r.order {
		a := r.agents[n]
		if a.turnOpen {
			r.endTurn(res, a, "interrupted")
		}
		a.status = StatusIdle
		a.queue = nil
	}
	r.fail = 0
	r.reregistered = false
	if r.port == nil {
		return nil
	}
	return r.restartWith(res, false)
}

func (r *Runtime) doReload(res *Result) error {
	if r.port == nil {
		return inputf("reload needs the plan-mode plugin, which this session does not have")
	}
	reply, err := r.port.Reload()
	if err != nil {
		return &ImplError{Op: "reload", Err: err}
	}
	was := r.loaded
	r.reg = reply
	r.loaded = reply.Error == ""
	r.reregistered = true
	res.Load = &reply
	res.Error = reply.Error
	if !was && r.loaded {
		// The plugin was not loaded (its load failed), so it never opened
		// the agents: it opens them now, as after a load.
		for _, n := range r.order {
			if err := r.open(r.agents[n]); err != nil {
				return err
			}
		}
	}
	return nil
}

// doUnload disposes the plugin without loading it again. What the
// implementation reports still registered afterwards stays in force (a
// listener that still runs, a tool still offered, a command still
// dispatched), so checks see a plugin that does not let go; a right one
// reports nothing and the session runs as without the package (SVC-2).
// Until a load, restarts bring the implementation up without the plugin.
func (r *Runtime) doUnload(res *Result) error {
	reply, err := r.port.Unload()
	if err != nil {
		return &ImplError{Op: "unload", Err: err}
	}
	r.reg = reply
	r.loaded = reply.Listener != "" || len(reply.Tools) > 0 || len(reply.Sections) > 0 || len(reply.Commands) > 0
	r.unloaded = true
	res.Load = &reply
	return nil
}

func (r *Runtime) doFork(res *Result, f *ForkAction) error {
	a, err := r.agent(f.Agent)
	if err != nil {
		return err
	}
	if err := r.addAgent(f.As, a.log.Copy()); err != nil {
		return err
	}
	child := r.agents[f.As]
	if child.turnOpen {
		r.endTurn(res, child, "interrupted")
	}
	return nil
}

func (r *Runtime) doCompact(res *Result, c *AgentAction) error {
	a, err := r.agent(c.Agent)
	if err != nil {
		return err
	}
	through := a.log.Len() - 1
	r.hostAppend(res, a, spec.TypeCompactStart, map[string]any{"reason": "manual"})
	r.hostAppend(res, a, spec.TypeCompactSummary, map[string]any{
		"summary": fmt.Sprintf("Summary of the conversation through seq %d.", through),
		"through": through,
	})
	r.hostAppend(res, a, spec.TypeCompactEnd, map[string]any{"through": through})
	return nil
}

func (r *Runtime) doFold(res *Result, f *FoldAction) error {
	if r.port == nil {
		return inputf("fold needs the plan-mode implementation")
	}
	var events []Event
	if f.Agent != "" {
		a, err := r.agent(f.Agent)
		if err != nil {
			return err
		}
		events = a.log.Events()
	} else {
		l := &Log{}
		for _, e := range f.Events {
			data := e.Data
			if len(data) == 0 {
				data = json.RawMessage("{}")
			}
			l.Append(e.Type, data)
		}
		events = l.Events()
	}
	reply, err := r.port.Fold(FoldRequest{Events: events, End: f.End})
	if err != nil {
		return &ImplError{Op: "fold", Err: err}
	}
	if reply.Error != "" {
		res.Error = reply.Error
	} else {
		v := reply.Active
		res.Fold = &v
	}
	return nil
}
