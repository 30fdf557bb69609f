package loop

import (
	"fmt"

	"github.com/plankit/plankit/sim"
)

// Step is one thing the outside world does between turns; exactly one
// member is set.
//
// Each member is one kind of step, declared once in the step table
// (steps): its key, the agent it concerns, what it needs of the runtime
// and how a session plays it. The table is in the members' order.
type Step struct {
	Turn    *TurnRequest    `json:"turn,omitempty"`
	Set     *SetRequest     `json:"set,omitempty"`
	Get     *AgentRequest   `json:"get,omitempty"`
	Command *CommandRequest `json:"command,omitempty"`
	Append  *AppendRequest  `json:"append,omitempty"`
	Fault   *FaultRequest   `json:"fault,omitempty"`
	Restart *struct{}       `json:"restart,omitempty"`
	Reload  *struct{}       `json:"reload,omitempty"`
	// Open starts a new agent from a given log (the plugin level's open
	// action); Unload disposes plan mode without loading it again.
	Open   *OpenStep `json:"open,omitempty"`
	Unload *struct{} `json:"unload,omitempty"`
	// Expect is what the step must show; the runtime never sees it.
	Expect *Expect `json:"expect,omitempty"`
}

// OpenStep starts a new agent from a given log: the plugin level's open
// action (sim.OpenAction), the same names and fields at both levels. It is
// carried by the protocol's open method; a non-empty log needs resume.
type OpenStep = sim.OpenAction

// stepKind is one row of the step table: one member of Step.
type stepKind interface {
	name() string
	in(*Step) bool
	agent(*Step) string
	needs(*Step) string
	script(*Step) *Script
	detail(*Step) string
	asksService() bool
	unloadedAfter(unloaded bool) bool
	recomposes() bool
	play(*Session, *StepDone, *Step) error
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
	// play_ asks the runtime and keeps what it answered in done (nil for
	// open: it introduces its agent, so Session.open plays it whole).
	play_ func(*Session, *StepDone, *T) error
}

func (k kind[T]) name() string      { return k.key }
func (k kind[T]) in(s *Step) bool   { return *k.of(s) != nil }
func (k kind[T]) asksService() bool { return k.service }
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

func (k kind[T]) play(s *Session, done *StepDone, st *Step) error {
	return k.play_(s, done, *k.of(st))
}

// steps is the step table, in Step's member order.
var steps = []stepKind{
	kind[TurnRequest]{
		key:     "turn",
		of:      func(s *Step) **TurnRequest { return &s.Turn },
		agent_:  func(t *TurnRequest) string { return t.Agent },
		script_: func(t *TurnRequest) *Script { return &t.Script },
		detail_: func(t *TurnRequest) string { return fmt.Sprintf(" %q", t.Prompt) },
		play_: func(s *Session, done *StepDone, t *TurnRequest) (err error) {
			done.Obs, err = s.rt.Turn(*t)
			return err
		},
	},
	kind[SetRequest]{
		key:     "set",
		of:      func(s *Step) **SetRequest { return &s.Set },
		agent_:  func(r *SetRequest) string { return r.Agent },
		detail_: func(r *SetRequest) string { return fmt.Sprintf(" active=%t", r.Active) },
		service: true,
		play_: func(s *Session, done *StepDone, q *SetRequest) error {
			r, err := s.rt.Set(*q)
			done.Obs, done.Set = r.Observation, &r.SetResult
			return err
		},
	},
	kind[AgentRequest]{
		key:     "get",
		of:      func(s *Step) **AgentRequest { return &s.Get },
		agent_:  func(r *AgentRequest) string { return r.Agent },
		service: true,
		play_: func(s *Session, done *StepDone, q *AgentRequest) error {
			g, err := s.rt.Get(*q)
			done.Get = &g
			return err
		},
	},
	kind[CommandRequest]{
		key:     "command",
		of:      func(s *Step) **CommandRequest { return &s.Command },
		agent_:  func(r *CommandRequest) string { return r.Agent },
		need:    "commands",
		script_: func(r *CommandRequest) *Script { return r.Script },
		detail_: func(r *CommandRequest) string { return fmt.Sprintf(" %q", r.Input) },
		play_: func(s *Session, done *StepDone, q *CommandRequest) error {
			r, err := s.rt.Command(*q)
			done.Obs, done.Command = r.Observation, &r.CommandResult
			return err
		},
	},
	kind[AppendRequest]{
		key:    "append",
		of:     func(s *Step) **AppendRequest { return &s.Append },
		agent_: func(r *AppendRequest) string { return r.Agent },
		need:   "outsideAppend",
		play_: func(s *Session, done *StepDone, q *AppendRequest) (err error) {
			done.Obs, err = s.rt.Append(*q)
			return err
		},
	},
	kind[FaultRequest]{
		key:    "fault",
		of:     func(s *Step) **FaultRequest { return &s.Fault },
		agent_: func(r *FaultRequest) string { return r.Agent },
		need:   "failAppend",
		play_:  func(s *Session, _ *StepDone, q *FaultRequest) error { return s.rt.Fault(*q) },
	},
	kind[struct{}]{
		key:         "restart",
		of:          func(s *Step) **struct{} { return &s.Restart },
		need:        "resume",
		composition: loads,
		play_: func(s *Session, _ *StepDone, _ *struct{}) error {
			if err := s.stopForRestart(); err != nil {
				return err
			}
			return s.start(false)
		},
	},
	kind[struct{}]{
		key:         "reload",
		of:          func(s *Step) **struct{} { return &s.Reload },
		need:        "reload",
		composition: loads,
		play_: func(s *Session, done *StepDone, _ *struct{}) error {
			r, err := s.rt.Reload()
			done.Obs, done.Error = r.Observation, r.Error
			return err
		},
	},
	kind[OpenStep]{
		key:    "open",
		of:     func(s *Step) **OpenStep { return &s.Open },
		agent_: func(o *OpenStep) string { return o.Agent },
		need:   "resume",
		needIf: func(o *OpenStep) bool { return len(o.Log) > 0 },
	},
	kind[struct{}]{
		key:         "unload",
		of:          func(s *Step) **struct{} { return &s.Unload },
		need:        "unload",
		composition: unloads,
		play_:       func(s *Session, _ *StepDone, _ *struct{}) error { return s.rt.Unload() },
	},
}

// kindOf is the row of the step's first set member, or noStep for an
// empty step.
func kindOf(s *Step) stepKind {
	for _, k := range steps {
		if k.in(s) {
			return k
		}
	}
	return noStep{}
}

// noStep is the row of an empty step: it has no key, no agent and needs
// nothing, and a session refuses to play it.
type noStep struct{}

func (noStep) name() string                     { return "" }
func (noStep) in(*Step) bool                    { return false }
func (noStep) agent(*Step) string               { return "" }
func (noStep) needs(*Step) string               { return "" }
func (noStep) script(*Step) *Script             { return nil }
func (noStep) detail(*Step) string              { return "" }
func (noStep) asksService() bool                { return false }
func (noStep) unloadedAfter(unloaded bool) bool { return unloaded }
func (noStep) recomposes() bool                 { return false }
func (noStep) play(*Session, *StepDone, *Step) error {
	return &sim.InputError{Msg: "empty step"}
}

// StepNames are the keys of every kind of step, in table order.
func StepNames() []string {
	out := make([]string, len(steps))
	for i, k := range steps {
		out[i] = k.name()
	}
	return out
}

// Members counts the step's set members (a well-formed step has exactly
// one).
func (s Step) Members() int {
	n := 0
	for _, k := range steps {
		if k.in(&s) {
			n++
		}
	}
	return n
}

// Name is the step's key.
func (s Step) Name() string { return kindOf(&s).name() }

// Agent is the agent the step is about ("" for runtime-wide steps:
// restart, reload and unload).
func (s Step) Agent() string { return kindOf(&s).agent(&s) }

// ScriptOf is the model's script of a step that runs the loop: a turn's,
// or a command's that starts one; nil for any other step.
func (s Step) ScriptOf() *Script { return kindOf(&s).script(&s) }

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
