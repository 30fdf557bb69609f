package loop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/plankit/plankit/internal/union"
	"github.com/plankit/plankit/sim"
)

// Step is one thing the outside world does between turns; exactly one
// member is set.
//
// Each member is one kind of step, declared once in its own file
// (step_NAME.go) as a row of the step table (StepKinds), as sim declares
// its actions: its key, the agent it concerns, what it needs of the
// runtime, its precondition, how a session plays it, its trace schema,
// its example and what it does, how generators draw it and the letters
// the exhaustive searches combine. The table is in the members' order,
// which is the order of the runtime trace schema, of its documentation
// and of the alphabet.
type Step struct {
	Turn    *TurnRequest
	Set     *SetRequest
	Get     *AgentRequest
	Command *CommandRequest
	Append  *AppendRequest
	Fault   *FaultRequest
	Restart *struct{}
	Reload  *struct{}
	// Open starts a new agent from a given log (the plugin level's open
	// action); Unload disposes plan mode without loading it again.
	Open   *OpenStep
	Unload *struct{}
	// Expect is what the step must show; the runtime never sees it.
	Expect *Expect
}

// expectKey is the key of a step's expectation in a runtime trace.
const expectKey = "expect"

// MarshalJSON writes the step as a runtime trace does: each set member
// under its row's key, in table order, then its expectation. The keys are
// the table's (the members carry none of their own).
func (s Step) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	member := func(key string, v any) error {
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:", key)
		b.Write(data)
		return nil
	}
	for _, k := range StepKinds() {
		if k.in(&s) {
			if err := member(k.Name(), k.field(&s)); err != nil {
				return nil, err
			}
		}
	}
	if s.Expect != nil {
		if err := member(expectKey, s.Expect); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads a step as a runtime trace writes it: each member by
// its row's key, and the expectation. A key the table does not have is
// left to the schema to refuse, as encoding/json leaves an unknown field.
func (s *Step) UnmarshalJSON(data []byte) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return err
	}
	*s = Step{}
	for _, k := range StepKinds() {
		if v, ok := members[k.Name()]; ok {
			if err := k.decode(s, v); err != nil {
				return fmt.Errorf("%s: %w", k.Name(), err)
			}
		}
	}
	if v, ok := members[expectKey]; ok {
		return json.Unmarshal(v, &s.Expect)
	}
	return nil
}

// OpenStep starts a new agent from a given log: the plugin level's open
// action (sim.OpenAction), the same names and fields at both levels. It is
// carried by the protocol's open method; a non-empty log needs resume.
type OpenStep = sim.OpenAction

// StepKind is one row of the step table: one member of Step, as its own
// file declares it.
type StepKind interface {
	// Name is the step's key in a runtime trace.
	Name() string
	// Type is the Go type of the member's value.
	Type() reflect.Type
	// Doc says what the step does (docs/runtime-trace-format.md).
	Doc() string
	// Example is one step of the kind as a runtime trace writes it (YAML).
	Example() string
	// Schema is the JSON Schema of the member's value in a runtime trace
	// (it may refer to the runtime protocol's schemas by their $id).
	Schema() json.RawMessage
	// Draws are the ways generators draw the step (none: never drawn).
	Draws() []Draw
	// Letters are the steps of the kind the exhaustive searches combine,
	// as far as caps allows: the alphabet's (Alphabet), and those the
	// widened alphabet adds (WideAlphabet).
	Letters(caps Capabilities) (alphabet, wide []Step)

	in(*Step) bool
	field(*Step) any
	decode(*Step, json.RawMessage) error
	agent(*Step) string
	needs(*Step) string
	script(*Step) *Script
	detail(*Step) string
	asksService() bool
	unloadedAfter(unloaded bool) bool
	recomposes() bool
	refuses(State, *Step) string
	introducesAgent() bool
	play(*Session, *StepDone, *Step) error
}

// State is what a step's precondition reads of a session: its agents and
// whether plan mode is unloaded.
type State struct {
	Agents   []string
	Unloaded bool
}

// composition is what a step does to plan mode being composed.
type composition int

const (
	keeps   composition = iota
	unloads             // disposes plan mode
	loads               // loads plan mode again (from the logs)
)

// kind declares one kind of step. T is the type of its member of Step.
type kind[T any] struct {
	// key is the step's key in a trace and its member's JSON name.
	key string
	// of returns the step's member.
	of func(*Step) **T
	// agent_ is the agent the step concerns (nil: runtime-wide).
	agent_ func(*T) string
	// introduces is whether the step creates its agent (open): its agent
	// must not exist yet, where any other step's must, and its play
	// observes what opening it caused.
	introduces bool
	// need is the capability the step needs of the runtime ("": none),
	// when needIf says so (nil: always); the capabilities its script
	// needs are added to it.
	need   string
	needIf func(*T) bool
	// script_ is the model's script of a step that runs the loop (nil:
	// the step runs none).
	script_ func(*T) *Script
	// detail_ is what a timeline shows of the step after its key and
	// agent (nil: nothing).
	detail_ func(*T) string
	// service: the step calls ctx.planMode (get or set).
	service bool
	// composition is what the step does to plan mode being composed.
	composition composition
	// refuses_ is the step's precondition beyond its agent existing (or,
	// for a step that introduces its agent, not existing) and plan mode
	// being there to ask (nil: none): why a session refuses the step in
	// that state, "" when it plays it. A refused step is bad input.
	refuses_ func(State, *T) string
	// play_ asks the runtime and keeps what it answered in done.
	play_ func(*Session, *StepDone, *T) error
	// doc says what the step does; example is one step as a trace writes
	// it; schema is the JSON Schema of the member's value.
	doc, example, schema string
	// draws are the ways generators draw it.
	draws []Draw
	// letters are its steps in the exhaustive searches' alphabets.
	letters func(Capabilities) (alphabet, wide []Step)
}

func (k kind[T]) Name() string            { return k.key }
func (k kind[T]) Type() reflect.Type      { return reflect.TypeFor[T]() }
func (k kind[T]) Doc() string             { return k.doc }
func (k kind[T]) Example() string         { return k.example }
func (k kind[T]) Schema() json.RawMessage { return json.RawMessage(k.schema) }
func (k kind[T]) Draws() []Draw           { return k.draws }
func (k kind[T]) in(s *Step) bool         { return *k.of(s) != nil }
func (k kind[T]) field(s *Step) any       { return k.of(s) }
func (k kind[T]) decode(s *Step, data json.RawMessage) error {
	return json.Unmarshal(data, k.of(s))
}
func (k kind[T]) introducesAgent() bool { return k.introduces }
func (k kind[T]) asksService() bool     { return k.service }

func (k kind[T]) Letters(caps Capabilities) (alphabet, wide []Step) {
	if k.letters == nil {
		return nil, nil
	}
	return k.letters(caps)
}

func (k kind[T]) agent(s *Step) string {
	if k.agent_ == nil {
		return ""
	}
	return k.agent_(*k.of(s))
}

func (k kind[T]) needs(s *Step) string {
	if k.needIf != nil && !k.needIf(*k.of(s)) {
		return ""
	}
	return k.need
}

func (k kind[T]) script(s *Step) *Script {
	if k.script_ == nil {
		return nil
	}
	return k.script_(*k.of(s))
}

func (k kind[T]) detail(s *Step) string {
	if k.detail_ == nil {
		return ""
	}
	return k.detail_(*k.of(s))
}

func (k kind[T]) recomposes() bool { return k.composition != keeps }

func (k kind[T]) unloadedAfter(unloaded bool) bool {
	switch k.composition {
	case unloads:
		return true
	case loads:
		return false
	}
	return unloaded
}

func (k kind[T]) refuses(st State, s *Step) string {
	if a := k.agent(s); k.introduces {
		if a == "" {
			return k.key + " needs an agent"
		}
		if slices.Contains(st.Agents, a) {
			return fmt.Sprintf("%s: agent %q is already open", k.key, a)
		}
	} else if a != "" && !slices.Contains(st.Agents, a) {
		return fmt.Sprintf("unknown agent %q (agents: %v)", a, st.Agents)
	}
	if st.Unloaded && asksService(*s) {
		return fmt.Sprintf("%s asks ctx.planMode (get or set) while plan mode is unloaded; reload or restart first", k.key)
	}
	if k.refuses_ == nil {
		return ""
	}
	return k.refuses_(st, *k.of(s))
}

func (k kind[T]) play(s *Session, done *StepDone, st *Step) error {
	return k.play_(s, done, *k.of(st))
}

// steps is the step table; each step file declares its row.
var steps = union.NewTable(StepKind.Name, func(k StepKind) union.Field[Step] { return k.field })

// declare adds a kind of step to the table; each step file calls it once.
func declare[T any](k kind[T]) StepKind { return steps.Declare(k) }

// StepKinds is the step table in Step's member order.
func StepKinds() []StepKind { return steps.Rows() }

// kindOf is the row of the step's first set member, or noStep for an
// empty step.
func kindOf(s *Step) StepKind {
	for _, k := range StepKinds() {
		if k.in(s) {
			return k
		}
	}
	return noStep{}
}

// noStep is the row of an empty step: it has no key, no agent and needs
// nothing, and a session refuses to play it.
type noStep struct{}

func (noStep) Name() string                                 { return "" }
func (noStep) Type() reflect.Type                           { return nil }
func (noStep) Doc() string                                  { return "" }
func (noStep) Example() string                              { return "" }
func (noStep) Schema() json.RawMessage                      { return nil }
func (noStep) Draws() []Draw                                { return nil }
func (noStep) Letters(Capabilities) (alphabet, wide []Step) { return nil, nil }
func (noStep) in(*Step) bool                                { return false }
func (noStep) field(*Step) any                              { return nil }
func (noStep) decode(*Step, json.RawMessage) error          { return nil }
func (noStep) agent(*Step) string                           { return "" }
func (noStep) needs(*Step) string                           { return "" }
func (noStep) script(*Step) *Script                         { return nil }
func (noStep) detail(*Step) string                          { return "" }
func (noStep) asksService() bool                            { return false }
func (noStep) unloadedAfter(unloaded bool) bool             { return unloaded }
func (noStep) recomposes() bool                             { return false }
func (noStep) refuses(State, *Step) string                  { return "empty step" }
func (noStep) introducesAgent() bool                        { return false }
func (noStep) play(*Session, *StepDone, *Step) error        { return &sim.InputError{Msg: "empty step"} }

// StepNames are the keys of every kind of step, in table order.
func StepNames() []string { return steps.Keys() }

// TableProblems says where the step table and Step disagree (none: one row
// per member but the expectation, in its place, of its type, naming it).
func TableProblems() []string {
	return union.Problems(steps.Members(StepKind.Type), func(s *Step) string {
		if s.Members() != 1 {
			return fmt.Sprintf("%d members", s.Members())
		}
		return s.Name()
	}, "Expect")
}

// Members counts the step's set members (a well-formed step has exactly
// one).
func (s Step) Members() int {
	n := 0
	for _, k := range StepKinds() {
		if k.in(&s) {
			n++
		}
	}
	return n
}

// Name is the step's key.
func (s Step) Name() string { return kindOf(&s).Name() }

// Agent is the agent the step is about ("" for runtime-wide steps:
// restart, reload and unload).
func (s Step) Agent() string { return kindOf(&s).agent(&s) }

// ScriptOf is the model's script of a step that runs the loop: a turn's,
// or a command's that starts one; nil for any other step.
func (s Step) ScriptOf() *Script { return kindOf(&s).script(&s) }

// Refusal says why a session refuses the step in the state st says ("":
// it plays it): the step table's precondition, the one rule the session
// applies.
func (s Step) Refusal(st State) string { return kindOf(&s).refuses(st, &s) }

// unloadedAfter is whether plan mode is unloaded after the step, given
// whether it was before: an unload disposes it, a reload or a restart
// loads it again.
func (s Step) unloadedAfter(unloaded bool) bool { return kindOf(&s).unloadedAfter(unloaded) }

// recomposes reports whether a step loads or unloads plan mode (a reload,
// a restart, an unload): the plugin registers its tool anew after it.
func (s Step) recomposes() bool { return kindOf(&s).recomposes() }

// asksService reports whether a step calls ctx.planMode: a get or set
// step, or a get or set host action in its script.
func asksService(st Step) bool {
	if kindOf(&st).asksService() {
		return true
	}
	for h := range st.ScriptOf().HostActions() {
		if h.Get != nil || h.Set != nil {
			return true
		}
	}
	return false
}
