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
	focus:   focus{Selections: true},
	share:   5,
}, {
	id:      "rt-review-outcomes",
	name:    "every exit_plan_mode call fails outside plan mode or without a level-1 heading, is reviewed otherwise, and succeeds exactly on a plain approval",
	clauses: []string{spec.EXIT2, spec.EXIT3, spec.EXIT4, spec.EXIT5, spec.EXIT6, spec.EXIT7},
	focus:   focus{Reviews: true},
	share:   5,
}, {
	id:      "rt-recovery",
	name:    "after a restart or a reload the state is the log's fold and nothing is pending; requests agree with the log",
	clauses: []string{spec.LOG3, spec.PEND8},
	focus:   focus{Recovery: true},
	// about what a restart loses (PEND-8), so an external runtime's
	// restarts here are real ones, new processes, under --restarts auto:
	// fewer scripts
	share: 20,
}, {
	id:      "rt-outside-writers",
	name:    "a plan/mode an outside writer appends between turns is in force at once: get, the next requests and the narration follow the log",
	clauses: []string{spec.LOG1, spec.LOG3, spec.STEP6, spec.STEP7},
	focus:   focus{OutsideWrites: true},
	share:   5,
}, {
	id:      "rt-host-listeners",
	name:    "host listeners before and after plan mode that accept, reject, abort or take the step's messages: the selection is appended only by an accepted step, before its request, and narrated once",
	clauses: []string{spec.STEP1, spec.STEP3, spec.STEP6, spec.STEP7, spec.PEND2},
	focus:   focus{Listeners: true},
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
		t, _ := generate(r, id.Capabilities, 0, false, p.focus)
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
type Chooser = loop.Chooser

// focus is what a property's generated scripts stress beyond the general
// mix (loop.Focus); each stress only adds draws when it is on, so the
// general mix (rt-invariants) draws the same scripts as before any was
// added.
type focus = loop.Focus

// generalMix is what every generated script draws each step from (after
// its focus's prelude): turns most, selections, gets, restarts and /plan
// commands, a turn in the place of what the runtime lacks.
var generalMix = loop.Mix{Draws: []loop.Weighted{{Draw: "turn", Weight: 5}, {Draw: "set", Weight: 2}, {Draw: "get", Weight: 1}, {Draw: "restart", Weight: 1}, {Draw: "command", Weight: 1}}, Fallback: "turn"}

// wideMix is drawn from at one step in four of a wide script (GenerateWide):
// the steps only the wide alphabet has — an outside writer's plan/mode, an
// append fault between turns, a reload, an unload — and /plan commands,
// gets and restarts; a step the runtime lacks is drawn from generalMix.
var wideMix = loop.Mix{Draws: []loop.Weighted{{Draw: "append", Weight: 1}, {Draw: "fault", Weight: 1}, {Draw: "reload", Weight: 1}, {Draw: "unload", Weight: 1}, {Draw: "command", Weight: 1}, {Draw: "get", Weight: 1}, {Draw: "restart", Weight: 1}}}

// prelude draws the steps a property's focus adds before a step of the
// general mix: selections (and a get), a selection of plan mode before the
// reviews, a restart or a reload (after a turn that leaves a selection
// pending) and a get, an outside writer's plan/mode (and a get).
func prelude(g *loop.Gen) []loop.Step {
	r, caps, f := g.R, g.Caps, g.Focus
	var out []loop.Step
	switch {
	case f.Selections && r.IntN(2) == 0:
		out = append(out, g.Do("set"))
		if r.IntN(2) == 0 {
			out = append(out, g.Do("get"))
		}
	case f.Reviews && r.IntN(3) != 0:
		out = append(out, loop.Step{Set: &loop.SetRequest{Agent: "main", Active: true}})
	case f.Recovery && r.IntN(2) == 0:
		if caps.DuringStream && r.IntN(2) == 0 {
			out = append(out, g.Do("turn-late-selection"))
		}
		if r.IntN(2) == 0 && caps.Resume {
			out = append(out, g.Do("restart"))
		} else if caps.Reload {
			out = append(out, g.Do("reload"))
		}
		out = append(out, g.Do("get"))
	case f.OutsideWrites && caps.OutsideAppend && r.IntN(2) == 0:
		out = append(out, g.Do("append"))
		if r.IntN(2) == 0 {
			out = append(out, g.Do("get"))
		}
	}
	return out
}

// Generate draws a runtime script that uses only what caps declares.
func Generate(r Chooser, caps loop.Capabilities) loop.Trace {
	t, _ := generate(r, caps, 0, false, focus{})
	return t
}

// GenerateWide draws a runtime script of n steps over the wider alphabet
// plankit diff --level runtime compares on (as far as caps allows): besides
// Generate's turns, selections, gets, restarts and commands, it draws host
// listeners registered before and after plan mode (accepting, rejecting,
// aborting or taking the step's messages), every review outcome (answers,
// the seam's replies and failures, a reload during the review), outside
// writers, append faults between turns, reloads, unloads and every /plan
// command (wideMix). Generate's scripts are left as they were (the runtime
// property's counterexamples keep their seeds).
func GenerateWide(r Chooser, caps loop.Capabilities, n int) loop.Trace {
	t, _ := generate(r, caps, n, true, focus{})
	return t
}

// generate draws a script of n steps (0: drawn, 2 to 7, fewer with a
// focus) from the step table's draws (loop.StepKinds): each step from
// generalMix, in a wide script one in four from wideMix, after the
// focus's prelude. It returns how many steps each draw drew too.
func generate(r Chooser, caps loop.Capabilities, n int, wide bool, f focus) (loop.Trace, map[string]int) {
	g, t := loop.NewGen(r, caps, wide, f)
	steps := n
	if steps <= 0 {
		steps = 2 + r.IntN(6)
		if f != (focus{}) {
			// a focused script is shorter: its prelude makes up the
			// rest, and a failure shrinks in fewer runs
			steps = 1 + steps/2
		}
	}
	for range steps {
		if f != (focus{}) {
			t.Steps = append(t.Steps, prelude(g)...)
		}
		if wide && r.IntN(4) == 0 {
			if st, ok := g.Pick(wideMix); ok {
				t.Steps = append(t.Steps, st)
				continue
			}
		}
		st, _ := g.Pick(generalMix)
		t.Steps = append(t.Steps, st)
	}
	return t, g.Drawn()
}
