package properties

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/internal/workers"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/trace"
)

// Options configure Run.
type Options struct {
	// NewPort builds a fresh implementation instance for each run.
	NewPort func() sim.Port
	// PortFor, when set, builds the instances of each case instead of
	// NewPort, told which case they are for (the label
	// "<property>/<case>") and whether the property is about what a
	// restart loses.
	PortFor func(sim.Check) sim.Port
	// Seed fixes every random choice; the same seed gives the same cases.
	Seed int64
	// Checks is the number of generated cases per property (default 100).
	Checks int
	// Steps is the number of actions per case (default 40).
	Steps int
	// Only, when not empty, names the properties to run.
	Only []string
	// CounterexampleDir receives the trace file of each failure; empty
	// means one fresh temporary directory for the run, created at the
	// first failure. Each failure's message names its file.
	CounterexampleDir string
	// Replay, when set, is the command that replays a counterexample
	// against this implementation, before the trace's path, and each
	// failure's message names it; empty, the message names the trace only.
	Replay string
	// Output receives one line per property (nil: discarded).
	Output io.Writer
	// Jobs is the number of cases run at once, each on its own
	// implementation instances (<= 1: one at a time). The results and the
	// output are the same for any number.
	Jobs int
	// Discard, when set, is told each case that ran but is not part of
	// the result: with several workers, cases after a property's first
	// failing case may have run ahead. A PortFor that keeps counts drops
	// the case's there.
	Discard func(sim.Check)
	// Expected, when set, says where a failing property is expected to
	// fail (an expected-failure manifest entry, FILE:LINE), or "" when it
	// is not; the progress line then marks the failure as expected. The
	// cases returned are not changed by it.
	Expected func(report.Case) string
	// Assume names known deviations the model predicts instead of SPEC.md
	// (Assumable lists those it can); any other name is an error.
	Assume []string
	// Attribute, when set, names the clauses of the first observation on
	// which a failing case diverges (given its instances, setup and
	// actions up to the failing one) and that observation; the case then
	// reports those as its Attributed clauses. Nil clauses or an error
	// leave the property's tags. The model stays independent: the caller
	// decides how (plankit check replays the case in lockstep against the
	// reference).
	Attribute func(newPort func() sim.Port, setup Setup, acts []sim.Action) (clauses []string, observation string, err error)
}

// PRNG is a Chooser drawing from a seeded PCG generator. Run uses it
// instead of rapid's engine, whose flags, wall-clock bounds and fail files
// do not fit a command (see the package comment); the generators are the
// same, only the source of choices differs.
type PRNG struct{ r *rand.Rand }

// NewPRNG returns a chooser seeded from seed and a case label.
func NewPRNG(seed int64, label string) *PRNG {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d", label, seed)
	return &PRNG{r: rand.New(rand.NewPCG(uint64(seed), h.Sum64()))}
}

// Intn implements Chooser.
func (p *PRNG) Intn(_ string, n int) int { return p.r.IntN(n) }

// Run runs every property (or those named in Only) against the
// implementation and returns one report.Case per property, in catalog
// order. A failing property's case carries the path of its counterexample
// trace. An error means the implementation could not be run (it wraps a
// *sim.ImplError) or ctx was cancelled; every property is listed even
// then, those not judged with the status report.Errored (the
// implementation could not be run) or report.NotRun (cancelled).
func Run(ctx context.Context, opts Options) ([]report.Case, error) {
	if opts.NewPort == nil {
		return nil, errors.New("properties: Options.NewPort is required")
	}
	if opts.Checks <= 0 {
		opts.Checks = defaultChecks
	}
	if opts.Steps <= 0 {
		opts.Steps = defaultSteps
	}
	out := opts.Output
	if out == nil {
		out = io.Discard
	}
	for _, name := range opts.Only {
		if lookup(name) == nil {
			return nil, fmt.Errorf("unknown property %q (known: %s)", name, strings.Join(names(), ", "))
		}
	}
	dev, err := ParseDeviations(opts.Assume)
	if err != nil {
		return nil, fmt.Errorf("--assume: %w", err)
	}
	var selected []*property
	for i := range props {
		if len(opts.Only) == 0 || contains(opts.Only, props[i].Name) {
			p := props[i]
			p.assume = dev
			selected = append(selected, &p)
		}
	}
	port := opts.NewPort()
	id, err := sim.Start(port)
	if err != nil {
		err = &sim.ImplError{Op: "start", Err: err}
	} else if err = port.Stop(); err != nil {
		err = &sim.ImplError{Op: "stop", Err: err}
	}
	if err != nil {
		if ctx.Err() != nil {
			return notRun(selected, report.NotRun, msgInterrupted), ctx.Err()
		}
		return notRun(selected, report.Errored, "not run: the implementation could not be started: "+err.Error()), err
	}
	for _, p := range selected {
		p.id = id
	}
	fmt.Fprintf(out, "properties: seed %d, %d checks of %d actions\n", opts.Seed, opts.Checks, opts.Steps)
	cex := &counterexampleDir{path: opts.CounterexampleDir}
	// Every case of every property is a task; tasks run on opts.Jobs
	// workers and are judged in order (catalog order, then case order), so
	// the first failing case of a property is the same for any number of
	// workers. A case after a known failure of its property is not run.
	checks := opts.Checks
	results := make([]caseResult, len(selected)*checks)
	failedAt := make([]atomic.Int64, len(selected))
	for k := range failedAt {
		failedAt[k].Store(int64(checks))
	}
	task := func(t int) {
		k, i := t/checks, t%checks
		if ctx.Err() != nil || int64(i) > failedAt[k].Load() {
			return
		}
		f, err := runCase(selected[k], i, opts)
		results[t] = caseResult{ran: true, f: f, err: err}
		if f != nil || err != nil {
			for {
				cur := failedAt[k].Load()
				if int64(i) >= cur || failedAt[k].CompareAndSwap(cur, int64(i)) {
					break
				}
			}
		}
	}
	var cases []report.Case
	var runErr error
	whyNotRun := "not run: the implementation could not be run"
	var notJudged *report.Case // the property the implementation broke in
	judged := 0                // properties with a case in cases
	done := func(t int) bool {
		k, i := t/checks, t%checks
		if k < judged {
			return true // decided by an earlier case
		}
		p, r := selected[k], results[t]
		if !r.ran {
			// Interrupted before this case ran.
			return false
		}
		if r.f == nil && r.err == nil && i < checks-1 {
			return true
		}
		c, err := judge(ctx, p, i, r, opts, cex)
		c.Choices = choicesOf(p, id.Choices)
		switch {
		case err != nil && ctx.Err() != nil:
			// Cut short: an error now is most likely the interruption
			// ending the implementation.
			return false
		case errors.Is(err, sim.ErrUnsupported):
			// The implementation declined a request this property needs.
			c.Status, c.Message = report.Skipped, "not judged: "+err.Error()
			fmt.Fprintf(out, "skip %s (%s): %s\n", p.Name, strings.Join(p.Clauses, ", "), c.Message)
		case err != nil:
			runErr = fmt.Errorf("property %s: %w", p.Name, err)
			var we *writeError
			if errors.As(err, &we) {
				// The property failed; only its trace could not be
				// written: the run stops there, and the rest is not judged.
				cases = append(cases, c)
				judged++
				whyNotRun = "not run: the run stopped when a counterexample could not be written"
				return false
			}
			nj := report.Case{ID: p.Name, Kind: report.KindProperty, Name: p.Name, Clauses: p.Clauses, Choices: c.Choices,
				Status: report.Errored, Message: "not judged: the implementation could not be run: " + err.Error()}
			notJudged = &nj
			return false
		case c.Status == report.Passed:
			fmt.Fprintf(out, "ok   %s (%s): %d checks\n", p.Name, strings.Join(p.Clauses, ", "), opts.Checks)
		case opts.Expected != nil && opts.Expected(c) != "":
			fmt.Fprintf(out, "XFAIL %s (%s): %s [expected by %s]\n", p.Name, strings.Join(p.Clauses, ", "), safetext.Line(c.Message), opts.Expected(c))
		default:
			fmt.Fprintf(out, "FAIL %s (%s): %s\n", p.Name, strings.Join(p.Clauses, ", "), safetext.Line(c.Message))
		}
		cases = append(cases, c)
		judged++
		return true
	}
	werr := workers.Run(ctx, opts.Jobs, len(results), task, done)
	if opts.Discard != nil {
		// Every task has returned: the cases that ran past their
		// property's verdict (or after the run stopped) are dropped.
		for t, r := range results {
			k, i := t/checks, t%checks
			if r.ran && (k >= judged || int64(i) > failedAt[k].Load()) {
				opts.Discard(sim.Check{ID: caseLabel(selected[k], i), ProcessLocal: selected[k].processLocal})
			}
		}
	}
	switch {
	case runErr != nil:
		rest := notRun(selected[judged:], report.Errored, whyNotRun)
		if notJudged != nil {
			rest[0] = *notJudged
		}
		return append(cases, rest...), runErr
	case werr != nil || ctx.Err() != nil:
		if werr == nil {
			werr = ctx.Err()
		}
		return append(cases, notRun(selected[judged:], report.NotRun, msgInterrupted)...), werr
	}
	return cases, nil
}

// caseResult is what one generated case found.
type caseResult struct {
	ran bool
	f   *Failure
	err error
}

const msgInterrupted = "not run: the run was interrupted"

// notRun lists properties that were not judged, with status and message,
// so every report still lists them.
func notRun(props []*property, status, message string) []report.Case {
	var out []report.Case
	for _, p := range props {
		out = append(out, report.Case{ID: p.Name, Kind: report.KindProperty, Name: p.Name, Clauses: p.Clauses,
			Status: status, Message: message})
	}
	return out
}

// portFor is the port factory of one case: opts.PortFor told the case, or
// opts.NewPort.
func portFor(p *property, i int, opts Options) func() sim.Port {
	if opts.PortFor == nil {
		return opts.NewPort
	}
	check := sim.Check{ID: caseLabel(p, i), ProcessLocal: p.processLocal}
	return func() sim.Port { return opts.PortFor(check) }
}

func caseLabel(p *property, i int) string { return fmt.Sprintf("%s/%02d", p.Name, i) }

// runCase generates and checks case i of a property.
func runCase(p *property, i int, opts Options) (*Failure, error) {
	chooser := NewPRNG(opts.Seed, caseLabel(p, i))
	newPort := portFor(p, i, opts)
	switch p.kind {
	case "config":
		return checkConfig(newPort, chooser)
	case "without-package":
		return checkWithoutPackage(chooser, opts.Steps)
	default:
		return generate(p, newPort, chooser, opts.Steps)
	}
}

// writeError is a counterexample that could not be written (a symbolic
// link at its name, a full disk): the run stops, the failure is reported.
type writeError struct{ err error }

func (e *writeError) Error() string { return "writing the counterexample: " + e.err.Error() }
func (e *writeError) Unwrap() error { return e.err }

// counterexampleDir is where a run writes its counterexamples: the named
// directory, or one temporary directory made when the first one is written.
type counterexampleDir struct{ path string }

func (d *counterexampleDir) get() (string, error) {
	if d.path == "" {
		p, err := os.MkdirTemp("", "plankit-counterexamples-")
		if err != nil {
			return "", err
		}
		d.path = p
	}
	return d.path, nil
}

// judge turns a property's first failing case i (or its last case, when
// every case passed) into its report case: a failure is shrunk and written
// as a counterexample trace.
func judge(ctx context.Context, p *property, i int, r caseResult, opts Options, cex *counterexampleDir) (report.Case, error) {
	c := report.Case{ID: p.Name, Kind: report.KindProperty, Name: p.Name, Clauses: p.Clauses, Status: report.Passed}
	if r.err != nil {
		return c, r.err
	}
	f := r.f
	if f == nil {
		return c, nil
	}
	if err := ctx.Err(); err != nil {
		return c, err
	}
	newPort := portFor(p, i, opts)
	if p.kind == "" || p.kind == "determinism" {
		var err error
		if f, err = shrink(p, newPort, f, 1500); err != nil {
			return c, err
		}
	}
	dir, err := cex.get()
	if err != nil {
		return c, err
	}
	path, reproduced, err := WriteCounterexample(dir, p.Info, opts.Seed, i, f, newPort)
	if err != nil {
		c.Status = report.Failed
		c.Message = fmt.Sprintf("seed %d, case %d: %s; the counterexample could not be written: %v", opts.Seed, i, f, err)
		return c, &writeError{err}
	}
	c.Status = report.Failed
	c.Counterexample = path
	c.Message = fmt.Sprintf("seed %d, case %d: %s; counterexample %s", opts.Seed, i, f, path)
	if opts.Replay != "" {
		c.Message += fmt.Sprintf(" (replay: %s %s)", opts.Replay, path)
	}
	if f.Note != "" {
		c.Message += " (" + f.Note + ")"
	}
	if !reproduced {
		c.Message += " (the trace replays the sequence, but its expectation cannot express this failure)"
	}
	if opts.Attribute != nil && p.kind != "without-package" && len(f.Actions) > 0 {
		if cl, obs, err := opts.Attribute(newPort, f.Setup, f.Actions[:min(f.Index+1, len(f.Actions))]); err == nil && len(cl) > 0 {
			c.Attributed = cl
			c.Message += fmt.Sprintf(" (first differing observation: %s)", obs)
		}
	}
	return c, nil
}

// WriteCounterexample writes a failure as a trace file that `plankit sim`
// replays to the same failure: the shrunk actions, with the missed
// expectation on the failing one. It reports whether replaying the
// written file reproduces the failure. dir empty means a new temporary
// directory; the file is written atomically and a symbolic link at its
// name is refused (the error wraps atomicfile.ErrSymlink).
func WriteCounterexample(dir string, info Info, seed int64, index int, f *Failure, newPort func() sim.Port) (string, bool, error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "plankit-counterexamples-")
		if err != nil {
			return "", false, err
		}
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", false, err
	}
	var script []trace.Entry
	for i, act := range f.Actions {
		e := trace.Entry{Action: act}
		if i == f.Index {
			x := f.Expect
			e.Expect = &x
		}
		script = append(script, e)
	}
	desc := fmt.Sprintf("Counterexample to property %s, found with seed %d (case %d) and shrunk to %d actions. The last action fails: %s",
		info.Name, seed, index, len(f.Actions), strings.Join(f.Messages, "; "))
	// The failures quote what the implementation did: escaped for one
	// line, so the trace file holds it inert (safetext).
	t := f.Setup.Trace(fmt.Sprintf("counterexample: %s", info.Name), safetext.Line(desc), info.Clauses, script)
	b, err := trace.Marshal(t)
	if err != nil {
		return "", false, err
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-seed%d-case%d.yaml", info.Name, seed, index))
	if err := atomicfile.Write(path, b); err != nil {
		return "", false, err
	}
	back, err := trace.ReadFile(path)
	if err != nil {
		return path, false, fmt.Errorf("the written counterexample does not parse: %w", err)
	}
	run := trace.Execute(back, newPort())
	fail, ok := run.FirstFailure()
	return path, run.Err == nil && ok && fail.Index == f.Index, nil
}

// configs are the drawn plugin configs: valid ones and each way CFG-1
// rejects.
var configs = []string{
	`{"section":"Plan first."}`,
	`{"section":"  Think, then act.  "}`,
	`{}`,
	`{"section":""}`,
	`{"section":"   "}`,
	`{"section":42}`,
	`{"section":null}`,
	`{"section":"Plan first.","mode":"strict"}`,
	`{"section":"Plan first.","enabled":true}`,
	`{"sections":"Plan first."}`,
	`[]`,
	`"Plan first."`,
}

// checkConfig loads a drawn config (CFG-1) and compares acceptance with
// the specification.
func checkConfig(newPort func() sim.Port, c Chooser) (*Failure, error) {
	raw := configs[c.Intn("config", len(configs))]
	setup := Setup{Services: sim.Services{Commands: true, UserQuestions: true}, Retries: sim.RetriesPreStep}
	rt, _, err := sim.New(newPort(), setup.Options())
	if err != nil {
		return nil, err
	}
	defer rt.Close()
	act := sim.Action{Load: &sim.LoadAction{Config: json.RawMessage(raw)}}
	res, err := rt.Do(act)
	if err != nil {
		return nil, err
	}
	x := trace.Expect{Error: ptr(!validConfig(raw))}
	if msgs := x.Check("", res); len(msgs) > 0 {
		return &Failure{Setup: setup, Actions: []sim.Action{act}, Index: 0, Expect: x, Messages: append(msgs, "config "+raw)}, nil
	}
	return nil, nil
}

// validConfig is CFG-1: exactly {section: non-blank string}.
func validConfig(raw string) bool {
	var fields map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &fields) != nil || fields == nil || len(fields) != 1 {
		return false
	}
	var s string
	if json.Unmarshal(fields["section"], &s) != nil {
		return false
	}
	return strings.TrimSpace(s) != ""
}

// choicesOf lists the choices a property depends on as name=value, with
// the value the model used.
func choicesOf(p *property, declared map[string]string) []string {
	values := ChoicesOf(declared).Map()
	var out []string
	for _, name := range p.choices {
		out = append(out, name+"="+values[name])
	}
	slices.Sort(out)
	return out
}

func lookup(name string) *property {
	for i := range props {
		if props[i].Name == name {
			return &props[i]
		}
	}
	return nil
}

func names() []string {
	out := make([]string, len(props))
	for i, p := range props {
		out[i] = p.Name
	}
	return out
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
