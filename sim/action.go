package sim

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/plankit/plankit/internal/union"
)

// Action is one scripted thing that happens to the runtime. Exactly one field
// is set. Trace files, godog steps, property generators and the explorer all
// speak Action, so any sequence can be written out as a trace and replayed.
//
// Each field is one action, declared in its own file (action_NAME.go): its
// type, its trace example, the agent it concerns, how the runtime applies
// it, its JSON Schema and how generators draw it. The field order here is
// the order of the action table (Actions), of the trace schema and of the
// generators' kinds.
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
	Append  *AppendAction  `json:"append,omitempty"`
	Restart *struct{}      `json:"restart,omitempty"`
	Reload  *struct{}      `json:"reload,omitempty"`
	Unload  *UnloadAction  `json:"unload,omitempty"`
	Open    *OpenAction    `json:"open,omitempty"`
	Fork    *ForkAction    `json:"fork,omitempty"`
	Compact *AgentAction   `json:"compact,omitempty"`
	Fold    *FoldAction    `json:"fold,omitempty"`
}

// AgentAction names an agent. Example: `get: {agent: main}`.
type AgentAction struct {
	Agent string `json:"agent"`
}

// TextAction carries user text. Example: `prompt: {agent: main, text: hi}`.
type TextAction struct {
	Agent string `json:"agent"`
	Text  string `json:"text"`
}

// ActionKind is one row of the action table: one key of Action, as its own
// file declares it.
type ActionKind interface {
	// Name is the action's key as written in a trace.
	Name() string
	// Schema is the JSON Schema of the action's value in a trace entry
	// (references are to the trace schema's $defs).
	Schema() json.RawMessage
	// Draws are the ways generators draw the action (none: never drawn).
	Draws() []Draw
	// Type is the Go type of the action's value.
	Type() reflect.Type

	// The action is passed by pointer: each method hands it to the kind's
	// field accessor, and a value would be copied to the heap for that at
	// every call.
	in(*Action) bool
	field(*Action) any
	agent(*Action) string
	introduces(*Action) string
	apply(*Runtime, *Result, *Action) error
	touches(*Runtime, *Action) []string
	refuses(State, *Action) string
}

// kind declares one action. T is the type of its field of Action.
type kind[T any] struct {
	// name is the action's key in a trace and its field's JSON name.
	name string
	// of returns the action's field of Action.
	of func(*Action) **T
	// agent is the agent the action concerns (nil: runtime-wide).
	agent_ func(*T) string
	// introduces is the agent the action creates (nil: none).
	introduces_ func(*T) string
	// apply performs the action on the runtime.
	apply_ func(*Runtime, *Result, *T) error
	// touches lists the agents whose get() is observed after the action
	// (nil: the action's agent).
	touches_ func(*Runtime, *T) []string
	// refuses_ is the runtime's precondition beyond the agent existing
	// (nil: none): why the runtime refuses the action in the state it
	// reads, "" when it is ready. The runtime refuses an action that is
	// not ready as bad input, saying why (Runtime.Do), and generators
	// never draw one.
	refuses_ func(State, *T) string
	// schema is the JSON Schema of the value.
	schema string
	// draws are the ways generators draw it.
	draws []Draw
}

func (k *kind[T]) Name() string            { return k.name }
func (k *kind[T]) Schema() json.RawMessage { return json.RawMessage(k.schema) }
func (k *kind[T]) Draws() []Draw           { return k.draws }
func (k *kind[T]) Type() reflect.Type      { return reflect.TypeFor[T]() }
func (k *kind[T]) in(a *Action) bool       { return *k.of(a) != nil }
func (k *kind[T]) field(a *Action) any     { return k.of(a) }
func (k *kind[T]) refuses(w State, a *Action) string {
	if k.refuses_ == nil {
		return ""
	}
	return k.refuses_(w, *k.of(a))
}

func (k *kind[T]) agent(a *Action) string {
	if k.agent_ == nil {
		return ""
	}
	return k.agent_(*k.of(a))
}

func (k *kind[T]) introduces(a *Action) string {
	if k.introduces_ == nil {
		return ""
	}
	return k.introduces_(*k.of(a))
}

func (k *kind[T]) apply(r *Runtime, res *Result, a *Action) error {
	return k.apply_(r, res, *k.of(a))
}

func (k *kind[T]) touches(r *Runtime, a *Action) []string {
	if k.touches_ != nil {
		return k.touches_(r, *k.of(a))
	}
	if n := k.agent(a); n != "" {
		if ag := r.find(n); ag != nil {
			return ag.self
		}
		return []string{n}
	}
	return nil
}

// unless is why when ok is false, else "": a precondition's refusal.
func unless(ok bool, why string) string {
	if ok {
		return ""
	}
	return why
}

// allAgents is the touches of a runtime-wide action that every agent sees.
func allAgents[T any](r *Runtime, _ *T) []string { return r.order }

// actions is the action table; each action file declares its row.
var actions = union.NewTable(ActionKind.Name, func(k ActionKind) union.Field[Action] { return k.field })

// declare adds an action to the table; each action file calls it once.
// The row is the kind's pointer: a method called through ActionKind then
// reads the kind in place (a value would be copied at every call, and
// kindOf calls one for each row before the action's).
func declare[T any](k kind[T]) ActionKind { return actions.Declare(&k) }

// Actions is the action table in Action's field order.
func Actions() []ActionKind { return actions.Rows() }

// ActionNames are the keys of every action, in table order.
func ActionNames() []string { return actions.Keys() }

// TableProblems says where the action table and Action disagree (none:
// one row per field, in its place, of its type, named by its JSON key).
func TableProblems() []string {
	return union.Problems(actions.Members(ActionKind.Type), func(a *Action) string { return a.Name() })
}

// kindOf is the row of the action's set field, or nil for an empty action.
func kindOf(a *Action) ActionKind {
	for _, k := range Actions() {
		if k.in(a) {
			return k
		}
	}
	return nil
}

// Name is the action's key as written in a trace.
func (a Action) Name() string {
	if k := kindOf(&a); k != nil {
		return k.Name()
	}
	return ""
}

// Agent is the agent the action is about, or "" for runtime-wide actions.
func (a Action) Agent() string {
	if k := kindOf(&a); k != nil {
		return k.agent(&a)
	}
	return ""
}

// Introduces is the agent the action creates (fork's as, open's agent), or
// "" for none.
func (a Action) Introduces() string {
	if k := kindOf(&a); k != nil {
		return k.introduces(&a)
	}
	return ""
}

// Ready reports whether the runtime would accept the action in the state w
// shows: its agent exists, an agent it creates does not, and the action's
// own precondition holds (a step needs an open turn, a retry a failed
// request, …).
func (a Action) Ready(w State) bool { return a.Refusal(w) == "" }

// Refusal says why the runtime refuses the action in the state w shows
// ("" when it is ready): the one rule Runtime.Do applies and generators
// draw by.
func (a Action) Refusal(w State) string { return refusal(kindOf(&a), &a, w) }

// refusal is Refusal of the action a of kind k (nil: an empty action).
func refusal(k ActionKind, a *Action, w State) string {
	if k == nil {
		return "empty action"
	}
	if n := k.agent(a); n != "" && n != k.introduces(a) && !slices.Contains(w.Agents(), n) {
		return fmt.Sprintf("unknown agent %q", n)
	}
	if n := k.introduces(a); n != "" && slices.Contains(w.Agents(), n) {
		return fmt.Sprintf("agent %q already exists", n)
	}
	if why := k.refuses(w, a); why != "" {
		if n := k.agent(a); n != "" {
			why = fmt.Sprintf("agent %q: %s", n, why)
		}
		return k.Name() + ": " + why
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

// Chooser is the source of every random choice a generator makes (rapid's
// draws under go test, a seeded PRNG otherwise). Intn returns a value in
// [0, n).
type Chooser interface {
	Intn(label string, n int) int
}

// State is what an action's precondition (Action.Ready) reads: the
// runtime's own state when it applies an action (Runtime.Do), or what a
// generator knows of it (World).
type State interface {
	// Agents lists the agents in creation order.
	Agents() []string
	// Open reports whether the agent has an open turn.
	Open(agent string) bool
	// AwaitingRetry reports whether the agent's last request failed.
	AwaitingRetry(agent string) bool
	// Plugin reports whether the plan-mode plugin is composed (not
	// unloaded).
	Plugin() bool
}

// World is what a generator knows of the state it draws an action for (the
// property model implements it).
type World interface {
	State
	// Pending reports whether a selection waits for the agent.
	Pending(agent string) bool
	// LogLen is the length of the agent's log.
	LogLen(agent string) int
	// Listeners names the scripted pre-step listeners.
	Listeners() []string
	// HostTools names the host's own tools the model may call (none when
	// the host has none).
	HostTools() []string
	// MalformedPlanMode reports whether outside writers may append
	// plan/mode data with no boolean active: only where the
	// implementation declares what its fold does with it (choice
	// plan-mode-malformed); such data is not judged otherwise.
	MalformedPlanMode() bool
}

// Draw is one way generators draw an action: the name their weights refer
// to, and how it draws an action fit for w, or false when none is.
type Draw struct {
	Name string
	Make func(w World, c Chooser) (Action, bool)
	// Default: drawn with weight 1 by generators that do not weight it.
	// A draw that is not Default is drawn only by generators that weight
	// it. Only the draws that were there when the seeded sequences were
	// fixed are Default: since a generator draws a kind by summing the
	// weights of every kind (properties.Draw), a new Default draw shifts
	// every seeded sequence of every property and of lockstep, so a new
	// draw leaves this false and is weighted where it is meant to be drawn.
	Default bool
}

// MaxDrawnAgents bounds the agents generators create by forking.
const MaxDrawnAgents = 4

// Draws are every generated action kind, in table order.
func Draws() []Draw {
	var out []Draw
	for _, k := range Actions() {
		out = append(out, k.Draws()...)
	}
	return out
}

// pickAgent draws one of the agents ok accepts (nil: any).
func pickAgent(w World, c Chooser, ok func(string) bool) (string, bool) {
	var names []string
	for _, n := range w.Agents() {
		if ok == nil || ok(n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "", false
	}
	return names[c.Intn("agent", len(names))], true
}

func oneOf[T any](c Chooser, label string, xs ...T) T { return xs[c.Intn(label, len(xs))] }
