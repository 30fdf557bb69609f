package lockstep

import (
	"errors"
	"fmt"
	"slices"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/sim"
)

// pair is one sequence run side by side: the implementation and the
// reference, each in its own sim.Runtime, with the model deciding which
// generated actions are valid.
type pair struct {
	setup properties.Setup
	ref   *sim.Runtime
	imp   *sim.Runtime
	model *properties.Model
	acts  []sim.Action
	// impResults are the implementation's results, in order, so a
	// divergence can be re-judged against other reference variants
	// without running the implementation again.
	impResults  []sim.Result
	exitPending map[string]bool
	faults      int
	// last is the reference's get() of each agent after the last action.
	last map[string]sim.GetReply
	// expr is, at a divergence, the first differing observation a trace
	// can state (nil: none at that action).
	expr *Diff
	// lastCx, lastRef and lastImp are the last action's situation and
	// both results (what probe re-judges with every agent's state).
	lastCx           situation
	lastRef, lastImp sim.Result
}

// refused is returned when the reference's runtime refused an action the
// model allowed: an assumed variant took the reference off the model's
// path. The sequence ends there; nothing diverged.
var errRefused = errors.New("the reference's runtime refused the action")

func startPair(newRef, newImp func() sim.Port, setup properties.Setup, choices map[string]string) (*pair, *Diff, error) {
	p, d, err := startPairWith(newRef, newImp, setup.Options())
	if err != nil || d != nil {
		return p, d, err
	}
	p.setup = setup
	p.model = properties.NewModel(setup, properties.ChoicesOf(choices))
	p.model.ReviewReplies = p.imp.Identity().ReviewReplies
	return p, nil, nil
}

// startPairWith starts both sides with the runtime options opts (a
// generated setup's, or a scenario's), with no model: the caller plays
// actions it knows to be valid.
func startPairWith(newRef, newImp func() sim.Port, opts sim.Options) (*pair, *Diff, error) {
	ref, rload, err := sim.New(newRef(), opts)
	if err != nil {
		return nil, nil, fmt.Errorf("the reference could not start: %w", err)
	}
	imp, iload, err := sim.New(newImp(), opts)
	if err != nil {
		ref.Close()
		return nil, nil, err
	}
	p := &pair{setup: properties.Setup{Services: opts.Services}, ref: ref, imp: imp, exitPending: map[string]bool{}}
	if (rload.Error != "") != (iload.Error != "") {
		p.close()
		act := sim.Action{Load: &sim.LoadAction{Config: opts.Config}}
		p.acts = []sim.Action{act}
		d := compare(situation{services: opts.Services}, act, rload, iload)
		return p, d, nil
	}
	return p, nil, nil
}

func (p *pair) close() {
	p.ref.Close()
	p.imp.Close()
}

// do runs one action on both sides and compares the results. The model is
// advanced by the caller (generation needs it before the action).
func (p *pair) do(act sim.Action) (*Diff, error) {
	agent := act.Agent()
	_, open := p.ref.Status(agent)
	cx := p.situation(agent, open)
	if act.Load != nil && act.Load.Services != nil {
		cx.services = *act.Load.Services
	}
	p.acts = append(p.acts, act)
	rres, err := p.ref.Do(act)
	if err != nil {
		var in *sim.InputError
		if errors.As(err, &in) {
			return nil, errRefused
		}
		return nil, fmt.Errorf("the reference failed: %w", err)
	}
	ires, err := p.imp.Do(act)
	if err != nil {
		var in *sim.InputError
		if errors.As(err, &in) {
			// The implementation took the runtime somewhere the
			// reference did not; earlier observations all agreed.
			return &Diff{Observation: ObsEvents, Agent: agent, Reference: "action runs", Implementation: "refused by the runtime: " + in.Msg, Clauses: attribution.Row(attribution.RowEventsOther)}, nil
		}
		return nil, err
	}
	p.impResults = append(p.impResults, ires)
	p.lastCx, p.lastRef, p.lastImp = cx, rres, ires
	d := compare(cx, act, rres, ires)
	if d != nil {
		p.expr = expressible(cx, act, rres, ires)
	}
	if d != nil && d.Observation == ObsGet && slices.Equal(d.Clauses, attribution.Row(attribution.RowGetActive)) {
		p.probeFold(d)
	}
	p.track(act, rres)
	return d, nil
}

func (p *pair) situation(agent string, open bool) situation {
	g, ok := p.last[agent]
	userExit := ok && g.Pending != nil && !*g.Pending && !p.exitPending[agent]
	return situation{services: p.setup.Services, open: open, exitPending: p.exitPending[agent], userExitPending: userExit, faults: p.faults > 0}
}

// probeFold tells LOG-2 from LOG-3 when a state recovered from the log
// differs: if foldPlanMode over the agent's log differs too, the fold is
// wrong (LOG-2); otherwise the state is not the fold (LOG-3).
func (p *pair) probeFold(d *Diff) {
	probe := sim.Action{Fold: &sim.FoldAction{Agent: d.Agent}}
	r, err1 := p.ref.Do(probe)
	i, err2 := p.imp.Do(probe)
	if err1 == nil && err2 == nil && show(r.Fold) != show(i.Fold) {
		d.Clauses = attribution.Row(attribution.RowGetActiveFold)
	}
}

// track keeps what attribution needs: approved exits not yet appended and
// armed append faults.
func (p *pair) track(act sim.Action, r sim.Result) {
	if p.last == nil {
		p.last = map[string]sim.GetReply{}
	}
	for _, st := range r.After {
		p.last[st.Agent] = st.Get
	}
	switch {
	case act.Fault != nil:
		p.faults += act.Fault.Appends
	case act.Restart != nil:
		p.faults = 0
		p.exitPending = map[string]bool{}
	}
	for _, e := range r.Effects {
		if e.Effect.Kind == sim.EffectAppend && p.faults > 0 {
			p.faults--
		}
	}
	for _, t := range r.Tools {
		if t.OK && sim.Approved(t.Result) {
			p.exitPending[act.Agent()] = true
		}
	}
	for _, a := range agentsOf(r) {
		if len(r.PlanEvents(a)) > 0 && !(len(r.Tools) > 0 && p.exitPending[a]) {
			delete(p.exitPending, a)
		}
	}
}

// replayRef runs acts against a fresh reference and compares each result
// with the recorded implementation results: whether the reference (with
// some variants) explains everything the implementation did.
func replayRef(newRef func() sim.Port, setup properties.Setup, acts []sim.Action, imp []sim.Result) bool {
	rt, load, err := sim.New(newRef(), setup.Options())
	if err != nil || load.Error != "" {
		if rt != nil {
			rt.Close()
		}
		return false
	}
	defer rt.Close()
	q := &pair{setup: setup, exitPending: map[string]bool{}}
	for k, act := range acts {
		if k >= len(imp) {
			return false
		}
		agent := act.Agent()
		_, open := rt.Status(agent)
		cx := q.situation(agent, open)
		r, err := rt.Do(act)
		if err != nil {
			return false
		}
		if compare(cx, act, r, imp[k]) != nil {
			return false
		}
		q.track(act, r)
	}
	return true
}

// unconfigured reports whether act, the k-th of a sequence, is its config
// load and left the implementation without plan mode (the load failed on
// both sides, or the sequence would have departed): nothing of plan mode is
// left to compare, so the search and Depart stop there alike.
func (p *pair) unconfigured(k int, act sim.Action) bool {
	return k == 0 && act.Load != nil && !p.imp.Plugin()
}
