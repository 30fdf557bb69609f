package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// BuiltinVersion is the version of the built-in runtime.
const BuiltinVersion = "1.0.0"

// MaxTurnSteps bounds the steps of one turn of the built-in runtime. A
// script whose responses do not let a turn end within it is an input
// error (plankit sim checks it before it runs a trace); past that, only
// a runtime bug reaches it.
const MaxTurnSteps = 256

// Builtin is plankit's own runtime behind the runtime port: the simulator
// of package sim, which follows the specification's loop, around a plan-mode
// implementation reached through a sim.Port (the reference, one of its
// mutants, a plugin adapter). It plays a turn script step by step: each
// response is one step (a retry of a failed request consumes the next), a
// response with tool calls asks for a continuation step, a text-only
// response ends the turn. Host actions of a pre-step listener run just
// before the plan-mode listener is dispatched, since the simulator computes
// the downstream listeners' decision first (they are side-effect free but
// for the abort signal).
type Builtin struct {
	// listening is the code of the host listeners of the dispatch being
	// played, run when the dispatch reaches them (b.listener).
	listening map[string][]HostAction
	port      sim.Port
	retry     string
	mutants   mutantSet
	id        sim.Identity
	rt        *sim.Runtime
	// pending observation of the turn being played.
	obs     *Observation
	script  *Script
	resp    int // responses consumed in this turn
	current *Response
	// resending: the step being played is a same-step retry, which sends
	// the step's request again.
	resending bool
	err       error
	// transcripts are the messages derived so far from each agent's log
	// (which only grows while b.rt lives): each request carries a prefix
	// of them, so a run holds every message once however many requests
	// resend it.
	transcripts map[string]*derived
	// Assembly is when the loop assembles a step's system prompt:
	// sim.AssemblyAfter (the specification; "" is it) or sim.AssemblyBefore
	// (the shipped dsh loop, before agent/pre-step). Set it before Load.
	Assembly string
	// variant is how this built-in runtime departs from plankit's own
	// loop where SPEC.md is silent (BuiltinVariants); loads counts the
	// loads of plan mode since the runtime started (Load, Reload).
	variant string
	loads   int
	// Headers is when the loop logs a request's header: sim.HeadersEvery
	// (the specification; "" is it) or sim.HeadersOnChange (the shipped
	// dsh loop). Plan mode reads the last logged header (STEP-6), so this
	// is what the loop does, not only how it is compared. Set it before
	// Load.
	Headers string
	// KeepInboxAtRestart and KeepInboxAtLoad keep the loop's inbox (an
	// idle selection's notice among its messages) across a restart (Stop,
	// then Start, Load and Open) and a load after an unload. Where a
	// notice waits is a silent point (docs/spec-choices.md). Set them
	// before Load.
	KeepInboxAtRestart, KeepInboxAtLoad bool
	// DropClaimedAtReject drops the messages a rejected or aborted step
	// claimed (an idle selection's notice among them), as the shipped dsh
	// loop does, instead of keeping them for a later step: the same silent
	// point. Set it before Load.
	DropClaimedAtReject bool
	// WithdrawNoticesAtUnload takes plan mode's notices out of the inbox
	// when plan mode is unloaded, so none reaches a request while it is
	// unloaded, instead of delivering one it recorded before: the same
	// silent point.
	WithdrawNoticesAtUnload bool
	// SteerContinues makes a turn whose model ended it (a response with no
	// tool calls) go on to another step when a message was steered during
	// that response (a /plan <message> host code typed), instead of
	// leaving the message for a later turn: what a steered message does to
	// a turn about to end is the loop's (SPEC.md: steer "wakes the
	// agent"), a reading the comparisons accept either way. Set it before
	// Load.
	SteerContinues bool
	// steered: a message was steered since the current step claimed the
	// queue (during its response, or a failed one a same-step retry sends
	// again).
	steered bool
	// FaultsFailOutsideAppends makes an armed append fault (Fault) fail an
	// outside writer's plan/mode append too (Append), nothing appended,
	// instead of only plan mode's own: the runtime protocol's fault fails
	// "the next n attempts to append a plan/mode event to this agent's
	// log", and a runtime may read it either way (choice fault-scope;
	// Start sets it when the port declares fault-scope=every-append).
	FaultsFailOutsideAppends bool
	// inbox is what Stop kept of the inbox, by agent, for Open.
	inbox map[string][]sim.Message
}

// derived is the transcript derived from the first events of a log.
type derived struct {
	events   int
	messages []Message
}

// Variants of the built-in runtime: faithful runtimes that differ from
// plankit's loop only where SPEC.md says nothing, so every check must pass
// them. Tests run the runtime-level suite against each.
const (
	// VariantNoStepEvents logs no step/start or step/end (SPEC.md names
	// neither: steps are delimited by their requests).
	VariantNoStepEvents = "no-step-events"
	// VariantExitToolMovesOnReload offers exit_plan_mode first in the
	// catalog after every second load of plan mode (a reload, or a load
	// after an unload): EXIT-1 fixes the catalog across a change of plan
	// state, not across the plugin registering its tool anew.
	VariantExitToolMovesOnReload = "exit-tool-moves-on-reload"
)

// BuiltinVariants lists the variants of the built-in runtime.
var BuiltinVariants = []string{VariantNoStepEvents, VariantExitToolMovesOnReload}

// NewBuiltinVariant is NewBuiltin with a variant (BuiltinVariants; ""
// for none).
func NewBuiltinVariant(port sim.Port, retry, variant string) (*Builtin, error) {
	if variant != "" && !slices.Contains(BuiltinVariants, variant) {
		return nil, fmt.Errorf("unknown built-in runtime variant %q (known: %s)", variant, strings.Join(BuiltinVariants, ", "))
	}
	b, err := NewBuiltin(port, retry)
	if err != nil {
		return nil, err
	}
	b.variant = variant
	return b, nil
}

var _ Runtime = (*Builtin)(nil)

// NewBuiltin returns the built-in runtime around port. retry picks how
// its request recovery behaves: RetryPreStep (the specification),
// RetrySameStep (the shipped dsh loop) or RetryNone; "" is RetryPreStep.
func NewBuiltin(port sim.Port, retry string) (*Builtin, error) {
	return NewBuiltinWith(port, BuiltinOptions{Retry: retry})
}

// BuiltinOptions configure the built-in runtime.
type BuiltinOptions struct {
	// Retry is how its request recovery behaves (see NewBuiltin).
	Retry string
	// Mutants are deviations of its own loop (Mutants lists them).
	Mutants []Mutant
}

// NewBuiltinWith returns the built-in runtime around port with o.
func NewBuiltinWith(port sim.Port, o BuiltinOptions) (*Builtin, error) {
	retry := o.Retry
	switch retry {
	case "":
		retry = RetryPreStep
	case RetryPreStep, RetrySameStep, RetryNone:
	default:
		return nil, fmt.Errorf("retry must be %s, %s or %s, not %q", RetryPreStep, RetrySameStep, RetryNone, retry)
	}
	for _, m := range o.Mutants {
		if _, ok := LookupMutant(string(m)); !ok {
			return nil, fmt.Errorf("unknown runtime mutant %q", m)
		}
	}
	return &Builtin{port: port, retry: retry, mutants: mutantSet(o.Mutants)}, nil
}

// Start implements Runtime.
func (b *Builtin) Start() (Identity, error) {
	b.rt, b.loads = nil, 0
	id, err := b.port.Start()
	if err != nil {
		return Identity{}, err
	}
	b.id = id
	if id.Choices[spec.ChoiceFaultScope] == spec.FaultScopeEveryAppend {
		b.FaultsFailOutsideAppends = true // declared for the runtime by its plan mode
	}
	return Identity{
		Name: "plankit-builtin(" + id.Name + ")", Version: BuiltinVersion, Language: "go", Choices: id.Choices,
		Components: []sim.Component{{Name: "plankit-builtin", Version: BuiltinVersion}, {Name: id.Name, Version: id.Version}},
		Capabilities: Capabilities{Retry: b.retry, Commands: true, UserQuestions: true, HostTools: true, HostListeners: true,
			DuringStream: true, OutsideAppend: true, FailAppend: true, Resume: true, Reload: true, Reuse: true,
			ReviewReplies: id.ReviewReplies, EmptySteps: true, Unload: true, CommandOutcomes: id.CommandOutcomes, AssemblyTools: true},
	}, nil
}

// Load implements Runtime.
func (b *Builtin) Load(req LoadRequest) (LoadReply, error) {
	// Like the shipped dsh loop, the built-in runtime skips an accepted
	// step that has nothing to send (capability emptySteps).
	opts := sim.Options{Config: req.Config, Services: req.Services, Retries: sim.RetriesPreStep, EmptySteps: sim.EmptyStepsSkip, Assembly: b.Assembly, KeepInboxAtLoad: b.KeepInboxAtLoad, DropClaimedAtReject: b.DropClaimedAtReject, Headers: b.Headers}
	if b.retry == RetrySameStep {
		opts.Retries = sim.RetriesSameStep
	}
	for _, t := range req.HostTools {
		if t.Assembly {
			opts.AssemblyTools = append(opts.AssemblyTools, t.Name)
		} else {
			opts.HostTools = append(opts.HostTools, t.Name)
		}
	}
	for _, l := range req.Listeners {
		opts.Listeners = append(opts.Listeners, sim.ListenerSpec{Name: l.Name, Registered: l.Position})
	}
	b.mutants.simOptions(&opts)
	opts.Hooks = &sim.Hooks{Requested: b.requested, HostTool: b.hostTool, ToolDone: b.toolDone, Listener: b.listener}
	opts.NoStepEvents = b.variant == VariantNoStepEvents
	b.loads++
	rt, res, err := sim.New(b.port, opts)
	if err != nil {
		return LoadReply{}, err
	}
	b.rt, b.transcripts = rt, nil
	return LoadReply{Error: res.Error}, nil
}

func (b *Builtin) runtime() (*sim.Runtime, error) {
	if b.rt == nil {
		return nil, errors.New("built-in runtime: not loaded")
	}
	return b.rt, nil
}

// logLen is the length of the agent's log before a request that may
// append to it (what it appended is since that length).
func (b *Builtin) logLen(agent string) (int, error) {
	rt, err := b.runtime()
	if err != nil {
		return 0, err
	}
	return len(rt.Log(agent)), nil
}

// Open implements Runtime.
func (b *Builtin) Open(req OpenRequest) (Observation, error) {
	rt, err := b.runtime()
	if err != nil {
		return Observation{}, err
	}
	if err := rt.Open(req.Agent, req.Events); err != nil {
		return Observation{}, err
	}
	if ms := b.inbox[req.Agent]; len(ms) > 0 {
		delete(b.inbox, req.Agent)
		return Observation{}, rt.Requeue(req.Agent, ms)
	}
	return Observation{}, nil
}

// Stop implements Runtime.
func (b *Builtin) Stop() error {
	if b.rt == nil {
		return b.port.Stop()
	}
	b.inbox = nil
	if b.KeepInboxAtRestart {
		for _, n := range b.rt.Agents() {
			if ms := b.rt.Inbox(n); len(ms) > 0 {
				if b.inbox == nil {
					b.inbox = map[string][]sim.Message{}
				}
				b.inbox[n] = ms
			}
		}
	}
	err := b.rt.Close()
	b.rt = nil
	return err
}

// since returns the agent's events from seq n on.
func (b *Builtin) since(agent string, n int) []sim.Event {
	log := b.rt.Log(agent)
	if n >= len(log) {
		return nil
	}
	return append([]sim.Event(nil), log[n:]...)
}

// do runs one sim action, turning an input error into a Go error.
func (b *Builtin) do(act sim.Action) (sim.Result, error) {
	return b.rt.Do(act)
}

// Turn implements Runtime.
func (b *Builtin) Turn(req TurnRequest) (Observation, error) {
	start, err := b.logLen(req.Agent)
	if err != nil {
		return Observation{}, err
	}
	if _, err := b.do(sim.Action{Prompt: &sim.TextAction{Agent: req.Agent, Text: req.Prompt}}); err != nil {
		return Observation{}, err
	}
	return b.play(req.Agent, start, req.Script)
}

// play runs the open turn of agent to its end with the script and returns
// everything observed since the log held start events.
func (b *Builtin) play(agent string, start int, script Script) (Observation, error) {
	obs := &Observation{}
	b.obs, b.script, b.resp, b.err = obs, &script, 0, nil
	defer func() { b.obs, b.script, b.current = nil, nil, nil }()
	dispatch := 0
	retrying := false
	for steps := 0; ; steps++ {
		if _, open := b.rt.Status(agent); !open {
			break
		}
		if steps == MaxTurnSteps {
			return *obs, fmt.Errorf("built-in runtime: the turn did not end after %d steps", MaxTurnSteps)
		}
		r := b.nextResponse()
		b.current = &r
		if !retrying || b.retry != RetrySameStep {
			// a step that claims the queue takes what was steered; a
			// same-step retry resends the request and claims nothing, so
			// a message steered during the failed response still waits
			b.steered = false
		}
		step := &sim.StepAction{Agent: agent, Model: &sim.Model{Text: r.Text}}
		if r.Fail {
			step.Request = "fail"
		}
		for _, c := range r.Calls {
			step.Model.Calls = append(step.Model.Calls, sim.ToolCall{Name: c.Name, Args: c.Args, Review: c.Review})
		}
		if len(r.Calls) == 0 && r.Text == "" && !r.Fail {
			step.Model.Text = "Done."
		}
		act := sim.Action{Step: step}
		if retrying {
			act = sim.Action{Retry: step}
		}
		if !retrying || b.retry == RetryPreStep {
			dispatch++
			step.Listeners = map[string]string{}
			// code a listener did not reach in the last dispatch (an
			// earlier listener rejected) does not run in a later one
			clear(b.listening)
			for _, p := range script.PreSteps {
				if p.Dispatch != dispatch {
					continue
				}
				step.Listeners[p.Listener] = p.Behaviour
				// a listener's code runs inside the dispatch (b.listener):
				// after the step claimed its messages (and, for a loop that
				// assembles the prompt first, after the assembly), so a
				// message it steers waits for the next step
				if b.listening == nil {
					b.listening = map[string][]HostAction{}
				}
				b.listening[p.Listener] = p.During
			}
		}
		b.resending = retrying && b.retry == RetrySameStep
		res, err := b.do(act)
		b.resending = false
		if err != nil {
			return *obs, err
		}
		if b.err != nil {
			return *obs, b.err
		}
		retrying = false
		switch {
		case res.RequestFailed && b.retry == RetryNone:
			if _, err := b.do(sim.Action{EndTurn: &sim.EndTurnAction{Agent: agent, Reason: "error"}}); err != nil {
				return *obs, err
			}
		case res.RequestFailed:
			retrying = true
		case res.Decision != "" && res.Decision != sim.Accept, res.Skipped:
			// the runtime ended the turn (blocked, aborted, or nothing to send)
		case len(r.Calls) == 0 && b.SteerContinues && b.steered:
			// a message steered during the response: the turn goes on
		case len(r.Calls) == 0:
			if _, err := b.do(sim.Action{EndTurn: &sim.EndTurnAction{Agent: agent}}); err != nil {
				return *obs, err
			}
		}
	}
	if _, err := b.do(sim.Action{Idle: &sim.AgentAction{Agent: agent}}); err != nil {
		return *obs, err
	}
	obs.Events = b.since(agent, start)
	return *obs, nil
}

func (b *Builtin) nextResponse() Response {
	if b.resp < len(b.script.Responses) {
		b.resp++
		return b.script.Responses[b.resp-1]
	}
	return Response{Text: "Done."}
}

// requested records a request as sent and plays the response's host
// actions while it streams.
func (b *Builtin) requested(agent string, q sim.Request, failed bool) error {
	if b.obs == nil {
		return nil
	}
	if b.resending && len(b.obs.Requests) > 0 {
		// A same-step retry sends the step's request again as it was.
		again := b.obs.Requests[len(b.obs.Requests)-1]
		again.At = len(b.rt.Log(agent))
		b.obs.Requests = append(b.obs.Requests, again)
	} else {
		b.obs.Requests = append(b.obs.Requests, b.modelRequest(agent, q))
	}
	if b.current != nil {
		return b.host(agent, b.current.During)
	}
	return nil
}

// modelRequest is the request as the model receives it: the sections and
// tools of the header and the transcript derived from the log.
func (b *Builtin) modelRequest(agent string, q sim.Request) ModelRequest {
	log := b.rt.Log(agent)
	out := ModelRequest{At: len(log), Sections: []Section{}, Tools: []string{}, Messages: b.transcript(agent, log)}
	for _, s := range q.Sections {
		order := s.Order
		out.Sections = append(out.Sections, Section{Name: s.Name, Order: &order, Text: s.Text})
	}
	for _, t := range q.Tools {
		out.Tools = append(out.Tools, t.Name)
	}
	if b.variant == VariantExitToolMovesOnReload && b.loads%2 == 0 {
		if i := slices.Index(out.Tools, spec.ExitTool); i > 0 {
			out.Tools = slices.Concat([]string{spec.ExitTool}, out.Tools[:i], out.Tools[i+1:])
		}
	}
	return out
}

// transcript is the messages a request sent at the end of the agent's log
// carries: those derived before, and those of the events since. The slice
// is capped, so appending to it never writes into the next request's.
func (b *Builtin) transcript(agent string, log []sim.Event) []Message {
	if b.transcripts == nil {
		b.transcripts = map[string]*derived{}
	}
	d := b.transcripts[agent]
	if d == nil || d.events > len(log) {
		d = &derived{messages: []Message{}}
		b.transcripts[agent] = d
	}
	d.messages = append(d.messages, transcript(log[d.events:])...)
	d.events = len(log)
	return d.messages[:len(d.messages):len(d.messages)]
}

// transcript derives the messages a model request carries from log
// events: user messages, assistant text and tool results, in order.
func transcript(log []sim.Event) []Message {
	var out []Message
	for _, e := range log {
		switch e.Type {
		case spec.TypeUserMessage:
			if m, err := sim.MessageOf(e.Data); err == nil {
				src := m.Source
				out = append(out, Message{Role: "user", Text: m.Text, Source: &src})
			}
		case spec.TypeAssistant:
			var d struct {
				Message struct {
					Content []struct{ Type, Text string } `json:"content"`
				} `json:"message"`
			}
			_ = json.Unmarshal(e.Data, &d)
			var text strings.Builder
			for _, c := range d.Message.Content {
				if c.Type == "text" {
					text.WriteString(c.Text)
				}
			}
			out = append(out, Message{Role: "assistant", Text: text.String()})
		case spec.TypeToolResult:
			var d struct {
				Message struct {
					Content []struct {
						Content []struct{ Text string } `json:"content"`
					} `json:"content"`
				} `json:"message"`
			}
			_ = json.Unmarshal(e.Data, &d)
			var text strings.Builder
			for _, c := range d.Message.Content {
				for _, p := range c.Content {
					text.WriteString(p.Text)
				}
			}
			out = append(out, Message{Role: "tool", Text: text.String()})
		}
	}
	return out
}

func (b *Builtin) hostTool(agent string, call int) error {
	if b.current == nil || call >= len(b.current.Calls) {
		return nil
	}
	return b.host(agent, b.current.Calls[call].During)
}

func (b *Builtin) toolDone(agent string, call int, out sim.ToolOutcome) error {
	if b.obs == nil || b.current == nil || call >= len(b.current.Calls) {
		return nil
	}
	b.obs.Results = append(b.obs.Results, ActionResult{ID: b.current.Calls[call].ID,
		Tool: &ToolResult{Name: out.Name, OK: out.OK, Value: out.Result, Error: out.Error, Asked: out.Asked}})
	return nil
}

// listener runs, when the dispatch reaches a host listener, the code the
// script gives it for this dispatch (Assembly AssemblyBefore only).
func (b *Builtin) listener(agent, name string) error {
	during, ok := b.listening[name]
	if !ok {
		return nil
	}
	delete(b.listening, name)
	return b.host(agent, during)
}

// host runs host actions inside a turn and records their results.
func (b *Builtin) host(agent string, actions []HostAction) error {
	for _, h := range actions {
		r, err := b.hostAction(agent, h)
		if err != nil {
			b.err = err
			return err
		}
		if b.obs != nil {
			b.obs.Results = append(b.obs.Results, r)
		}
	}
	return nil
}

func (b *Builtin) hostAction(agent string, h HostAction) (ActionResult, error) {
	out := ActionResult{ID: h.ID}
	switch {
	case h.Set != nil:
		r, err := b.set(SetRequest{Agent: agent, Active: h.Set.Active})
		if err != nil {
			return out, err
		}
		out.Set = &r
	case h.Get != nil:
		g, err := b.get(agent)
		if err != nil {
			return out, err
		}
		out.Get = &g
	case h.Command != nil:
		r, err := b.command(agent, h.Command.Input)
		if err != nil {
			return out, err
		}
		out.Command = &r
	case h.Append != nil:
		if _, err := b.rt.AppendEvent(agent, h.Append.Type, h.Append.Data); err != nil {
			return out, err
		}
		out.Append = &struct{}{}
	case h.Fault != nil:
		if _, err := b.do(sim.Action{Fault: &sim.FaultAction{Appends: h.Fault.Count}}); err != nil {
			return out, err
		}
		out.Fault = &struct{}{}
	default:
		return out, fmt.Errorf("host action %q has no action", h.ID)
	}
	return out, nil
}

func (b *Builtin) get(agent string) (sim.GetReply, error) {
	res, err := b.do(sim.Action{Get: &sim.AgentAction{Agent: agent}})
	if err != nil {
		return sim.GetReply{}, err
	}
	g, _ := res.StateOf(agent)
	return g, nil
}

// set is a selection, between turns or by host code.
func (b *Builtin) set(req SetRequest) (SetResult, error) {
	res, err := b.do(sim.Action{Set: &req})
	return SetResult{Outcome: res.Outcome, Error: res.Error}, err
}

// Set implements Runtime.
func (b *Builtin) Set(req SetRequest) (SetReply, error) {
	start, err := b.logLen(req.Agent)
	if err != nil {
		return SetReply{}, err
	}
	r, err := b.set(req)
	if err != nil {
		return SetReply{}, err
	}
	return SetReply{SetResult: r, Observation: Observation{Events: b.since(req.Agent, start)}}, nil
}

// Get implements Runtime.
func (b *Builtin) Get(req AgentRequest) (sim.GetReply, error) {
	if _, err := b.runtime(); err != nil {
		return sim.GetReply{}, err
	}
	return b.get(req.Agent)
}

// command types a command line, between turns or by host code.
func (b *Builtin) command(agent, input string) (CommandResult, error) {
	res, err := b.do(sim.Action{Command: &sim.CommandAction{Agent: agent, Input: input}})
	if err != nil {
		return CommandResult{}, err
	}
	b.steered = b.steered || slices.ContainsFunc(res.Effects, func(e sim.AgentEffect) bool { return e.Agent == agent && e.Effect.Kind == sim.EffectSteer })
	return CommandResult{Kind: res.Command.Kind, Text: res.Command.Text, Outcome: res.Command.Outcome}, nil
}

// Command implements Runtime.
func (b *Builtin) Command(req CommandRequest) (CommandReply, error) {
	start, err := b.logLen(req.Agent)
	if err != nil {
		return CommandReply{}, err
	}
	r, err := b.command(req.Agent, req.Input)
	if err != nil {
		return CommandReply{}, err
	}
	out := CommandReply{CommandResult: r}
	if _, open := b.rt.Status(req.Agent); open {
		script := Script{}
		if req.Script != nil {
			script = *req.Script
		}
		obs, err := b.play(req.Agent, start, script)
		out.Observation = obs
		return out, err
	}
	if _, err := b.do(sim.Action{Idle: &sim.AgentAction{Agent: req.Agent}}); err != nil {
		return out, err
	}
	out.Events = b.since(req.Agent, start)
	return out, nil
}

// Append implements Runtime.
func (b *Builtin) Append(req AppendRequest) (Observation, error) {
	start, err := b.logLen(req.Agent)
	if err != nil {
		return Observation{}, err
	}
	if b.FaultsFailOutsideAppends && req.Type == spec.TypePlanMode && b.rt.FailOutsideAppend() {
		return Observation{}, nil // the session store threw: nothing appended
	}
	if _, err := b.rt.AppendEvent(req.Agent, req.Type, req.Data); err != nil {
		return Observation{}, err
	}
	return Observation{Events: b.since(req.Agent, start)}, nil
}

// Fault implements Runtime.
func (b *Builtin) Fault(req FaultRequest) error {
	if _, err := b.runtime(); err != nil {
		return err
	}
	_, err := b.do(sim.Action{Fault: &sim.FaultAction{Appends: req.Count}})
	return err
}

// Reload implements Runtime.
func (b *Builtin) Reload() (ReloadReply, error) {
	if _, err := b.runtime(); err != nil {
		return ReloadReply{}, err
	}
	act := sim.Action{Reload: &struct{}{}}
	if !b.rt.Plugin() {
		// after an unload, plan mode is loaded afresh from the logs
		act = sim.Action{Load: &sim.LoadAction{}}
	}
	b.loads++
	res, err := b.do(act)
	if err != nil {
		return ReloadReply{}, err
	}
	return ReloadReply{Error: res.Error}, nil
}

// Unload implements Runtime: plan mode is disposed without loading it
// again, as the plugin level's unload action.
func (b *Builtin) Unload() error {
	if _, err := b.runtime(); err != nil {
		return err
	}
	_, err := b.do(sim.Action{Unload: &sim.UnloadAction{}})
	if err == nil && b.WithdrawNoticesAtUnload {
		b.rt.WithdrawNotices()
	}
	return err
}
