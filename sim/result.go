package sim

import (
	"encoding/json"

	"github.com/plankit/plankit/spec"
)

// Result is everything one action did, in the order it happened. It is the
// record the timeline renders and expectations and checks read.
type Result struct {
	Action Action `json:"action"`
	// Appended lists every event appended to any log, in order.
	Appended []Appended `json:"appended,omitempty"`
	// Effects lists the implementation's effects, in order.
	Effects []AgentEffect `json:"effects,omitempty"`
	// Outcome is set's return value.
	Outcome string `json:"outcome,omitempty"`
	// Error is an error the implementation reported (a rejected config, a
	// throwing set, a fold error).
	Error string `json:"error,omitempty"`
	// Load is the registration after a load or reload.
	Load *LoadReply `json:"load,omitempty"`
	// PreStep shows what the plugin's listener saw and returned.
	PreStep *PreStepTrace `json:"preStep,omitempty"`
	// Decision is the chain's final decision for a step: accept, reject or
	// abort.
	Decision string `json:"decision,omitempty"`
	// Skipped: the runtime skipped the accepted step because its decision
	// carried no messages (Options.EmptySteps skip): no step started.
	Skipped       bool            `json:"skipped,omitempty"`
	RequestFailed bool            `json:"requestFailed,omitempty"`
	Requests      []Request       `json:"requests,omitempty"`
	Tools         []ToolOutcome   `json:"tools,omitempty"`
	Command       *CommandOutcome `json:"command,omitempty"`
	Fold          *bool           `json:"fold,omitempty"`
	Reloaded      bool            `json:"reloaded,omitempty"`
	// After is get() after the action for each agent it touched.
	After []AgentState `json:"after,omitempty"`
}

// Appended is an event appended to an agent's log; ByPlugin marks appends
// the implementation made.
type Appended struct {
	Agent    string `json:"agent"`
	Event    Event  `json:"event"`
	ByPlugin bool   `json:"byPlugin,omitempty"`
}

// AgentEffect is an implementation effect on one agent.
type AgentEffect struct {
	Agent  string `json:"agent"`
	Effect Effect `json:"effect"`
}

// PreStepTrace is the plugin listener's view of a step.
type PreStepTrace struct {
	Downstream    Decision `json:"downstream"`
	Decision      Decision `json:"decision"`
	AbortedBefore bool     `json:"abortedBefore,omitempty"`
	Aborted       bool     `json:"aborted,omitempty"`
}

// Request is what one model request showed: its sections, tools and the
// messages this step added.
type Request struct {
	Agent    string    `json:"agent"`
	Turn     int       `json:"turn"`
	Step     int       `json:"step"`
	Retry    int       `json:"retry,omitempty"`
	Sections []Section `json:"sections"`
	Tools    []Tool    `json:"tools"`
	Messages []Message `json:"messages,omitempty"`
}

// Section returns the named section of the request, if rendered.
func (q Request) Section(name string) (Section, bool) {
	for _, s := range q.Sections {
		if s.Name == name {
			return s, true
		}
	}
	return Section{}, false
}

// ToolOutcome is a tool call's result.
type ToolOutcome struct {
	Name   string          `json:"name"`
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
	Asked  bool            `json:"asked,omitempty"`
}

// CommandOutcome is a command's result.
type CommandOutcome struct {
	Registered bool   `json:"registered"`
	Kind       string `json:"kind"`
	Text       string `json:"text"`
	// Outcome is the selection outcome the reply announces; empty when the
	// command failed or the implementation does not report outcomes.
	Outcome string `json:"outcome,omitempty"`
	// Reported says the implementation reports announced outcomes
	// (Identity.CommandOutcomes), so an empty Outcome is a fact to check.
	Reported bool `json:"-"`
}

// AgentState is get() for one agent.
type AgentState struct {
	Agent string   `json:"agent"`
	Get   GetReply `json:"get"`
}

// PlanEvents returns the active values of the plan/mode events appended.
func (r Result) PlanEvents(agent string) []bool {
	out := []bool{}
	for _, a := range r.Appended {
		if a.Agent == agent && a.Event.Type == spec.TypePlanMode {
			v, _ := spec.PlanModeOf(a.Event.Data)
			out = append(out, v)
		}
	}
	return out
}

// Notices returns the plan-mode notices logged by the action for agent.
func (r Result) Notices(agent string) []Message {
	var out []Message
	for _, a := range r.Appended {
		if a.Agent != agent || a.Event.Type != spec.TypeUserMessage {
			continue
		}
		if m, err := MessageOf(a.Event.Data); err == nil && m.IsPlanNotice() {
			out = append(out, m)
		}
	}
	return out
}

// StateOf returns get() after the action for agent.
func (r Result) StateOf(agent string) (GetReply, bool) {
	for _, s := range r.After {
		if s.Agent == agent {
			return s.Get, true
		}
	}
	return GetReply{}, false
}

// resultBox is where Do records an action's Result: the runtime keeps one
// per nesting level (hooks may call Do inside a step) and reuses it action
// after action, since Do returns a copy of the Result. The box's copy of
// the action is the one the kinds read.
//
// A step or retry also gets room for what it usually records (appends,
// effects, get() after, the request, the pre-step trace) in two
// allocations of its own (appendRoom, stepRoom), each small enough for
// the allocator's fast path (no more than 512 bytes): the Result handed
// out keeps its slices, so the room is never reused. Any other action's
// slices are made when it records something, to the size it needs. A
// result that outgrows its room grows its slices out of the room as any
// slice grows.
type resultBox struct {
	res Result
	// The room: empty slices over the rooms' arrays (nil outside a step).
	appended []Appended
	effects  []AgentEffect
	after    []AgentState
	requests []Request
	preStep  *PreStepTrace
}

// appendRoom holds a step's usual appends: step/start, the messages, the
// request header, the model's output, step/end and a plugin's append.
type appendRoom [7]Appended

type stepRoom struct {
	effects  [2]AgentEffect
	after    [1]AgentState
	requests [1]Request
	preStep  PreStepTrace
}

// reset makes the box record act; steps says the action runs a step (a
// step or a retry).
func (b *resultBox) reset(act *Action, steps bool) {
	*b = resultBox{res: Result{Action: *act}}
	if steps {
		appended, room := new(appendRoom), new(stepRoom)
		b.appended, b.effects, b.after = appended[:0], room.effects[:0], room.after[:0]
		b.requests, b.preStep = room.requests[:0], &room.preStep
	}
}

// boxOf is the box of the result the runtime is recording, when res is
// that result (nil otherwise: a result not made by Do).
func (r *Runtime) boxOf(res *Result) *resultBox {
	if b := r.box; b != nil && res == &b.res {
		return b
	}
	return nil
}
