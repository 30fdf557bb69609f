package properties

import (
	"encoding/json"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

// planData is the value of plan/mode data, and false when the fold does
// not read it under the declared choices (spec.PlanModeReading: data with
// no boolean active unless plan-mode-malformed=truthy; with
// plan-mode-data=exact, data that is not exactly {active: boolean}). Such an
// event does not change the state. Under plan-mode-malformed=either no such
// data is drawn.
func (x *pred) planData(data json.RawMessage) (active, ok bool) {
	return spec.PlanModeReading{Data: x.m.Choices.PlanModeData, Malformed: x.m.Choices.PlanModeMalformed}.Read(data)
}

// outside is an outside writer's append (LOG-3): the state in force is the
// fold of the log, so a plan/mode with a value changes it at once; one
// without is in the log but changes nothing (LOG-1).
func (x *pred) outside(a *agent, typ string, data json.RawMessage) {
	me := mevent{typ: typ}
	ap := x.of(a)
	if typ == spec.TypePlanMode {
		v, ok := x.planData(data)
		me.isPlan, me.plan = ok, v
		if ok {
			a.logged = v
			if a.pending != nil && a.pending.active == v && x.m.Choices.LoggedPending == spec.LoggedPendingClear {
				a.pending = nil // the log holds the selection: no longer waiting (choice logged-pending)
			}
		}
		written, _ := spec.PlanModeRead(data, spec.PlanModeDataFoldActive) // the value as written, whatever the fold reads
		ap.Plan = append(ap.Plan, written)                                 // data with no boolean active reads as false; appended checks it as written
	}
	a.log = append(a.log, me)
	ap.Events = append(ap.Events, trace.EventExpect{Type: typ, Data: data})
}

// open starts an agent from a given log: its state is the log's fold
// (LOG-3).
func (x *pred) open(o *sim.OpenAction) {
	a := &agent{name: o.Agent}
	x.m.agents = append(x.m.agents, a)
	for _, e := range o.Log {
		me := mevent{typ: e.Type}
		switch e.Type {
		case spec.TypePlanMode:
			v, ok := x.planData(e.Data)
			me.isPlan, me.plan = ok, v
			if ok {
				a.logged = v
			}
		case spec.TypeTurnStart:
			a.open = true
		case spec.TypeTurnEnd:
			a.open = false
		}
		a.log = append(a.log, me)
	}
	x.of(a)
	if a.open {
		x.endTurn(a) // a turn the log leaves open ends interrupted
	}
}

// fold is foldPlanMode over an agent's log or given events (LOG-2).
func (x *pred) fold(f *sim.FoldAction) {
	var events []mevent
	if f.Agent != "" {
		events = x.m.agent(f.Agent).log
	} else {
		for _, e := range f.Events {
			me := mevent{typ: e.Type}
			if e.Type == spec.TypePlanMode {
				me.plan, me.isPlan = x.planData(e.Data)
			}
			events = append(events, me)
		}
	}
	end := len(events)
	if f.End != nil {
		end = *f.End
		if end < 0 || end > len(events) {
			switch x.m.Choices.FoldEnd {
			case spec.FoldEndError:
				x.p.FoldErr = true
				return
			case spec.FoldEndSlice: // events.slice(0, end): a negative end counts from the end
				if end < 0 {
					end = len(events) + end
				}
			}
			end = min(max(end, 0), len(events))
		}
	}
	v := false
	for _, e := range events[:end] {
		if e.isPlan {
			v = e.plan
		}
	}
	x.p.Fold = &v
}
