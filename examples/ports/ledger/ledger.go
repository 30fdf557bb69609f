// Package ledger is a plan-mode plugin written from SPEC.md alone, served to
// plankit in-process: Port implements sim.Port (and sim.ToolGate), so a Go
// test checks it with conformance.Test (ledger_test.go).
//
// The design is a ledger per agent: the log the host hands over is the only
// record of the plan state (LOG-3), read through a small running tally that
// advances as events arrive, and the plugin itself holds nothing but its
// queue of selections still to be written (PEND-1, PEND-8). Where SPEC.md is
// silent the port reads it its own way and declares so (Readings).
//
// New(Mistake(NAME)) seeds one realistic mistake (Mistakes); without it the
// port is faithful.
package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/sim"
)

// The names SPEC.md fixes.
const (
	eventType   = "plan/mode"
	sectionName = "plan:policy"
	sectionRank = 50
	exitTool    = "exit_plan_mode"
	commandName = "plan"
	pluginID    = "plan-mode"
)

// Readings are the port's picks at the points SPEC.md leaves open
// (docs/spec-choices.md), declared at Start. idle-revert-notice is left
// undeclared: the port narrates an idle change when it is committed and takes
// nothing back, which either reading accepts.
var Readings = map[string]string{
	"fold-end":            "error",
	"cancel-pending":      "keep-equal",
	"section-source":      "pending",
	"reload-pending":      "keep",
	"idle-append-failure": "error",
	"plan-heading":        "level-1",
	"empty-step":          "inject",
	"plan-mode-data":      "exact",
	"plan-mode-malformed": "keep",
}

// Mistakes are the mistakes Mistake can seed, each breaking one clause.
var Mistakes = []string{
	"rejected-step-drops-selection", // STEP-3
	"failed-append-drops-selection", // STEP-5
	"cancel-keeps-entry",            // PEND-5
	"notice-to-inbox",               // STEP-7
	"unload-keeps-exit-tool",        // SVC-2
	"blocks-host-tools",             // SVC-3
	"heading-after-text",            // EXIT-3
	"uppercase-off",                 // CMD-4
	"wrong-reply-outcome",           // SVC-1
	"approval-one-step-late",        // EXIT-5
	"reload-keeps-pending",          // PEND-8 (declared reload-pending=drop)
	"restart-stale-state",           // LOG-3
	"duplicate-pending-notice",      // STEP-6
}

// Option configures a Port.
type Option func(*Port)

// Mistake seeds one of Mistakes. New panics on a name it does not know, so a
// typo cannot pass for the faithful port.
func Mistake(name string) Option { return func(p *Port) { p.mistake = name } }

// Trimmed reads the /plan argument without its surrounding whitespace. By
// default the argument is read as typed: SPEC.md does not say whether the
// whitespace around it belongs to it, and this port says it does.
func Trimmed() Option { return func(p *Port) { p.trimmed = true } }

// NoticeAfter puts a pre-step's notice after the messages the other
// listeners left in the step's decision. By default it comes before them:
// STEP-7 asks only that the notice be part of that step's messages.
func NoticeAfter() Option { return func(p *Port) { p.noticeAfter = true } }

// New returns a port that has not started.
func New(opts ...Option) *Port {
	p := &Port{memory: map[string]bool{}}
	for _, o := range opts {
		o(p)
	}
	if p.mistake != "" && !slices.Contains(Mistakes, p.mistake) {
		panic(fmt.Sprintf("ledger: unknown mistake %q", p.mistake))
	}
	return p
}

// Port is the plugin and the host glue around it. What a process would hold
// lives in run and is gone at Stop.
type Port struct {
	mistake     string
	trimmed     bool
	noticeAfter bool
	// memory is what the mistake restart-stale-state wrongly carries over
	// a stop: each agent's state as last seen.
	memory map[string]bool
	run    *process
}

type process struct {
	config    json.RawMessage
	services  sim.Services
	hostTools []sim.Tool
	plugin    *plugin // nil: not loaded
	books     map[string]*book
}

// book is one agent's log as the host gave it, with the tally the plugin
// reads: the state in force, whether a turn is open, and the state the last
// request header was assembled with (nil: no header yet).
type book struct {
	events []sim.Event
	on     bool
	open   bool
	shown  *bool
}

func (b *book) add(e sim.Event, fold bool) {
	b.events = append(b.events, e)
	switch e.Type {
	case eventType:
		if v, ok := readState(e.Data); ok && fold {
			b.on = v
		}
	case "turn/start":
		b.open = true
	case "turn/end":
		b.open = false
	case "request/header":
		v := b.on
		b.shown = &v
	}
}

// readState is one plan/mode event's value under the declared readings:
// only data that is exactly {"active": boolean} counts (plan-mode-data=exact);
// anything else leaves the state as it was (plan-mode-malformed=keep).
func readState(data json.RawMessage) (bool, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil || len(fields) != 1 {
		return false, false
	}
	raw, ok := fields["active"]
	if !ok {
		return false, false
	}
	switch strings.TrimSpace(string(raw)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// entry is a selection waiting for the next accepted in-turn pre-step.
type entry struct {
	active   bool
	approval bool // the exit of an approved plan: never narrated (EXIT-5)
	echoes   int  // notices it gets (more than one only under duplicate-pending-notice)
	holdOff  int  // accepted pre-steps it lets pass (only under approval-one-step-late)
}

type plugin struct {
	section string
	queue   map[string]*entry
	retired bool
	// lingering: disposed, but its exit tool is still registered (only
	// under the mistake unload-keeps-exit-tool).
	lingering bool
	echo      map[string]bool // a selection cancelled in this turn, by agent (duplicate-pending-notice)
}

// host records what the plugin does to its host during one call, in order.
type host struct {
	book    *book
	effects []sim.Effect
	failing int
}

var errWrite = errors.New("the session log refused the write")

func (h *host) append(active bool) error {
	data := json.RawMessage(fmt.Sprintf(`{"active":%t}`, active))
	eff := sim.Effect{Kind: sim.EffectAppend, Type: eventType, Data: data}
	if h.failing > 0 {
		h.failing--
		eff.Failed = true
		h.effects = append(h.effects, eff)
		return errWrite
	}
	h.effects = append(h.effects, eff)
	h.book.add(sim.Event{Seq: len(h.book.events), Type: eventType, Data: data}, true)
	return nil
}

func (h *host) inject(m sim.Message) {
	h.effects = append(h.effects, sim.Effect{Kind: sim.EffectInject, Message: &m})
}

func (h *host) steer(m sim.Message) {
	h.effects = append(h.effects, sim.Effect{Kind: sim.EffectSteer, Message: &m})
}

// --- sim.Port ---

// Start brings up a fresh process.
func (p *Port) Start() (sim.Identity, error) {
	p.run = &process{books: map[string]*book{}}
	choices := map[string]string{}
	for k, v := range Readings {
		choices[k] = v
	}
	if p.mistake == "reload-keeps-pending" {
		choices["reload-pending"] = "drop"
	}
	return sim.Identity{
		Name:     "plankit-example-go-ledger",
		Version:  "0.1.0",
		Language: "go",
		Choices:  choices,
		Capabilities: sim.Capabilities{Commands: true, UserQuestions: true, Fork: true, Reload: true, Unload: true,
			CommandOutcomes: true, ReviewReplies: true, HostTools: true, EmptySteps: true},
	}, nil
}

// Stop ends the process: everything but the durable logs (the kit's) is lost.
func (p *Port) Stop() error {
	p.run = nil
	return nil
}

func (p *Port) proc() (*process, error) {
	if p.run == nil {
		return nil, errors.New("ledger: not started")
	}
	return p.run, nil
}

// Load composes the plugin (CFG-1).
func (p *Port) Load(req sim.LoadRequest) (sim.LoadReply, error) {
	r, err := p.proc()
	if err != nil {
		return sim.LoadReply{}, err
	}
	r.plugin = nil
	r.config, r.services, r.hostTools = req.Config, req.Services, req.HostTools
	section, problem := settings(req.Config)
	if problem != "" {
		return sim.LoadReply{Error: problem}, nil
	}
	r.plugin = newPlugin(section)
	return r.registration(), nil
}

func newPlugin(section string) *plugin {
	return &plugin{section: section, queue: map[string]*entry{}, echo: map[string]bool{}}
}

func (r *process) registration() sim.LoadReply {
	reply := sim.LoadReply{Listener: sim.Prepend, Tools: []sim.Tool{{Name: exitTool}}, Sections: []string{sectionName}}
	if r.services.Commands {
		reply.Commands = []string{commandName}
	}
	return reply
}

// settings checks the config: exactly {"section": non-blank string}.
func settings(raw json.RawMessage) (string, string) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return "", "the plan-mode settings must be a JSON object holding only \"section\""
	}
	var unknown []string
	for k := range fields {
		if k != "section" {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return "", "the plan-mode settings have keys it does not take: " + strings.Join(unknown, ", ")
	}
	raw, ok := fields["section"]
	if !ok {
		return "", "the plan-mode settings lack \"section\""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", "the plan-mode \"section\" is not a string"
	}
	if strings.TrimSpace(s) == "" {
		return "", "the plan-mode \"section\" is empty"
	}
	return s, ""
}

// Open introduces an agent with its durable log; the state is its fold.
func (p *Port) Open(req sim.OpenRequest) error {
	r, err := p.proc()
	if err != nil {
		return err
	}
	b := &book{}
	stale := p.mistake == "restart-stale-state"
	for _, e := range req.Events {
		b.add(e, !stale)
	}
	if stale {
		b.on = p.memory[req.Agent]
	}
	r.books[req.Agent] = b
	return nil
}

// enter applies a call's sync and returns the agent's book and a recorder.
func (p *Port) enter(c sim.Call) (*process, *plugin, *host, error) {
	r, err := p.proc()
	if err != nil {
		return nil, nil, nil, err
	}
	if r.plugin == nil {
		return nil, nil, nil, fmt.Errorf("ledger: plan mode is not loaded (agent %q)", c.Agent)
	}
	b, ok := r.books[c.Agent]
	if !ok {
		return nil, nil, nil, fmt.Errorf("ledger: no agent %q", c.Agent)
	}
	for _, e := range c.Sync {
		if e.Seq != len(b.events) {
			return nil, nil, nil, fmt.Errorf("ledger: agent %q: sync seq %d, the log holds %d events", c.Agent, e.Seq, len(b.events))
		}
		b.add(e, true)
	}
	return r, r.plugin, &host{book: b, failing: c.FailAppends}, nil
}

func (p *Port) remember(agent string, h *host) {
	p.memory[agent] = h.book.on
}

// Get is get(agent) (PEND-7).
func (p *Port) Get(c sim.Call) (sim.GetReply, error) {
	_, pl, h, err := p.enter(c)
	if err != nil {
		return sim.GetReply{}, err
	}
	defer p.remember(c.Agent, h)
	reply := sim.GetReply{Active: h.book.on}
	if e, ok := pl.queue[c.Agent]; ok {
		v := e.active
		reply.Pending = &v
	}
	return reply, nil
}

// Set is set(agent, active) (PEND-3..6).
func (p *Port) Set(req sim.SetRequest) (sim.SetReply, error) {
	_, pl, h, err := p.enter(req.Call)
	if err != nil {
		return sim.SetReply{}, err
	}
	defer p.remember(req.Agent, h)
	outcome, serr := p.choose(pl, h, req.Agent, req.Active)
	reply := sim.SetReply{Outcome: outcome, Effects: h.effects}
	if serr != nil {
		reply = sim.SetReply{Error: serr.Error(), Effects: h.effects}
	}
	return reply, nil
}

func (p *Port) choose(pl *plugin, h *host, agent string, want bool) (string, error) {
	b := h.book
	e, waiting := pl.queue[agent]
	switch {
	case waiting && e.active == want:
		return "noop", nil
	case waiting && want == b.on:
		// The opposite waits: withdraw it. Within a turn an entry equal
		// to the log stays until the next pre-step (cancel-pending=keep-equal).
		pl.echo[agent] = e.active
		switch {
		case p.mistake == "cancel-keeps-entry":
		case b.open:
			pl.queue[agent] = &entry{active: want}
		default:
			delete(pl.queue, agent)
		}
		return "cancelled", nil
	case want == b.on:
		return "noop", nil
	case b.open:
		n := 1
		if prev, had := pl.echo[agent]; had && prev == want && p.mistake == "duplicate-pending-notice" {
			n = 2
		}
		pl.queue[agent] = &entry{active: want, echoes: n}
		return "queued", nil
	}
	shown := b.shown
	if err := h.append(want); err != nil {
		return "", fmt.Errorf("plan mode could not record the change: %w", err)
	}
	delete(pl.queue, agent)
	if shown != nil && *shown != want {
		h.inject(notice(want))
	}
	return "committed", nil
}

func notice(on bool) sim.Message {
	text := "[plan mode] The user turned planning off. Changes to files are allowed again."
	summary := "user left plan mode"
	if on {
		text = "[plan mode] The user turned planning on. Investigate and propose; do not modify files until a plan is approved."
		summary = "user entered plan mode"
	}
	return sim.Message{Role: "user", Text: text, Source: sim.Source{Kind: "plugin", Plugin: pluginID, Form: "notice", Summary: summary}}
}

// PreStep runs the agent/pre-step listener (STEP-1..7).
func (p *Port) PreStep(req sim.PreStepRequest) (sim.PreStepReply, error) {
	_, pl, h, err := p.enter(req.Call)
	if err != nil {
		return sim.PreStepReply{}, err
	}
	defer p.remember(req.Agent, h)
	h.effects = append(h.effects, sim.Effect{Kind: sim.EffectDownstream})
	down := sim.Decision{Kind: req.Downstream.Kind, Messages: slices.Clone(req.Downstream.Messages)}
	delete(pl.echo, req.Agent)
	if pl.lingering {
		return sim.PreStepReply{Decision: down, Effects: h.effects}, nil
	}
	e, waiting := pl.queue[req.Agent]
	if down.Kind != sim.Enter || req.AbortedBefore || req.AbortDuring {
		if waiting && p.mistake == "rejected-step-drops-selection" {
			delete(pl.queue, req.Agent)
		}
		return sim.PreStepReply{Decision: down, Effects: h.effects}, nil
	}
	if !waiting {
		return sim.PreStepReply{Decision: down, Effects: h.effects}, nil
	}
	if e.holdOff > 0 {
		e.holdOff--
		return sim.PreStepReply{Decision: down, Effects: h.effects}, nil
	}
	b := h.book
	if e.active == b.on {
		delete(pl.queue, req.Agent) // a kept-equal entry: nothing to write
		return sim.PreStepReply{Decision: down, Effects: h.effects}, nil
	}
	shown := b.shown
	if err := h.append(e.active); err != nil {
		if p.mistake == "failed-append-drops-selection" {
			delete(pl.queue, req.Agent)
		}
		return sim.PreStepReply{Decision: down, Effects: h.effects}, nil
	}
	delete(pl.queue, req.Agent)
	if e.approval || shown == nil || *shown == e.active {
		return sim.PreStepReply{Decision: down, Effects: h.effects}, nil
	}
	var told []sim.Message
	for range max(e.echoes, 1) {
		told = append(told, notice(e.active))
	}
	// empty-step=inject: a step that will be skipped for want of messages
	// stays skipped; its notice waits in the inbox for the next step.
	if (req.SkipsEmpty && len(down.Messages) == 0) || p.mistake == "notice-to-inbox" {
		for _, m := range told {
			h.inject(m)
		}
		return sim.PreStepReply{Decision: down, Effects: h.effects}, nil
	}
	if p.noticeAfter {
		down.Messages = append(down.Messages, told...)
	} else {
		down.Messages = append(told, down.Messages...)
	}
	return sim.PreStepReply{Decision: down, Effects: h.effects}, nil
}

// Assemble renders the plugin's part of a request (CFG-2, EXIT-1). The
// section follows the waiting selection when there is one
// (section-source=pending).
func (p *Port) Assemble(req sim.AssembleRequest) (sim.AssembleReply, error) {
	_, pl, h, err := p.enter(req.Call)
	if err != nil {
		return sim.AssembleReply{}, err
	}
	defer p.remember(req.Agent, h)
	on := h.book.on
	if e, ok := pl.queue[req.Agent]; ok {
		on = e.active
	}
	reply := sim.AssembleReply{Sections: []sim.Section{}, Tools: append(slices.Clone(req.Tools), sim.Tool{Name: exitTool})}
	if on && !pl.lingering {
		reply.Sections = append(reply.Sections, sim.Section{Name: sectionName, Order: sectionRank, Text: pl.section})
	}
	return reply, nil
}

// PreTool is the gate for the host's own tools: plan mode only guides
// (SVC-3), so every call may run.
func (p *Port) PreTool(req sim.PreToolRequest) (sim.PreToolReply, error) {
	_, _, h, err := p.enter(req.Call)
	if err != nil {
		return sim.PreToolReply{}, err
	}
	defer p.remember(req.Agent, h)
	if p.mistake == "blocks-host-tools" && h.book.on {
		return sim.PreToolReply{Decision: sim.ToolDeny, Reason: req.Name + " is held back while planning", Effects: h.effects}, nil
	}
	return sim.PreToolReply{Decision: sim.ToolAllow, Effects: h.effects}, nil
}

// Fold is foldPlanMode(events, end) (LOG-2), with an end outside the log
// an error (fold-end=error).
func (p *Port) Fold(req sim.FoldRequest) (sim.FoldReply, error) {
	end := len(req.Events)
	if req.End != nil {
		if *req.End < 0 || *req.End > len(req.Events) {
			return sim.FoldReply{Error: fmt.Sprintf("end %d lies outside the log of %d events", *req.End, len(req.Events))}, nil
		}
		end = *req.End
	}
	on := false
	for _, e := range req.Events[:end] {
		if e.Type != eventType {
			continue
		}
		if v, ok := readState(e.Data); ok {
			on = v
		}
	}
	return sim.FoldReply{Active: on}, nil
}

// Reload disposes the plugin and composes it again; the queue of waiting
// selections is carried over (reload-pending=keep).
func (p *Port) Reload() (sim.LoadReply, error) {
	r, err := p.proc()
	if err != nil {
		return sim.LoadReply{}, err
	}
	if r.plugin == nil {
		return sim.LoadReply{}, errors.New("ledger: reload with plan mode not loaded")
	}
	old := r.plugin
	old.retired = true
	r.plugin = newPlugin(old.section)
	r.plugin.queue = old.queue
	return r.registration(), nil
}

// Unload disposes the plugin; the logs stay.
func (p *Port) Unload() (sim.LoadReply, error) {
	r, err := p.proc()
	if err != nil {
		return sim.LoadReply{}, err
	}
	if r.plugin != nil {
		r.plugin.retired = true
	}
	if p.mistake == "unload-keeps-exit-tool" && r.plugin != nil {
		// The tool's registration outlives the dispose, and the plugin
		// behind it with it; only its section and listener go.
		r.plugin.lingering = true
		r.plugin.queue = map[string]*entry{}
		return sim.LoadReply{Tools: []sim.Tool{{Name: exitTool}}}, nil
	}
	r.plugin = nil
	return sim.LoadReply{}, nil
}
