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
	clauses: []string{spec.CFG2, spec.EXIT1, spec.EXIT5, spec.LOG1, spec.LOG3, spec.LOG4, spec.STEP1, spec.STEP3, spec.STEP6, spec.STEP7},
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
	id, op, err := identify(o.NewRuntime)
	if err != nil {
		return nil, &sim.ImplError{Op: op, Err: err}
	}
	cases := PropertyCases()
	for i, p := range properties {
		c := &cases[i]
		if err := ctx.Err(); err != nil {
			c.Status, c.Message = report.NotRun, "not run: the run was interrupted"
			continue
		}
		skipped, failing, findings, err := check(ctx, o, id, p)
		switch {
		case err != nil:
			c.Status, c.Message = report.Errored, "not run: the runtime could not be run"
			return cases, fmt.Errorf("property %s: %w", p.id, err)
		case failing != nil:
			path, werr := writeCounterexample(o.CounterexampleDir, p.id, *failing)
			c.Status, c.Attributed, c.Observed = report.Failed, loop.Findings(findings[:1]).AttributedClauses(), findings[0].Rule
			c.Message = fmt.Sprintf("%s (seed %d); shrunk to %d steps", loop.Describe(findings[:1]), o.Seed, len(failing.Steps))
			if werr != nil {
				c.Message += "; the counterexample could not be written: " + werr.Error()
			} else {
				c.Message += "; replay: plankit sim --level runtime " + path
			}
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
		return nil, false, fmt.Errorf("generated an invalid script (a kit bug): %w", err)
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
	t := loop.Trace{
		Config:   json.RawMessage(`{"section":"Plan first."}`),
		Services: &sim.Services{Commands: caps.Commands, UserQuestions: caps.UserQuestions},
	}
	if caps.HostTools {
		t.HostTools = []loop.HostTool{{Name: "read_file"}}
	}
	if caps.HostListeners {
		t.Listeners = []loop.Listener{{Name: "gate", Position: "after"}}
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
							if caps.ReviewReplies && r.IntN(3) == 0 {
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
			if r.IntN(2) == 0 {
				p.During = actions(1)
			}
			tr.Script.PreSteps = append(tr.Script.PreSteps, p)
		}
		return tr
	}
	for range 2 + r.IntN(6) {
		var st loop.Step
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
