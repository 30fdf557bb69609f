package sim

import (
	"encoding/json"
	"fmt"
)

// Action is one scripted thing that happens to the runtime. Exactly one field
// is set. Trace files, godog steps, property generators and the explorer all
// speak Action, so any sequence can be written out as a trace and replayed.
type Action struct {
	Load    *LoadAction    `json:"load,omitempty"`
	Prompt  *TextAction    `json:"prompt,omitempty"`
	Steer   *TextAction    `json:"steer,omitempty"`
	Inject  *TextAction    `json:"inject,omitempty"`
	Set     *SetAction     `json:"set,omitempty"`
	Get     *AgentAction   `json:"get,omitempty"`
	Command *CommandAction `json:"command,omitempty"`
	Step    *StepAction    `json:"step,omitempty"`
	Retry   *StepAction    `json:"retry,omitempty"`
	EndTurn *EndTurnAction `json:"end-turn,omitempty"`
	Idle    *AgentAction   `json:"idle,omitempty"`
	Fault   *FaultAction   `json:"fault,omitempty"`
	Restart *struct{}      `json:"restart,omitempty"`
	Reload  *struct{}      `json:"reload,omitempty"`
	Unload  *UnloadAction  `json:"unload,omitempty"`
	Fork    *ForkAction    `json:"fork,omitempty"`
	Compact *AgentAction   `json:"compact,omitempty"`
	Fold    *FoldAction    `json:"fold,omitempty"`
}

// LoadAction (re)composes the plugin with a config and services, as a fresh
// plugin load. Example: `load: {config: {section: "Plan first."}}`.
type LoadAction struct {
	Config   json.RawMessage `json:"config,omitempty"`
	Services *Services       `json:"services,omitempty"`
}

// UnloadAction disposes the plan-mode plugin without loading it again
// (SVC-1, SVC-2, PEND-8): its service, tool, section, command and pre-step
// listener go, and its pending selections with it; the logs stay. A later
// load composes it afresh from the logs. Example: `unload: {}`.
type UnloadAction struct{}

// AgentAction names an agent. Example: `get: {agent: main}`.
type AgentAction struct {
	Agent string `json:"agent"`
}

// TextAction carries user text. Example: `prompt: {agent: main, text: hi}`.
type TextAction struct {
	Agent string `json:"agent"`
	Text  string `json:"text"`
}

// SetAction is a user selection. Example: `set: {agent: main, active: true}`.
type SetAction struct {
	Agent  string `json:"agent"`
	Active bool   `json:"active"`
}

// CommandAction types a slash command. Example:
// `command: {agent: main, input: "/plan off"}`.
type CommandAction struct {
	Agent string `json:"agent"`
	Input string `json:"input"`
}

// Listener behaviours scripted for one pre-step.
const (
	Accept = "accept"
	Abort  = "abort"
	// Veto runs the rest of the chain, then rejects the step whatever it
	// decided: a listener that inspects the downstream result and blocks.
	Veto = "veto"
	// Reject (shared with the decision kind) rejects without calling next.
)

// StepAction proposes a step (or, under Retry, a request-recovery retry of
// the step whose request failed). Example:
//
//	step: {agent: main, decision: reject}
//	step: {agent: main, model: {calls: [{name: exit_plan_mode, args: {plan: "# P"}, review: {answer: approve}}]}}
//	step: {agent: main, request: fail}
type StepAction struct {
	Agent string `json:"agent"`
	// Decision is the behaviour of the innermost downstream listener:
	// accept (default), reject or abort.
	Decision string `json:"decision,omitempty"`
	// Listeners overrides the behaviour of named trace listeners for this
	// step.
	Listeners map[string]string `json:"listeners,omitempty"`
	// Request fail makes the request fail after its header is logged, so the
	// step awaits a retry.
	Request string `json:"request,omitempty"`
	Model   *Model `json:"model,omitempty"`
}

// Model is the scripted model output of a step.
type Model struct {
	Text  string     `json:"text,omitempty"`
	Calls []ToolCall `json:"calls,omitempty"`
}

// ToolCall is one scripted tool call of the model.
type ToolCall struct {
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args,omitempty"`
	Review *Review         `json:"review,omitempty"`
}

// EndTurnAction ends the open turn. Example: `end-turn: {agent: main}`.
type EndTurnAction struct {
	Agent  string `json:"agent"`
	Reason string `json:"reason,omitempty"` // default completed
}

// FaultAction arms faults. Example: `fault: {appends: 1}` fails the next
// append the implementation attempts.
type FaultAction struct {
	Appends int `json:"appends"`
}

// ForkAction forks a session. Example: `fork: {agent: main, as: child}`.
type ForkAction struct {
	Agent string `json:"agent"`
	As    string `json:"as"`
}

// FoldAction calls foldPlanMode on an agent's log or on given events.
// Example: `fold: {agent: main, end: 3}`.
type FoldAction struct {
	Agent  string          `json:"agent,omitempty"`
	Events []FoldEventSpec `json:"events,omitempty"`
	End    *int            `json:"end,omitempty"`
}

// FoldEventSpec is an event written in a trace for a fold.
type FoldEventSpec struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data,omitempty"`
}

// Name is the action's key as written in a trace.
func (a Action) Name() string {
	switch {
	case a.Load != nil:
		return "load"
	case a.Prompt != nil:
		return "prompt"
	case a.Steer != nil:
		return "steer"
	case a.Inject != nil:
		return "inject"
	case a.Set != nil:
		return "set"
	case a.Get != nil:
		return "get"
	case a.Command != nil:
		return "command"
	case a.Step != nil:
		return "step"
	case a.Retry != nil:
		return "retry"
	case a.EndTurn != nil:
		return "end-turn"
	case a.Idle != nil:
		return "idle"
	case a.Fault != nil:
		return "fault"
	case a.Restart != nil:
		return "restart"
	case a.Reload != nil:
		return "reload"
	case a.Unload != nil:
		return "unload"
	case a.Fork != nil:
		return "fork"
	case a.Compact != nil:
		return "compact"
	case a.Fold != nil:
		return "fold"
	}
	return ""
}

// Agent is the agent the action is about, or "" for runtime-wide actions.
func (a Action) Agent() string {
	switch {
	case a.Prompt != nil:
		return a.Prompt.Agent
	case a.Steer != nil:
		return a.Steer.Agent
	case a.Inject != nil:
		return a.Inject.Agent
	case a.Set != nil:
		return a.Set.Agent
	case a.Get != nil:
		return a.Get.Agent
	case a.Command != nil:
		return a.Command.Agent
	case a.Step != nil:
		return a.Step.Agent
	case a.Retry != nil:
		return a.Retry.Agent
	case a.EndTurn != nil:
		return a.EndTurn.Agent
	case a.Idle != nil:
		return a.Idle.Agent
	case a.Fork != nil:
		return a.Fork.Agent
	case a.Compact != nil:
		return a.Compact.Agent
	case a.Fold != nil:
		return a.Fold.Agent
	}
	return ""
}

// String renders the action compactly, as in a trace, for messages.
func (a Action) String() string {
	b, err := json.Marshal(a)
	if err != nil {
		return fmt.Sprintf("%s(?)", a.Name())
	}
	return string(b)
}
