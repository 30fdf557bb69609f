package lockstep

import (
	"errors"
	"fmt"
	"strings"

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
			best = d
		}
	}
	return best, nil
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
