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

// resultBox holds an action's Result together with room for what the
// action usually records, so that one allocation serves the result and its
// usual slices (Runtime.Do). The room is in the struct that embeds the box:
// a step's (stepBox) has room for a step's appends, effects, request and
// pre-step trace; any other action's (smallBox) for the few appends and
// effects it makes. A result that outgrows its room grows its slices out of
// the box as any slice grows.
type resultBox struct {
	res Result
	// The room: empty slices over the embedding struct's arrays (nil
	// where it has none).
	appended []Appended
	effects  []AgentEffect
	after    []AgentState
	requests []Request
	preStep  *PreStepTrace
}

type stepBox struct {
	resultBox
	appendedRoom [8]Appended
	effectsRoom  [2]AgentEffect
	afterRoom    [1]AgentState
	requestsRoom [1]Request
	preStepRoom  PreStepTrace
}

type smallBox struct {
	resultBox
	appendedRoom [2]Appended
	effectsRoom  [1]AgentEffect
	afterRoom    [1]AgentState
}

// newBox returns the box for an action; steps says the action runs a step
// (a step or a retry).
func newBox(act Action, steps bool) *resultBox {
	if steps {
		b := &stepBox{resultBox: resultBox{res: Result{Action: act}}}
		b.appended, b.effects, b.after = b.appendedRoom[:0], b.effectsRoom[:0], b.afterRoom[:0]
		b.requests, b.preStep = b.requestsRoom[:0], &b.preStepRoom
		return &b.resultBox
	}
	b := &smallBox{resultBox: resultBox{res: Result{Action: act}}}
	b.appended, b.effects, b.after = b.appendedRoom[:0], b.effectsRoom[:0], b.afterRoom[:0]
	return &b.resultBox
}

// boxOf is the box of the result the runtime is recording, when res is
// that result (nil otherwise: a result not made by Do).
func (r *Runtime) boxOf(res *Result) *resultBox {
	if b := r.box; b != nil && res == &b.res {
		return b
	}
	return nil
}
