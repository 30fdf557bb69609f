package lockstep

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// Departure is where a failing check's run first departed from the
// reference: the action whose result or resulting state differed first,
// the observation that showed it, and its clauses. A check names the cause
// of its failure by it, not by the observation that finally failed (a
// selection dropped at a rejected step is named STEP-3 there, not PEND-7 at
// the get that later showed nothing pending).
type Departure struct {
	Diff
	// Index is the departing action, from 0; Action is it.
	Index  int
	Action sim.Action
}

// String says which action departed, what SPEC.md requires there (the
// words of its first clause) and what differed.
func (d *Departure) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "first departure at action %d (%s): %s", d.Index+1, d.Action.Name(), d.Diff.String())
	if len(d.Clauses) > 0 {
		if c, ok := spec.Lookup(d.Clauses[0]); ok {
			fmt.Fprintf(&b, "; %s: %s", c.ID, c.Statement)
		}
	}
	return b.String()
}

// Depart replays a run — the runtime options it started with and the
// actions it ran, as a scenario recorded them — side by side with the
// reference (the implementation's declared choices, the assumed
// variants, each reading of a followed choice it leaves undeclared), with
// get() of every agent probed after every action, and returns the first
// departure: the first action whose result or resulting state differed,
// named by the attribution table. Under several readings it is the
// latest departure (the reading that agreed longest). Nil when the run
// agrees with the reference throughout (what failed is not something
// lockstep compares, or the reference fails the same way).
func Depart(newImpl func() sim.Port, assume []string, opts sim.Options, acts []sim.Action) (*Departure, error) {
	port := newImpl()
	id, err := sim.Start(port)
	if err != nil {
		return nil, &sim.ImplError{Op: "start", Err: err}
	}
	if err := port.Stop(); err != nil {
		return nil, &sim.ImplError{Op: "stop", Err: err}
	}
	var best *Departure
	var bestRef func() sim.Port
	for _, reading := range partingReadings(id.Choices, acts) {
		newRef, err := ReferenceFor(reading, assume)
		if err != nil {
			return nil, err
		}
		d, err := departOnce(newRef, newImpl, opts, acts)
		if err != nil {
			return nil, err
		}
		if d == nil {
			return nil, nil // a reading explains the whole run
		}
		if best == nil || d.Index > best.Index {
			best, bestRef = d, newRef
		}
	}
	best.selectionBehindReply(bestRef, newImpl, opts, acts)
	best.hiddenNotDropped(bestRef, newImpl, opts, acts)
	best.noticeLate(bestRef, newImpl, opts, acts)
	return best, nil
}

// hiddenNotDropped tells, for a get that shows nothing pending where the
// reference shows a selection, one the implementation only hides from get
// (PEND-7) from one it dropped (the rows of the action, by its
// situation): it plays the same actions, then an accepted step of the
// agent (a prompt first when its turn is closed), and when both sides
// append the same selection there, the implementation had kept it.
func (d *Departure) hiddenNotDropped(newRef, newImp func() sim.Port, opts sim.Options, acts []sim.Action) {
	if d.Observation != ObsGet || !hidesPending(&d.Diff) || d.Agent == "" {
		return
	}
	r, i, ok := oneMoreStep(newRef, newImp, opts, acts[:d.Index+1], d.Agent)
	if rv, iv := planValues(r, d.Agent), planValues(i, d.Agent); ok && len(rv) > 0 && show(rv) == show(iv) {
		d.Clauses = attribution.Row(attribution.RowGetHidden)
	}
}

// noticeLate tells, for a step that shows fewer notices than the
// reference's, a notice handed to a later step (STEP-7: it is part of its
// own step's messages) from one never given (STEP-6): it plays the same
// actions, then one more accepted step of the agent, and when the
// implementation's step there shows more notices than the reference's,
// the notice came late.
func (d *Departure) noticeLate(newRef, newImp func() sim.Port, opts sim.Options, acts []sim.Action) {
	if d.Observation != ObsNotices || d.Agent == "" || d.Expect.Notices == nil {
		return
	}
	r, i, ok := oneMoreStep(newRef, newImp, opts, acts[:d.Index+1], d.Agent)
	if ok && len(i.Notices(d.Agent)) > len(r.Notices(d.Agent)) {
		d.Clauses = attribution.Row(attribution.RowNoticesLate)
	}
}

// oneMoreStep plays acts on both sides, then an accepted step of agent (a
// prompt first when its turn is closed), and returns that step's results;
// ok is false when either side could not play them.
func oneMoreStep(newRef, newImp func() sim.Port, opts sim.Options, acts []sim.Action, agent string) (ref, imp sim.Result, ok bool) {
	p, first, err := startPairWith(newRef, newImp, opts)
	if err != nil || first != nil {
		return ref, imp, false
	}
	defer p.close()
	both := func(act sim.Action) (sim.Result, sim.Result, bool) {
		r, err1 := p.ref.Do(act)
		if err1 != nil {
			return r, sim.Result{}, false
		}
		i, err2 := p.imp.Do(act)
		return r, i, err2 == nil
	}
	for _, act := range acts {
		if _, _, ok := both(act); !ok {
			return ref, imp, false
		}
	}
	if _, open := p.ref.Status(agent); !open {
		if _, _, ok := both(sim.Action{Prompt: &sim.TextAction{Agent: agent, Text: "Go on."}}); !ok {
			return ref, imp, false
		}
	}
	return both(sim.Action{Step: &sim.StepAction{Agent: agent}})
}

// selectionBehindReply tells, for a /plan reply that announces another
// outcome where the state after it agrees, a selection rule the
// implementation breaks from a reply that misreports a right selection:
// it plays the same actions with the command's selection made by set
// instead, and when set's outcome departs there too, the departure is
// named by set's rows (the outcome rows), before the reply's. (What the
// replay cannot run leaves the naming as it is: it only refines it.)
func (d *Departure) selectionBehindReply(newRef, newImp func() sim.Port, opts sim.Options, acts []sim.Action) {
	if d.Observation != ObsCommand || d.Expect.Command == nil || d.Expect.Command.Outcome == "" || d.Action.Command == nil {
		return
	}
	cmd := spec.ParseCommand(d.Action.Command.Input)
	if !cmd.IsPlan() || cmd.NearOff() {
		return
	}
	alt := append(slices.Clone(acts[:d.Index]), sim.Action{Set: &sim.SetAction{Agent: d.Action.Command.Agent, Active: cmd.Active()}})
	set, err := departOnce(newRef, newImp, opts, alt)
	if err == nil && set != nil && set.Index == d.Index && set.Observation == ObsOutcome {
		d.Clauses = merge(set.Clauses, d.Clauses)
	}
}

// departOnce is Depart against one reference.
func departOnce(newRef, newImp func() sim.Port, opts sim.Options, acts []sim.Action) (*Departure, error) {
	p, d, err := startPairWith(newRef, newImp, opts)
	if err != nil {
		return nil, err
	}
	if d != nil {
		return &Departure{Diff: *d, Index: 0, Action: p.acts[0]}, nil
	}
	defer p.close()
	for k, act := range acts {
		d, err := p.do(act)
		if errors.Is(err, errRefused) || errors.Is(err, sim.ErrUnsupported) {
			// the reference's runtime refused it, or it needs a capability
			// the implementation does not declare: what ran before agreed
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if d == nil {
			d = p.probe(act)
		}
		if d != nil {
			return &Departure{Diff: *d, Index: k, Action: act}, nil
		}
		if p.unconfigured(k, act) {
			return nil, nil
		}
	}
	return nil, nil
}

// probe compares get() of every agent after act, which act's own result
// records only for the agents it touched: a state that departed at act
// (a selection dropped for an agent act did not touch) is named as act's,
// in act's situation and with act's results.
func (p *pair) probe(act sim.Action) *Diff {
	if !p.ref.Plugin() || !p.imp.Plugin() {
		return nil
	}
	ref, imp := p.lastRef, p.lastImp
	ref.After, imp.After = nil, nil
	for _, a := range p.ref.Agents() {
		r, err1 := p.ref.Do(sim.Action{Get: &sim.AgentAction{Agent: a}})
		i, err2 := p.imp.Do(sim.Action{Get: &sim.AgentAction{Agent: a}})
		if err1 != nil || err2 != nil {
			return nil
		}
		ref.After, imp.After = append(ref.After, r.After...), append(imp.After, i.After...)
	}
	return compare(p.lastCx, act, ref, imp)
}
