package trace

import (
	"errors"
	"fmt"

	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/sim"
)

// Run is the record of one trace run.
type Run struct {
	Trace    *Trace       `json:"trace"`
	Identity sim.Identity `json:"implementation"`
	// Load is the initial plugin load.
	Load sim.Result `json:"load"`
	// Steps holds one entry per script action that ran.
	Steps []StepResult `json:"steps"`
	// Logs are the final session logs, by agent in creation order.
	Logs []AgentLog `json:"logs"`
	// Err stops the run early: an *InputError (bad script), or an
	// *ImplError (the implementation could not be run).
	Err error `json:"-"`
	// Error is Err as text, for the machine record.
	Error string `json:"error,omitempty"`
}

// StepResult is one action's result and its failed expectations.
type StepResult struct {
	Index    int        `json:"index"`
	Entry    Entry      `json:"entry"`
	Result   sim.Result `json:"result"`
	Failures []string   `json:"failures,omitempty"`
}

// AgentLog is an agent's final log.
type AgentLog struct {
	Agent  string      `json:"agent"`
	Events []sim.Event `json:"events"`
}

// Failed reports whether an expectation failed.
func (r *Run) Failed() bool {
	for _, s := range r.Steps {
		if len(s.Failures) > 0 {
			return true
		}
	}
	return false
}

// FirstFailure returns the first step whose expectations failed.
func (r *Run) FirstFailure() (StepResult, bool) {
	for _, s := range r.Steps {
		if len(s.Failures) > 0 {
			return s, true
		}
	}
	return StepResult{}, false
}

// Describe names a step for messages: its number, action and position.
func (r *Run) Describe(s StepResult) string {
	return fmt.Sprintf("%s:%d:%d: action %d (%s)", safetext.Line(r.Trace.File), s.Entry.Pos.Line, s.Entry.Pos.Column, s.Index+1, s.Entry.Action.Name())
}

// Execute runs a trace against port and checks every expectation. It runs
// the whole script even after a failed expectation, so the timeline shows
// everything; it stops only when the script does not fit the runtime or
// the implementation fails.
func Execute(t *Trace, port sim.Port) *Run {
	run := &Run{Trace: t}
	rt, load, err := sim.New(port, t.Options())
	run.Load = load
	if err != nil {
		run.stop(err, -1)
		return run
	}
	defer rt.Close()
	run.Identity = rt.Identity()
	for i, e := range t.Script {
		res, err := rt.Do(e.Action)
		step := StepResult{Index: i, Entry: e, Result: res}
		if err == nil {
			step.Failures = e.Expect.Check(subject(e.Action, rt), res)
		}
		run.Steps = append(run.Steps, step)
		if err != nil {
			run.stop(err, i)
			break
		}
	}
	for _, a := range rt.Agents() {
		run.Logs = append(run.Logs, AgentLog{Agent: a, Events: rt.Log(a)})
	}
	return run
}

func (r *Run) stop(err error, i int) {
	var in *sim.InputError
	if errors.As(err, &in) && i >= 0 {
		e := r.Trace.Script[i]
		err = &Error{File: r.Trace.File, Line: e.Pos.Line, Column: e.Pos.Column, Field: fmt.Sprintf("script[%d].%s", i, e.Action.Name()), Msg: in.Msg}
	}
	r.Err = err
	r.Error = err.Error()
}

// subject is the agent an expectation reads by default: the action's
// agent, or for runtime-wide actions (restart, reload, load, fault) the
// first agent.
func subject(a sim.Action, rt *sim.Runtime) string {
	if name := a.Agent(); name != "" {
		return name
	}
	if agents := rt.Agents(); len(agents) > 0 {
		return agents[0]
	}
	return ""
}
