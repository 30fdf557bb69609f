package properties

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/internal/shrinker"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/trace"
)

// Failure is a property violation: the action at Index of Actions produced
// a result that missed Expect.
type Failure struct {
	Setup    Setup
	Actions  []sim.Action
	Index    int
	Expect   trace.Expect
	Messages []string
	// Note adds context, such as a sequence the implementation led off the
	// model.
	Note string
}

func (f *Failure) String() string {
	act := f.Actions[f.Index]
	return fmt.Sprintf("action %d (%s): %s", f.Index+1, act.String(), strings.Join(f.Messages, "; "))
}

// session runs one action sequence through the simulator and the model.
type session struct {
	prop  *property
	setup Setup
	rt    *sim.Runtime
	model *Model
	acts  []sim.Action
}

func startSession(prop *property, newPort func() sim.Port, setup Setup) (*session, *Failure, error) {
	rt, load, err := sim.New(newPort(), setup.Options())
	if err != nil {
		return nil, nil, err
	}
	s := &session{prop: prop, setup: setup, rt: rt, model: NewModel(setup, prop.choicesOf(rt.Identity().Choices))}
	s.model.ReviewReplies = rt.Identity().ReviewReplies
	if load.Error != "" {
		rt.Close()
		act := sim.Action{Load: &sim.LoadAction{Config: setup.Options().Config}}
		return nil, &Failure{Setup: setup, Actions: []sim.Action{act}, Expect: trace.Expect{Error: ptr(false)}, Messages: []string{"the implementation rejected a valid config (CFG-1): " + load.Error}}, nil
	}
	return s, nil, nil
}

// do runs one action, checks the property's obligations and returns the
// first one missed. Where the model follows several readings of silent
// points the implementation leaves undeclared, the action passes when one
// reading that explained every earlier action explains it too
// (Model.Settle); the failure reported is the model's own reading's.
func (s *session) do(act sim.Action, expect func(sim.Action, Prediction) []trace.Expect) (*Failure, error) {
	s.acts = append(s.acts, act)
	p := s.model.Apply(act)
	res, err := s.rt.Do(act)
	if err != nil {
		return nil, err
	}
	f := s.check(act, expect(act, p), res)
	if s.settleReadings(act, p, res, f, expect) {
		return nil, nil
	}
	return f, nil
}

// settleReadings keeps the readings of the model that explain the action
// (Model.Settle), given f, the failure under the model's own; it reports
// whether one did. A reading that predicts what the model's own does is
// judged as it is.
func (s *session) settleReadings(act sim.Action, p Prediction, res sim.Result, f *Failure, expect func(sim.Action, Prediction) []trace.Expect) bool {
	if len(p.Alts) == 0 {
		return f == nil
	}
	// A property that compares part of a result cannot tell readings apart
	// by what it does not compare (a padded /plan read as a message steers
	// it and wakes the agent; read bare, it does neither), yet the actions
	// drawn next must fit the reading the implementation took. The whole
	// result decides first, when some reading explains it whole.
	if f == nil {
		own := s.check(act, fullExpect(act, p), res) == nil
		if oks := s.altsHold(act, p, res, own, fullExpect); own || slices.Contains(oks, true) {
			return s.model.Settle(own, oks)
		}
	}
	return s.model.Settle(f == nil, s.altsHold(act, p, res, f == nil, expect))
}

// altsHold says, for each alt of p, whether expect holds on res under its
// reading; an alt that predicts what the model's own does holds as the
// model's own does (own).
func (s *session) altsHold(act sim.Action, p Prediction, res sim.Result, own bool, expect func(sim.Action, Prediction) []trace.Expect) []bool {
	oks := make([]bool, len(p.Alts))
	for i, alt := range p.Alts {
		if p.Same[i] {
			oks[i] = own
		} else {
			oks[i] = s.check(act, expect(act, alt), res) == nil
		}
	}
	return oks
}

// settle is do's bookkeeping of the readings for an action of an explored
// state's prefix, which passed when it was explored: only where the two
// readings expect different things does the result say which remain.
func (s *session) settle(act sim.Action, p Prediction, res sim.Result) *Failure {
	if len(p.Alts) == 0 {
		return nil
	}
	f := s.check(act, fullExpect(act, p), res)
	if s.settleReadings(act, p, res, f, fullExpect) {
		return nil
	}
	return f
}

// check returns the first of xs the action's result misses, as a failure.
func (s *session) check(act sim.Action, xs []trace.Expect, res sim.Result) *Failure {
	for _, x := range xs {
		if msgs := x.Check(act.Agent(), res); len(msgs) > 0 {
			return &Failure{Setup: s.setup, Actions: append([]sim.Action(nil), s.acts...), Index: len(s.acts) - 1, Expect: x, Messages: msgs}
		}
	}
	return nil
}

// errDiverged marks a sequence the runtime refused because the
// implementation led it somewhere the model did not go.
var errDiverged = errors.New("diverged")

// replay runs a fixed sequence; ok is false when the model finds an action
// invalid (a shrink candidate that no longer fits).
func replay(prop *property, newPort func() sim.Port, setup Setup, acts []sim.Action) (f *Failure, ok bool, err error) {
	if prop.kind == "determinism" {
		return replayTwice(prop, newPort, setup, acts)
	}
	s, f, err := startSession(prop, newPort, setup)
	if err != nil || f != nil {
		return f, true, err
	}
	defer s.rt.Close()
	for _, act := range acts {
		if !s.model.Valid(act) {
			return nil, false, nil
		}
		f, err := s.do(act, prop.expect)
		if err != nil {
			var in *sim.InputError
			if errors.As(err, &in) {
				return diverged(prop, newPort, setup, s.acts, in)
			}
			return nil, true, err
		}
		if f != nil {
			return f, true, nil
		}
	}
	return nil, true, nil
}

// diverged explains an action the runtime refused although the model
// allowed it: the implementation took the runtime off the model's path
// earlier. The full model check finds where.
func diverged(prop *property, newPort func() sim.Port, setup Setup, acts []sim.Action, in *sim.InputError) (*Failure, bool, error) {
	full := prop.full()
	s, f, err := startSession(full, newPort, setup)
	if err != nil || f != nil {
		return f, true, err
	}
	defer s.rt.Close()
	for _, act := range acts {
		f, err := s.do(act, fullExpect)
		if f != nil {
			f.Note = fmt.Sprintf("the implementation led the runtime off the model's path (a later action was refused: %s)", in.Msg)
			return f, true, nil
		}
		if err != nil {
			break
		}
	}
	return nil, true, fmt.Errorf("%w: the runtime refused %s, which the model allows: %s", errDiverged, acts[len(acts)-1], in.Msg)
}

// generate draws and runs a sequence of up to steps actions, stopping at
// the first failure.
func generate(prop *property, newPort func() sim.Port, c Chooser, steps int) (*Failure, error) {
	setup := DrawSetup(c)
	if prop.host {
		setup = DrawHost(c, setup)
	}
	setup = setup.Within(prop.id)
	if prop.kind == "determinism" {
		choices, err := declaredChoices(prop, newPort)
		if err != nil {
			return nil, err
		}
		// The model only decides which actions are valid here.
		m := NewModel(setup, choices)
		var acts []sim.Action
		for range steps {
			act := Draw(m, c, prop.weights)
			m.Apply(act)
			acts = append(acts, act)
		}
		f, _, err := replayTwice(prop, newPort, setup, acts)
		return f, err
	}
	s, f, err := startSession(prop, newPort, setup)
	if err != nil || f != nil {
		return f, err
	}
	defer s.rt.Close()
	for range steps {
		act := Draw(s.model, c, prop.weights)
		f, err := s.do(act, prop.expect)
		if err != nil {
			var in *sim.InputError
			if errors.As(err, &in) {
				f, _, err := diverged(prop, newPort, setup, s.acts, in)
				return f, err
			}
			return nil, err
		}
		if f != nil {
			return f, nil
		}
	}
	return nil, nil
}

// replayTwice runs acts against two fresh instances in lockstep and
// compares every result byte for byte.
func replayTwice(prop *property, newPort func() sim.Port, setup Setup, acts []sim.Action) (*Failure, bool, error) {
	choices, err := declaredChoices(prop, newPort)
	if err != nil {
		return nil, true, err
	}
	m := NewModel(setup, choices)
	for _, act := range acts {
		if !m.Valid(act) {
			return nil, false, nil
		}
		m.Apply(act)
	}
	var rts [2]*sim.Runtime
	for i := range rts {
		rt, _, err := sim.New(newPort(), setup.Options())
		if err != nil {
			return nil, true, err
		}
		defer rt.Close()
		rts[i] = rt
	}
	for i, act := range acts {
		var res [2]sim.Result
		for j, rt := range rts {
			r, err := rt.Do(act)
			var in *sim.InputError
			if errors.As(err, &in) {
				return diverged(prop, newPort, setup, acts[:i+1], in)
			}
			if err != nil {
				return nil, true, err
			}
			res[j] = r
		}
		a, _ := json.Marshal(res[0])
		b, _ := json.Marshal(res[1])
		if string(a) == string(b) {
			continue
		}
		for _, x := range observed(res[0]) {
			if msgs := x.Check(act.Agent(), res[1]); len(msgs) > 0 {
				return &Failure{Setup: setup, Actions: acts[:i+1], Index: i, Expect: x, Messages: msgs}, true, nil
			}
		}
		return &Failure{Setup: setup, Actions: acts[:i+1], Index: i, Messages: []string{fmt.Sprintf("two runs of the same sequence differ:\n  first:  %s\n  second: %s", a, b)}}, true, nil
	}
	return nil, true, nil
}

// choicesOf is what the model honours in this property's run: the
// declared choices and the assumed deviations.
func (p *property) choicesOf(declared map[string]string) Choices {
	c := ChoicesOf(declared)
	c.Assume = p.assume
	return c
}

// full is the whole-model property with this run's assumptions.
func (p *property) full() *property {
	f := *lookup(NameStateMachine)
	f.assume = p.assume
	return &f
}

// declaredChoices starts an instance to read the choices it declares.
func declaredChoices(prop *property, newPort func() sim.Port) (Choices, error) {
	port := newPort()
	id, err := sim.Start(port)
	if err != nil {
		return Choices{}, &sim.ImplError{Op: "start", Err: err}
	}
	if err := port.Stop(); err != nil {
		return Choices{}, &sim.ImplError{Op: "stop", Err: err}
	}
	return prop.choicesOf(id.Choices), nil
}

// observed turns one run's result into expectations another run must meet.
func observed(r sim.Result) []trace.Expect {
	byAgent := map[string]*trace.Expect{}
	var order []string
	get := func(n string) *trace.Expect {
		if x, ok := byAgent[n]; ok {
			return x
		}
		x := &trace.Expect{Agent: n, Appended: []trace.EventExpect{}}
		byAgent[n] = x
		order = append(order, n)
		return x
	}
	for _, a := range r.Appended {
		x := get(a.Agent)
		x.Appended = append(x.Appended, trace.EventExpect{Type: a.Event.Type, Data: a.Event.Data})
	}
	for _, s := range r.After {
		get(s.Agent).State = &trace.StateExpect{Active: ptr(s.Get.Active), Pending: pendingJSON(s.Get.Pending)}
	}
	var out []trace.Expect
	for _, n := range order {
		out = append(out, *byAgent[n])
	}
	if r.Outcome != "" {
		out = append(out, trace.Expect{Outcome: r.Outcome})
	}
	if r.Decision != "" {
		out = append(out, trace.Expect{Decision: r.Decision})
	}
	return out
}

// shrink removes and simplifies actions while the property still fails,
// so the counterexample is short. budget bounds the replays.
func shrink(prop *property, newPort func() sim.Port, f *Failure, budget int) (*Failure, error) {
	best := f
	// A failure under the default setup is easier to read.
	if def := (Setup{Services: sim.Services{Commands: true, UserQuestions: true}, Retries: sim.RetriesPreStep}); best.Setup != def {
		budget--
		if g, ok, err := replay(prop, newPort, def, best.Actions[:best.Index+1]); err == nil && ok && g != nil {
			best = g
		}
	}
	try := func(acts []sim.Action) ([]sim.Action, bool, error) {
		g, ok, err := replay(prop, newPort, best.Setup, acts)
		if err != nil {
			if errors.Is(err, errDiverged) {
				return nil, false, nil
			}
			return nil, false, err
		}
		if !ok || g == nil {
			return nil, false, nil
		}
		best = g
		return g.Actions[:g.Index+1], true, nil
	}
	if _, err := shrinker.Sequence(best.Actions[:best.Index+1], budget, try, Simpler); err != nil {
		return best, err
	}
	best.Actions = best.Actions[:best.Index+1]
	return best, nil
}

// Simpler returns simpler variants of a step action: without its model
// response, its listeners, its decision or its request outcome.
func Simpler(act sim.Action) []sim.Action {
	s := act.Step
	retry := false
	if s == nil {
		s, retry = act.Retry, true
	}
	if s == nil {
		return nil
	}
	var out []sim.Action
	add := func(change func(*sim.StepAction)) {
		c := *s
		change(&c)
		if c.Decision == s.Decision && c.Model == s.Model && c.Request == s.Request && len(c.Listeners) == len(s.Listeners) {
			return
		}
		if retry {
			out = append(out, sim.Action{Retry: &c})
		} else {
			out = append(out, sim.Action{Step: &c})
		}
	}
	add(func(c *sim.StepAction) { c.Model = nil })
	add(func(c *sim.StepAction) { c.Listeners = nil })
	add(func(c *sim.StepAction) { c.Decision = "" })
	add(func(c *sim.StepAction) { c.Request = "" })
	return out
}
