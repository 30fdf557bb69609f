package suite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/shrinker"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/rtrace"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// PropertyOptions configure Properties.
type PropertyOptions struct {
	NewRuntime func() loop.Runtime
	// Seed fixes every generated script; the same seed gives the same cases.
	Seed int64
	// Checks is the number of generated scripts per property (default 100).
	Checks int
	// CounterexampleDir receives the shrunk trace of each failure; empty
	// means a fresh temporary directory.
	CounterexampleDir string
	Output            io.Writer
	// Replay is the command that replays a counterexample against this
	// runtime, before the trace's path (empty: report.ReplayRuntime).
	Replay string
}

// replayOr is replay, or the command that replays against the built-in
// runtime.
func replayOr(replay string) string {
	if replay == "" {
		return report.ReplayRuntime
	}
	return replay
}

// property is one runtime-level property: a generated trace must give a
// record with no finding.
type property struct {
	id      string
	name    string
	clauses []string
}

// properties lists the runtime-level properties.
var properties = []property{{
	id:      "rt-invariants",
	name:    "every generated runtime script keeps the invariants: requests agree with the log, logs pass lint",
	clauses: []string{"CFG-2", "EXIT-1", "EXIT-5", "LOG-1", "LOG-3", "LOG-4", "STEP-1", "STEP-3", "STEP-6", "STEP-7"},
}}

// PropertyCases lists the properties as cases, without running them.
func PropertyCases() []report.Case {
	out := make([]report.Case, len(properties))
	for i, p := range properties {
		out[i] = report.Case{ID: p.id, Kind: report.KindProperty, Name: p.name, Clauses: p.clauses}
	}
	return out
}

// Properties runs every property against fresh runtimes and returns one
// case per property. A failure is shrunk to a minimal trace, written to
// the counterexample directory, that `plankit sim --level runtime`
// replays. An error means the runtime could not be run.
func Properties(ctx context.Context, o PropertyOptions) ([]report.Case, error) {
	if o.NewRuntime == nil {
		return nil, errors.New("suite.Properties: NewRuntime is required")
	}
	if o.Checks <= 0 {
		o.Checks = 100
	}
	out := o.Output
	if out == nil {
		out = io.Discard
	}
	cases := PropertyCases()
	id, op, err := identify(o.NewRuntime)
	if err != nil {
		// Every property is still listed: not run, never missing.
		return unjudgedProperties(ctx, cases, 0, &sim.ImplError{Op: op, Err: err})
	}
	for i, p := range properties {
		c := &cases[i]
		if ctx.Err() != nil {
			c.Status, c.Message = report.NotRun, msgInterrupted
			continue
		}
		skipped, failing, findings, err := check(ctx, o, id, p)
		switch {
		case err != nil && ctx.Err() != nil:
			// Interrupted (an error now is most likely the interruption
			// ending the runtime): not judged, not an error of the runtime.
			return unjudgedProperties(ctx, cases, i, nil)
		case err != nil:
			var kit *kitError
			if !errors.As(err, &kit) {
				err = &sim.ImplError{Op: "property " + p.id, Err: err}
			}
			return unjudgedProperties(ctx, cases, i, fmt.Errorf("property %s: %w", p.id, err))
		case failing != nil:
			path, werr := writeCounterexample(o.CounterexampleDir, p.id, *failing)
			c.Status, c.Attributed = report.Failed, loop.Findings(findings[:1]).AttributedClauses()
			c.Message = fmt.Sprintf("%s (seed %d); shrunk to %d steps", loop.Describe(findings[:1]), o.Seed, len(failing.Steps))
			if werr != nil {
				// As at the plugin level: the property failed, only its
				// trace could not be written (a symbolic link at its name, a
				// full disk): the run stops there, an input error, and the
				// rest is not run.
				c.Message += "; the counterexample could not be written: " + werr.Error()
				fmt.Fprintf(out, "FAIL %s: %s\n", p.id, c.Message)
				for j := i + 1; j < len(cases); j++ {
					cases[j].Status, cases[j].Message = report.NotRun, "not run: the run stopped when a counterexample could not be written"
				}
				return cases, fmt.Errorf("property %s: writing the counterexample: %w", p.id, werr)
			}
			c.Message += "; replay: " + replayOr(o.Replay) + " " + path
			fmt.Fprintf(out, "FAIL %s: %s\n", p.id, c.Message)
		case skipped == o.Checks:
			c.Status, c.Message = report.Skipped, "not judged: every generated script needs a capability the runtime does not declare"
			fmt.Fprintf(out, "skip %s: %s\n", p.id, c.Message)
		default:
			c.Status = report.Passed
			fmt.Fprintf(out, "ok   %s: %d scripts (%d skipped for missing capabilities)\n", p.id, o.Checks, skipped)
		}
	}
	return cases, nil
}

// msgInterrupted is the message of a property an interruption kept from
// being judged.
const msgInterrupted = "not run: the run was interrupted"

// kitError is a failure of the kit itself (a generated script the kit
// should never have generated), not of the runtime under test.
type kitError struct{ err error }

func (e *kitError) Error() string { return e.err.Error() }
func (e *kitError) Unwrap() error { return e.err }

// unjudgedProperties marks the properties from the i-th on as not judged:
// not-run when ctx was cancelled (the run was interrupted), otherwise
// error, the runtime could not be run (err says why). It returns the cases,
// all of them still listed, and err.
func unjudgedProperties(ctx context.Context, cases []report.Case, i int, err error) ([]report.Case, error) {
	status, msg := report.Errored, "not judged: the runtime could not be run"
	if err != nil {
		msg += ": " + err.Error()
	}
	if ctx.Err() != nil {
		status, msg, err = report.NotRun, msgInterrupted, nil
	}
	for j := i; j < len(cases); j++ {
		cases[j].Status, cases[j].Message = status, msg
	}
	return cases, err
}

// check runs o.Checks generated traces; the first failure is shrunk.
func check(ctx context.Context, o PropertyOptions, id loop.Identity, p property) (skipped int, failing *loop.Trace, findings []loop.Finding, err error) {
	for i := 0; i < o.Checks; i++ {
		if ctx.Err() != nil {
			return skipped, nil, nil, ctx.Err()
		}
		r := rand.New(rand.NewPCG(uint64(o.Seed), uint64(i)))
		t := Generate(r, id.Capabilities)
		t.Name = fmt.Sprintf("%s seed %d case %d", p.id, o.Seed, i)
		fs, skip, err := judge(o.NewRuntime, t)
		switch {
		case err != nil:
			return skipped, nil, nil, err
		case skip:
			skipped++
		case len(fs) > 0:
			small, smallFs, err := shrink(o.NewRuntime, t, fs)
			if err != nil {
				return skipped, nil, nil, err
			}
			return skipped, &small, smallFs, nil
		}
	}
	return skipped, nil, nil, nil
}

// judge runs a trace and returns its findings; skip when the runtime lacks
// what it needs. An error is the runtime failing to run.
func judge(newRuntime func() loop.Runtime, t loop.Trace) ([]loop.Finding, bool, error) {
	rec, err := loop.Run(newRuntime(), t)
	var in *sim.InputError
	switch {
	case err == nil:
	case errors.Is(err, sim.ErrUnsupported):
		return nil, true, nil
	case errors.As(err, &in):
		return nil, false, &kitError{fmt.Errorf("generated an invalid script (a kit bug): %w", err)}
	default:
		return nil, false, err
	}
	return loop.Verdict(t, rec), false, nil
}

// shrink removes steps, responses, calls and host actions while the trace
// still fails, until no single removal keeps it failing.
func shrink(newRuntime func() loop.Runtime, t loop.Trace, fs []loop.Finding) (loop.Trace, []loop.Finding, error) {
	t, err := shrinker.Greedy(t, smaller, func(cand loop.Trace) (bool, error) {
		got, skip, err := judge(newRuntime, cand)
		if err != nil || skip || len(got) == 0 {
			return false, err
		}
		fs = got
		return true, nil
	})
	return t, fs, err
}

// Smaller lists the traces one removal away from t, largest cuts first:
// each step, then each response, call, host action and pre-step of a turn.
func Smaller(t loop.Trace) []loop.Trace { return smaller(t) }

// smaller lists the traces one removal away from t, largest cuts first.
func smaller(t loop.Trace) []loop.Trace {
	var out []loop.Trace
	clone := func() loop.Trace {
		var c loop.Trace
		b, _ := json.Marshal(t)
		_ = json.Unmarshal(b, &c)
		return c
	}
	for i := range t.Steps {
		out = append(out, without(clone, i, func(c *loop.Trace) *[]loop.Step { return &c.Steps }))
	}
	for i, st := range t.Steps {
		if st.Turn == nil {
			continue
		}
		script := func(c *loop.Trace) *loop.Script { return &c.Steps[i].Turn.Script }
		for j, r := range st.Turn.Script.Responses {
			out = append(out, without(clone, j, func(c *loop.Trace) *[]loop.Response { return &script(c).Responses }))
			for k := range r.During {
				out = append(out, without(clone, k, func(c *loop.Trace) *[]loop.HostAction { return &script(c).Responses[j].During }))
			}
			for k := range r.Calls {
				out = append(out, without(clone, k, func(c *loop.Trace) *[]loop.Call { return &script(c).Responses[j].Calls }))
			}
		}
		for j := range st.Turn.Script.PreSteps {
			out = append(out, without(clone, j, func(c *loop.Trace) *[]loop.PreStep { return &script(c).PreSteps }))
		}
	}
	return out
}

// without is a fresh clone of a trace with the k-th element of one of its
// lists (the one list picks) removed.
func without[T any](clone func() loop.Trace, k int, list func(*loop.Trace) *[]T) loop.Trace {
	c := clone()
	xs := list(&c)
	*xs = slices.Delete(*xs, k, k+1)
	return c
}

func writeCounterexample(dir, id string, t loop.Trace) (string, error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "plankit-counterexamples-")
		if err != nil {
			return "", err
		}
		dir = d
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	data, err := rtrace.Marshal(t)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, id+".yaml")
	return path, atomicfile.Write(path, data)
}

// Chooser is the source of a generated script's choices: a seeded
// *rand.Rand (plankit check), or rapid's draws in tests (which shrink).
type Chooser interface{ IntN(n int) int }

// Generate draws a runtime script that uses only what caps declares.
func Generate(r Chooser, caps loop.Capabilities) loop.Trace {
	return generate(r, caps, 2+r.IntN(6), false)
}

// GenerateWide draws a runtime script of n steps over the wider alphabet
// plankit diff --level runtime compares on (as far as caps allows): besides
// Generate's turns, selections, gets, restarts and commands, it draws host
// listeners registered before and after plan mode (accepting, rejecting,
// aborting or taking the step's messages), every review outcome (answers,
// the seam's replies and failures, a reload during the review), outside
// writers, append faults between turns, reloads, unloads and every /plan
// command. Generate's scripts are left as they were (the runtime property's
// counterexamples keep their seeds).
func GenerateWide(r Chooser, caps loop.Capabilities, n int) loop.Trace {
	return generate(r, caps, n, true)
}

// generate draws a script of n steps; wide widens the alphabet
// (GenerateWide). With wide false it draws exactly what Generate always did.
func generate(r Chooser, caps loop.Capabilities, n int, wide bool) loop.Trace {
	t := loop.Trace{
		Config:   json.RawMessage(`{"section":"Plan first."}`),
		Services: &sim.Services{Commands: caps.Commands, UserQuestions: caps.UserQuestions},
	}
	if caps.HostTools {
		t.HostTools = []loop.HostTool{{Name: "read_file"}}
	}
	if caps.HostListeners {
		t.Listeners = []loop.Listener{{Name: "gate", Position: "after"}}
		if wide {
			t.Listeners = append(t.Listeners, loop.Listener{Name: "guard", Position: "before"})
		}
	}
	if caps.HostTools && wide {
		// a second host tool, so their order in the catalog shows (EXIT-1)
		t.HostTools = append(t.HostTools, loop.HostTool{Name: "write_file"})
	}
	ids := 0
	next := func(prefix string) string { ids++; return fmt.Sprintf("%s%d", prefix, ids) }
	hostAction := func() loop.HostAction {
		h := loop.HostAction{ID: next("h")}
		switch n := r.IntN(6); {
		case n == 0 && caps.FailAppend:
			h.Fault = &loop.CountArg{Count: 1}
		case n == 1:
			h.Get = &struct{}{}
		case n == 2 && caps.Commands:
			h.Command = &loop.InputArg{Input: []string{"/plan", "/plan off"}[r.IntN(2)]}
		default:
			h.Set = &loop.ActiveArg{Active: r.IntN(2) == 0}
		}
		return h
	}
	actions := func(max int) []loop.HostAction {
		var out []loop.HostAction
		for range r.IntN(max + 1) {
			out = append(out, hostAction())
		}
		return out
	}
	plans := []string{"# Plan\n1. edit", "1. no heading"}
	answers := []string{sim.Approve, sim.KeepPlanning, sim.Dismiss}
	steps := n
	turn := func() *loop.TurnRequest {
		tr := &loop.TurnRequest{Agent: "main", Prompt: fmt.Sprintf("Task %d.", ids)}
		n := 1 + r.IntN(4)
		for i := range n {
			resp := loop.Response{}
			if caps.DuringStream && r.IntN(2) == 0 {
				resp.During = actions(2)
			}
			if i < n-1 {
				if r.IntN(5) == 0 && caps.Has("retry") {
					resp.Fail = true
				} else {
					for range 1 + r.IntN(2) {
						c := loop.Call{ID: next("c")}
						if caps.HostTools && r.IntN(2) == 0 {
							c.Name, c.Args = "read_file", json.RawMessage(`{"path":"a.go"}`)
							c.During = actions(2)
						} else {
							c.Name = spec.ExitTool
							c.Args = sim.JSON(map[string]string{"plan": plans[r.IntN(2)]})
							c.Review = &sim.Review{Answer: answers[r.IntN(3)]}
							if wide && r.IntN(3) == 0 {
								c.Review = wideReview(r, caps)
							} else if caps.ReviewReplies && r.IntN(3) == 0 {
								rv := sim.ExtendedReviews[r.IntN(len(sim.ExtendedReviews))]
								c.Review = &rv
							}
						}
						resp.Calls = append(resp.Calls, c)
					}
				}
			} else {
				resp.Text = "Done."
			}
			tr.Script.Responses = append(tr.Script.Responses, resp)
		}
		if caps.HostListeners && r.IntN(4) == 0 {
			p := loop.PreStep{Dispatch: 1 + r.IntN(n), Listener: "gate", Behaviour: []string{sim.Accept, sim.Reject, sim.Abort}[r.IntN(3)]}
			if wide {
				p.Listener = []string{"gate", "guard"}[r.IntN(2)]
				if caps.EmptySteps && r.IntN(3) == 0 {
					p.Behaviour = sim.Drop
				}
			}
			if r.IntN(2) == 0 {
				p.During = actions(1)
			}
			tr.Script.PreSteps = append(tr.Script.PreSteps, p)
		}
		return tr
	}
	for range steps {
		var st loop.Step
		if wide && r.IntN(4) == 0 {
			if st, ok := wideStep(r, caps); ok {
				t.Steps = append(t.Steps, st)
				continue
			}
		}
		switch n := r.IntN(10); {
		case n < 5:
			st.Turn = turn()
		case n < 7:
			st.Set = &loop.SetRequest{Agent: "main", Active: r.IntN(2) == 0}
		case n == 7:
			st.Get = &loop.AgentRequest{Agent: "main"}
		case n == 8 && caps.Resume:
			st.Restart = &struct{}{}
		case n == 9 && caps.Commands:
			st.Command = &loop.CommandRequest{Agent: "main", Input: []string{"/plan", "/plan off", "/plan think first"}[r.IntN(3)]}
		default:
			st.Turn = turn()
		}
		t.Steps = append(t.Steps, st)
	}
	return t
}

// wideReview draws a review outcome beyond the three answers: an approval
// with feedback, a reload during the review, or (with reviewReplies) one of
// the seam's replies and failures.
func wideReview(r Chooser, caps loop.Capabilities) *sim.Review {
	switch n := r.IntN(4); {
	case n == 0:
		return &sim.Review{Answer: sim.Approve, Feedback: "cover the rollback"}
	case n == 1 && caps.Reload:
		return &sim.Review{Answer: sim.Approve, Reload: true}
	case caps.ReviewReplies:
		rv := sim.ExtendedReviews[r.IntN(len(sim.ExtendedReviews))]
		return &rv
	}
	return &sim.Review{Answer: sim.KeepPlanning, Feedback: "smaller steps"}
}

// wideStep draws one of the steps only the wide alphabet has; ok is false
// when caps lacks what the drawn one needs.
func wideStep(r Chooser, caps loop.Capabilities) (loop.Step, bool) {
	var st loop.Step
	switch r.IntN(7) {
	case 0:
		if !caps.OutsideAppend {
			return st, false
		}
		st.Append = &loop.AppendRequest{Agent: "main", Type: "plan/mode", Data: sim.JSON(map[string]bool{"active": r.IntN(2) == 0})}
	case 1:
		if !caps.FailAppend {
			return st, false
		}
		st.Fault = &loop.FaultRequest{Agent: "main", Count: 1 + r.IntN(2)}
	case 2:
		if !caps.Reload {
			return st, false
		}
		st.Reload = &struct{}{}
	case 3:
		if !caps.Unload {
			return st, false
		}
		st.Unload = &struct{}{}
	case 4:
		if !caps.Commands {
			return st, false
		}
		st.Command = &loop.CommandRequest{Agent: "main", Input: []string{"/plan", "/plan off", "/plan think first", "/plan  off ", "/plan on"}[r.IntN(5)]}
	case 5:
		st.Get = &loop.AgentRequest{Agent: "main"}
	default:
		if !caps.Resume {
			return st, false
		}
		st.Restart = &struct{}{}
	}
	return st, true
}
