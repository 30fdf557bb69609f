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
	// RuntimeFor, when set, builds each generated script's runtime (its
	// shrinking's too) instead, told which check it is for: its ID is the
	// property's and the case's number (as the plugin level's case labels),
	// and a property about what a restart loses (PEND-8) is
	// process-local (sim.Check.ProcessLocal), as at the plugin level.
	RuntimeFor func(sim.Check) loop.Runtime
	// Seed fixes every generated script; the same seed gives the same cases.
	Seed int64
	// Checks is the number of generated scripts per property (default 100).
	Checks int
	// CounterexampleDir receives the shrunk trace of each failure; empty
	// means a fresh temporary directory.
	CounterexampleDir string
	Output            io.Writer
	// Replay, when set, is the command that replays a counterexample
	// against this runtime, before the trace's path, and each failure's
	// message names it; empty, the message names the trace only.
	Replay string
	// Depart, when set, names a failing property's cause: the clauses of
	// the first step of its shrunk script that departed from the built-in
	// runtime around the reference, and a line saying so
	// (lockstep.RuntimeDepart); nil clauses leave its first finding's
	// rule to name it.
	Depart func(newRuntime func() loop.Runtime, t loop.Trace) (clauses []string, note string, err error)
}

// replayed is the end of a failure's message that names its trace path,
// and the command that replays it when there is one.
func replayed(replay, path string) string {
	if replay == "" {
		return "; trace " + path
	}
	return "; replay: " + replay + " " + path
}

// property is one runtime-level property: a generated trace must give a
// record with no finding (loop.Verdict: the invariants and the rules of
// package loop hold). Properties differ by what their scripts stress.
type property struct {
	id      string
	name    string
	clauses []string
	// focus is what the generator stresses (the zero value: the general
	// mix of rt-invariants).
	focus focus
	// share divides the number of generated scripts: a focused property
	// runs Checks/share of them (at least one), so the runtime level's
	// time stays close to one property's (0 or 1: all of them).
	share int
}

// properties lists the runtime-level properties.
var properties = []property{{
	id:      "rt-invariants",
	name:    "every generated runtime script keeps the invariants: requests agree with the log, logs pass lint",
	clauses: []string{spec.CFG2, spec.EXIT1, spec.EXIT5, spec.LOG1, spec.LOG3, spec.LOG4, spec.STEP1, spec.STEP3, spec.STEP6, spec.STEP7},
}, {
	id:      "rt-pending-cancel",
	name:    "selections between and during turns: a set between turns commits, cancels or is a noop as the log says, and is logged once; queued selections are applied at the next accepted step",
	clauses: []string{spec.PEND1, spec.PEND3, spec.PEND4, spec.PEND5, spec.PEND6, spec.PEND7, spec.LOG4, spec.CMD4},
	focus:   focus{selections: true},
	share:   5,
}, {
	id:      "rt-review-outcomes",
	name:    "every exit_plan_mode call fails outside plan mode or without a level-1 heading, is reviewed otherwise, and succeeds exactly on a plain approval",
	clauses: []string{spec.EXIT2, spec.EXIT3, spec.EXIT4, spec.EXIT5, spec.EXIT6, spec.EXIT7},
	focus:   focus{reviews: true},
	share:   5,
}, {
	id:      "rt-recovery",
	name:    "after a restart or a reload the state is the log's fold and nothing is pending; requests agree with the log",
	clauses: []string{spec.LOG3, spec.PEND8},
	focus:   focus{recovery: true},
	// about what a restart loses (PEND-8), so an external runtime's
	// restarts here are real ones, new processes, under --restarts auto:
	// fewer scripts
	share: 20,
}, {
	id:      "rt-outside-writers",
	name:    "a plan/mode an outside writer appends between turns is in force at once: get, the next requests and the narration follow the log",
	clauses: []string{spec.LOG1, spec.LOG3, spec.STEP6, spec.STEP7},
	focus:   focus{outsideWrites: true},
	share:   5,
}, {
	id:      "rt-host-listeners",
	name:    "host listeners before and after plan mode that accept, reject, abort or take the step's messages: the selection is appended only by an accepted step, before its request, and narrated once",
	clauses: []string{spec.STEP1, spec.STEP3, spec.STEP6, spec.STEP7, spec.PEND2},
	focus:   focus{listeners: true},
	share:   5,
}}

// cases is how many scripts the property generates when checks are asked.
func (p property) cases(checks int) int {
	if p.share <= 1 {
		return checks
	}
	return max(1, checks/p.share)
}

// PropertyScripts is how many scripts the properties generate in all when
// checks are asked per property (the focused ones run a share).
func PropertyScripts(checks int) int {
	if checks <= 0 {
		checks = 100
	}
	n := 0
	for _, p := range properties {
		n += p.cases(checks)
	}
	return n
}

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
			c.Status, c.Attributed, c.Observed = report.Failed, loop.Findings(findings[:1]).AttributedClauses(), findings[0].Rule
			c.Message = fmt.Sprintf("%s (seed %d); shrunk to %d steps", loop.Describe(findings[:1]), o.Seed, len(failing.Steps))
			if o.Depart != nil {
				if cl, note, err := o.Depart(o.NewRuntime, *failing); err == nil && len(cl) > 0 {
					// named by its cause; the finding is where it was seen
					c.Attributed, c.Message = cl, note+"; seen at "+c.Message
				}
			}
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
			c.Counterexample = path
			c.Message += replayed(o.Replay, path)
			fmt.Fprintf(out, "FAIL %s: %s\n", p.id, c.Message)
		case skipped == p.cases(o.Checks):
			c.Status, c.Message = report.Skipped, "not judged: every generated script needs a capability the runtime does not declare"
			fmt.Fprintf(out, "skip %s: %s\n", p.id, c.Message)
		default:
			c.Status = report.Passed
			fmt.Fprintf(out, "ok   %s: %d scripts (%d skipped for missing capabilities)\n", p.id, p.cases(o.Checks), skipped)
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

// check runs the property's generated traces; the first failure is
// shrunk.
func check(ctx context.Context, o PropertyOptions, id loop.Identity, p property) (skipped int, failing *loop.Trace, findings []loop.Finding, err error) {
	for i := 0; i < p.cases(o.Checks); i++ {
		if ctx.Err() != nil {
			return skipped, nil, nil, ctx.Err()
		}
		r := rand.New(rand.NewPCG(uint64(o.Seed), uint64(i)))
		t := generate(r, id.Capabilities, 0, false, p.focus)
		t.Name = fmt.Sprintf("%s seed %d case %d", p.id, o.Seed, i)
		newRuntime := o.NewRuntime
		if o.RuntimeFor != nil {
			c := sim.Check{ID: fmt.Sprintf("%s/%02d", p.id, i), ProcessLocal: slices.Contains(p.clauses, spec.PEND8)}
			newRuntime = func() loop.Runtime { return o.RuntimeFor(c) }
		}
		fs, skip, err := judge(newRuntime, t)
		switch {
		case err != nil:
			return skipped, nil, nil, err
		case skip:
			skipped++
		case len(fs) > 0:
			small, smallFs, err := shrink(newRuntime, t, fs)
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

// focus is what a property's generated scripts stress beyond the general
// mix; each stress only adds draws when it is on, so the general mix
// (rt-invariants) draws the same scripts as before any was added.
type focus struct {
	// selections: most steps are selections, gets and /plan commands, and
	// turns carry more selections while the model streams.
	selections bool
	// reviews: the model calls exit_plan_mode more, with plans that open
	// with #Plan or ## Plan among those it draws.
	reviews bool
	// recovery: restarts and reloads, each followed by a get.
	recovery bool
	// outsideWrites: an outside writer appends plan/mode between turns.
	outsideWrites bool
	// listeners: host listeners before and after plan mode at every
	// dispatch, taking the step's messages too.
	listeners bool
}

// Generate draws a runtime script that uses only what caps declares.
func Generate(r Chooser, caps loop.Capabilities) loop.Trace {
	return generate(r, caps, 0, false, focus{})
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
	return generate(r, caps, n, true, focus{})
}

// generate draws a script of n steps (0: drawn, 2 to 7, fewer with a
// focus); wide widens the alphabet (GenerateWide), a focus adds the steps
// of a property's focus. With neither it draws exactly what Generate always
// did.
func generate(r Chooser, caps loop.Capabilities, n int, wide bool, f focus) loop.Trace {
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
		if f.listeners {
			t.Listeners = append(t.Listeners, loop.Listener{Name: "outer", Position: "before"})
		}
	}
	if caps.HostTools && wide {
		// a second host tool, so their order in the catalog shows (EXIT-1)
		t.HostTools = append(t.HostTools, loop.HostTool{Name: "write_file"})
	}
	if caps.HostTools && caps.AssemblyTools && wide {
		// one another prompt-assembly listener adds after plan mode's
		t.HostTools = append(t.HostTools, AssemblyTool)
	}
	ids := 0
	next := func(prefix string) string { ids++; return fmt.Sprintf("%s%d", prefix, ids) }
	hostAction := func() loop.HostAction {
		h := loop.HostAction{ID: next("h")}
		switch n := r.IntN(6); {
		case n == 0 && caps.FailAppend && !f.outsideWrites:
			// (a fault armed for plan mode's next append and an outside
			// writer's plan/mode do not mix: the protocol leaves which
			// append the fault fails to the runtime)
			h.Fault = &loop.CountArg{Count: 1}
		case n == 1:
			h.Get = &struct{}{}
		case n == 2 && caps.Commands:
			h.Command = &loop.InputArg{Input: sim.CommandInputs[r.IntN(len(sim.CommandInputs))]}
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
	plans := sim.Plans[:2] // a complete plan and one with no heading
	if wide || f.reviews {
		// every shape an implementation may misread (EXIT-3)
		plans = sim.Plans
	}
	reviews := []sim.Review{{Answer: sim.Approve}, {Answer: sim.KeepPlanning}, {Answer: sim.Dismiss}}
	if f.reviews {
		reviews = append(reviews, sim.Review{Answer: sim.Approve, Feedback: "also add tests"},
			sim.Review{Answer: sim.KeepPlanning, Feedback: "split step 2"}, sim.Review{Answer: sim.Approve, Reload: true})
		// sometimes with no channel to ask the user (EXIT-7)
		t.Services.UserQuestions = caps.UserQuestions && r.IntN(4) != 0
	}
	turn := func() *loop.TurnRequest {
		tr := &loop.TurnRequest{Agent: "main", Prompt: fmt.Sprintf("Task %d.", ids)}
		n := 1 + r.IntN(4)
		if (f.reviews || f.listeners) && n == 1 {
			n = 2 + r.IntN(3) // a tool call at least: a continuation step, a review
		}
		for i := range n {
			resp := loop.Response{}
			if caps.DuringStream && r.IntN(2) == 0 {
				resp.During = actions(2)
				if f.selections || f.listeners {
					resp.During = append(resp.During, actions(2)...)
				}
			}
			if i < n-1 {
				if r.IntN(5) == 0 && caps.Has("retry") {
					resp.Fail = true
				} else {
					for range 1 + r.IntN(2) {
						c := loop.Call{ID: next("c")}
						if caps.HostTools && r.IntN(2) == 0 && (!f.reviews || r.IntN(2) == 0) {
							c.Name, c.Args = "read_file", json.RawMessage(`{"path":"a.go"}`)
							c.During = actions(2)
						} else {
							c.Name = spec.ExitTool
							c.Args = sim.JSON(map[string]string{"plan": plans[r.IntN(len(plans))]})
							rv := reviews[r.IntN(len(reviews))]
							c.Review = &rv
							if wide && r.IntN(3) == 0 {
								c.Review = wideReview(r, caps)
							} else if caps.ReviewReplies && r.IntN(3) == 0 {
								rv = sim.ExtendedReviews[r.IntN(len(sim.ExtendedReviews))]
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
		if caps.HostListeners && f.listeners {
			behaviours := []string{sim.Accept, sim.Reject, sim.Abort}
			if caps.EmptySteps {
				// taking the step's messages is what shows whether plan
				// mode's listener wraps this one (STEP-1): drawn most
				behaviours = append(behaviours, sim.Drop, sim.Drop, sim.Drop)
			}
			for d := range n {
				if r.IntN(2) == 0 {
					continue
				}
				p := loop.PreStep{Dispatch: d + 1, Listener: "outer", Behaviour: behaviours[r.IntN(len(behaviours))]}
				if r.IntN(2) == 0 {
					p.During = actions(1)
				}
				tr.Script.PreSteps = append(tr.Script.PreSteps, p)
			}
		}
		return tr
	}
	// extra draws the steps a focus adds before a step of the general mix.
	extra := func() []loop.Step {
		var out []loop.Step
		switch {
		case f.selections && r.IntN(2) == 0:
			out = append(out, loop.Step{Set: &loop.SetRequest{Agent: "main", Active: r.IntN(2) == 0}})
			if r.IntN(2) == 0 {
				out = append(out, loop.Step{Get: &loop.AgentRequest{Agent: "main"}})
			}
		case f.reviews && r.IntN(3) != 0:
			out = append(out, loop.Step{Set: &loop.SetRequest{Agent: "main", Active: true}})
		case f.recovery && r.IntN(2) == 0:
			if caps.DuringStream && r.IntN(2) == 0 {
				// a selection after the turn's last pre-step stays pending
				// until plan mode starts afresh (PEND-2, PEND-8)
				tr := &loop.TurnRequest{Agent: "main", Prompt: "Last word.", Script: loop.Script{Responses: []loop.Response{{
					Text: "Done.", During: []loop.HostAction{{ID: next("h"), Set: &loop.ActiveArg{Active: r.IntN(2) == 0}}}}}}}
				out = append(out, loop.Step{Turn: tr})
			}
			if r.IntN(2) == 0 && caps.Resume {
				out = append(out, loop.Step{Restart: &struct{}{}})
			} else if caps.Reload {
				out = append(out, loop.Step{Reload: &struct{}{}})
			}
			out = append(out, loop.Step{Get: &loop.AgentRequest{Agent: "main"}})
		case f.outsideWrites && caps.OutsideAppend && r.IntN(2) == 0:
			out = append(out, loop.Step{Append: &loop.AppendRequest{Agent: "main", Type: spec.TypePlanMode, Data: sim.JSON(map[string]bool{"active": r.IntN(2) == 0})}})
			if r.IntN(2) == 0 {
				out = append(out, loop.Step{Get: &loop.AgentRequest{Agent: "main"}})
			}
		}
		return out
	}
	steps := n
	if steps <= 0 {
		steps = 2 + r.IntN(6)
		if f != (focus{}) {
			// a focused script is shorter: its extra steps make up the
			// rest, and a failure shrinks in fewer runs
			steps = 1 + steps/2
		}
	}
	for range steps {
		if f != (focus{}) {
			t.Steps = append(t.Steps, extra()...)
		}
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
			st.Command = &loop.CommandRequest{Agent: "main", Input: sim.CommandInputs[r.IntN(len(sim.CommandInputs))]}
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
		st.Command = &loop.CommandRequest{Agent: "main", Input: sim.CommandInputs[r.IntN(len(sim.CommandInputs))]}
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
