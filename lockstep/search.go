package lockstep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/internal/shrinker"
	"github.com/plankit/plankit/internal/workers"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

// Kind is the report.Case kind of a lockstep search.
const Kind = report.KindLockstep

// Options configure a lockstep search.
type Options struct {
	// NewImpl builds a fresh instance of the implementation under test.
	NewImpl func() sim.Port
	// NewImplFor, when set, builds the instance a random sequence runs on,
	// knowing its check (sim.Check, ID "lockstep/N"): an adapter's pool
	// then restarts it by its restart policy (under auto: for real in a
	// fixed sample of the sequences, by reset elsewhere). The exhaustive
	// search and shrinking use NewImpl, whose restarts are those of a
	// check about what a restart loses.
	NewImplFor func(sim.Check) sim.Port
	// Assume names reference variants (mutants) the reference runs with:
	// the implementation's known deviations, so the search goes on past
	// them.
	Assume []string
	// Seed fixes every random choice.
	Seed int64
	// Cases is the number of random sequences; Steps their length
	// (default 40).
	Cases int
	Steps int
	// Depth, when positive, also searches every sequence of the
	// exploration alphabet up to this depth.
	Depth int
	// Out receives the trace of a divergence (default: a new temporary
	// directory).
	Out string
	// Output receives progress lines (nil: discarded).
	Output io.Writer
	// Jobs is the number of sequences compared at once, each pair on its
	// own implementation instance (0 or 1: one at a time). The result and
	// the output are the same for any number: the first divergence is the
	// first in case (or transition) order.
	Jobs int
}

// Divergence is the first observation on which the implementation and
// the reference differ, shrunk, with its attribution and classification.
type Divergence struct {
	Diff
	// Search is "random" or "depth N"; Case the random case's number.
	Search  string
	Case    int
	Setup   properties.Setup
	Actions []sim.Action
	// Index is the diverging action in Actions (the last one).
	Index int
	// ExplainedBy lists the smallest sets of known variants (beyond the
	// assumed ones) under which the reference does what the
	// implementation did, each one alone enough; empty when none does: a
	// new deviation.
	ExplainedBy [][]string
	// Trace is the written trace; Reproduced says replaying it fails at
	// the diverging action, and PassesReference that the reference (with
	// the assumptions) passes it.
	Trace string
	// Stated says the trace carries an expectation (some observation of
	// the divergence, or of a follow-up, can be stated in a trace).
	Stated          bool
	Reproduced      bool
	PassesReference bool
	// by is the search of the reading the implementation diverged from
	// when it is not the default's (failure.by).
	by *searcher
}

// New reports whether no known variant explains the divergence.
func (d *Divergence) New() bool { return len(d.ExplainedBy) == 0 }

// Result is what a search covered and found.
type Result struct {
	Implementation sim.Identity
	Assume         []string
	Seed           int64
	Cases, Steps   int
	Depth          int
	// Sequences is the number of random sequences compared; States and
	// Transitions what the exhaustive search covered.
	Sequences   int
	States      int
	Transitions int
	Divergence  *Divergence
	// Runtime is a runtime-level search's divergence (RunRuntime).
	Runtime *RuntimeDivergence
	// runtime: the search compared a whole runtime (RunRuntime).
	runtime bool
	// Interrupted names the search ("random" or "depth") that ctx
	// cancelled before it finished; empty when none was.
	Interrupted string
	// Broken names the search ("random" or "depth") the implementation's
	// failure (a *sim.ImplError) stopped; empty when none did.
	Broken string
}

// Run searches for the first divergence: Cases random sequences, then
// (if Depth > 0) every sequence up to Depth. An error means the
// implementation could not be run (it wraps a *sim.ImplError), a variant
// or choice is unknown, or ctx was cancelled.
func Run(ctx context.Context, opts Options) (*Result, error) {
	out := withDefaults(&opts.Steps, opts.Output)
	id, err := identify[sim.Identity](opts.NewImpl())
	if err != nil {
		return nil, err
	}
	res := &Result{Implementation: id, Assume: opts.Assume, Seed: opts.Seed, Cases: opts.Cases, Steps: opts.Steps, Depth: opts.Depth}
	newRef, err := ReferenceFor(id.Choices, opts.Assume)
	if err != nil {
		return res, err
	}
	fmt.Fprintf(out, "lockstep: %s %s against the reference (%s), seed %d\n", safetext.Line(id.Name), safetext.Line(id.Version), assumedText(opts.Assume), opts.Seed)
	s := &searcher{opts: opts, newRef: newRef, choices: id.Choices, reviewReplies: id.ReviewReplies, id: id}
	if err := s.withReadings(); err != nil {
		return res, err
	}
	d, err := searchBoth(ctx, out, res, s, fmt.Sprintf("sequences of up to %d actions", opts.Steps), "transitions")
	if d != nil {
		res.Divergence = d
	}
	return res, err
}

// withDefaults sets a run's default number of steps (40) where none is
// given, and returns where its progress goes (nowhere when out is nil):
// the opening both levels' runs share.
func withDefaults(steps *int, out io.Writer) io.Writer {
	if *steps <= 0 {
		*steps = 40
	}
	if out == nil {
		return io.Discard
	}
	return out
}

// identify starts and stops impl once for its identity (a plugin's or a
// runtime's), the first thing both levels' runs do; a failure to start or
// stop is the implementation's (*sim.ImplError).
func identify[I any](impl interface {
	Start() (I, error)
	Stop() error
}) (I, error) {
	id, err := impl.Start()
	if err != nil {
		return id, &sim.ImplError{Op: "start", Err: err}
	}
	if err := impl.Stop(); err != nil {
		return id, &sim.ImplError{Op: "stop", Err: err}
	}
	return id, nil
}

// assumedText says what a run assumes, for its progress line.
func assumedText(assume []string) string {
	if len(assume) == 0 {
		return "nothing assumed"
	}
	return "assuming " + strings.Join(assume, ", ")
}

// assumedWith says what a divergence's trace was found assuming, for its
// description ("" when nothing is).
func assumedWith(assume []string) string {
	if len(assume) == 0 {
		return ""
	}
	return " with " + strings.Join(assume, ", ") + " assumed"
}

// traceDir is the directory a divergence's trace is written to: out,
// made if missing, or a new temporary directory when out is empty.
func traceDir(out string) (string, error) {
	if out == "" {
		return os.MkdirTemp("", "plankit-lockstep-")
	}
	return out, os.MkdirAll(out, 0o755)
}

// writeTrace writes a divergence's trace b into dir, named by prefix and
// the search that found it (prefix-seedS-caseC.yaml for the random
// search, prefix-<search>.yaml for the exhaustive one), and returns its
// path.
func writeTrace(dir, prefix string, seed int64, c int, search string, b []byte) (string, error) {
	name := fmt.Sprintf("%s-seed%d-case%d.yaml", prefix, seed, c)
	if search != "random" {
		name = fmt.Sprintf("%s-%s.yaml", prefix, strings.ReplaceAll(search, " ", ""))
	}
	path := filepath.Join(dir, name)
	return path, atomicfile.Write(path, b)
}

// searches are the two searches of a lockstep run at one level and what
// is done with the first divergence (classified by the known variants,
// written as a replayable trace): searcher (plugin level), rtSearcher
// (runtime level).
type searches[D interface {
	comparable
	Summary() string
}] interface {
	random(context.Context, *Result) (D, error)
	exhaustive(context.Context, *Result) (D, error)
	finish(D) error
}

// searchBoth runs the random search (res.Cases), then, if it found no
// divergence, the exhaustive one (res.Depth), reporting each on out; a
// search an interruption or the implementation's failure stopped is
// recorded in res (cut). The first divergence is finished (classified and
// written) and returned; the zero D when there is none. A divergence whose
// trace could not be written (a symbolic link at its name) is returned
// with the error, so that the caller can still report it. cases and
// transitions name what each search compared in its progress line.
func searchBoth[D interface {
	comparable
	Summary() string
}](ctx context.Context, out io.Writer, res *Result, s searches[D], cases, transitions string) (D, error) {
	var d, none D
	var err error
	if res.Cases > 0 {
		if d, err = s.random(ctx, res); err != nil {
			return none, res.cut(ctx, "random", err)
		}
		fmt.Fprintf(out, "random: %d %s compared\n", res.Sequences, cases)
	}
	if d == none && res.Depth > 0 {
		if d, err = s.exhaustive(ctx, res); err != nil {
			return none, res.cut(ctx, "depth", err)
		}
		fmt.Fprintf(out, "depth %d: %d distinct states, %d %s compared\n", res.Depth, res.States, res.Transitions, transitions)
	}
	if d == none {
		fmt.Fprintln(out, "no divergence")
		return none, nil
	}
	if err := s.finish(d); err != nil {
		return d, err
	}
	fmt.Fprintf(out, "divergence: %s\n", safetext.Line(d.Summary()))
	return d, nil
}

// finish classifies d by the known variants and writes its trace, against
// the reference of the reading d diverged from.
func (s *searcher) finish(d *Divergence) error {
	if d.by != nil && d.by != s {
		return d.by.finish(d)
	}
	d.ExplainedBy = s.classify(d)
	return s.write(d)
}

// cut records that search stopped because ctx was cancelled or the
// implementation could not be run, and returns err.
func (r *Result) cut(ctx context.Context, search string, err error) error {
	var ie *sim.ImplError
	switch {
	case ctx.Err() != nil:
		r.Interrupted = search
	case errors.As(err, &ie):
		r.Broken = search
	}
	return err
}

// Summary is the divergence in one line.
func (d *Divergence) Summary() string {
	return fmt.Sprintf("%s, action %d of %d (%s): %s; %s; trace %s", d.Search, d.Index+1, len(d.Actions), d.Actions[d.Index].Name(), d.Diff.String(), classText(d.ExplainedBy), d.Trace)
}

// ReferenceFor returns the reference as the implementation would be if it
// were faithful: its declared choices, plus the assumed variants.
func ReferenceFor(choices map[string]string, assume []string) (func() sim.Port, error) {
	ch, err := reference.ParseChoices(choices)
	if err != nil {
		return nil, &sim.ImplError{Op: "start", Err: fmt.Errorf("the implementation declares a choice the reference does not know: %w", err)}
	}
	var ms reference.Mutants
	for _, name := range assume {
		m, err := reference.LookupMutant(name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m.Name)
	}
	return reference.Factory(reference.Options{Choices: ch, Mutants: ms}), nil
}

type searcher struct {
	opts    Options
	newRef  func() sim.Port
	choices map[string]string
	// reviewReplies: the implementation takes reviews scripted as the
	// seam's reply or failure, so the search may draw them.
	reviewReplies bool
	// id is who the implementation said it is: the search draws the host's
	// tools and skipped empty steps only where it declares them.
	id sim.Identity
	// alts are the searches against the reference under the other
	// readings of the followed choices the implementation leaves undeclared
	// (spec.Readings: the reference follows the first); a sequence passes
	// when one reference agrees with the implementation at every action.
	// Empty when there is one reading.
	alts []*searcher
	// reading is the declaration the search's reference follows
	// (spec.Readings), and differs the choices where it is not the first
	// reading's (name=value), for an alt search.
	reading map[string]string
	differs []string
	// hint is the alt search whose reference last agreed with the
	// implementation, tried first next time.
	hint *readingHint[*searcher]
}

// withReadings sets s.alts for the followed choices the implementation
// leaves undeclared.
func (s *searcher) withReadings() error {
	s.hint = &readingHint[*searcher]{}
	rs := spec.Readings(s.choices, spec.LevelPlugin)
	s.reading = rs[0]
	for _, r := range rs[1:] {
		newRef, err := ReferenceFor(r, s.opts.Assume)
		if err != nil {
			return err
		}
		alt := *s
		alt.alts, alt.newRef, alt.choices, alt.reading = nil, newRef, r, r
		for _, c := range spec.Choices {
			if r[c.Name] != rs[0][c.Name] {
				alt.differs = append(alt.differs, c.Name+"="+r[c.Name])
			}
		}
		s.alts = append(s.alts, &alt)
	}
	return nil
}

// parts reports whether the readings of a followed choice can part on a
// sequence: some action of it can part them (properties.MayPart).
func parts(choice string, acts []sim.Action) bool {
	return slices.ContainsFunc(acts, func(a sim.Action) bool { return properties.MayPart(choice, a) })
}

// partingReadings are the readings of declared worth playing on acts: the
// first, and one for each other combination of the values of the followed
// choices left undeclared that can part on acts.
func partingReadings(declared map[string]string, acts []sim.Action) []map[string]string {
	rs := spec.Readings(declared, spec.LevelPlugin)
	var relevant []string
	for _, c := range spec.Choices {
		if c.Followed && rs[0][c.Name] != declared[c.Name] && parts(c.Name, acts) {
			relevant = append(relevant, c.Name)
		}
	}
	key := func(r map[string]string) string {
		var b strings.Builder
		for _, n := range relevant {
			b.WriteString(n + "=" + r[n] + ";")
		}
		return b.String()
	}
	seen := map[string]bool{}
	var out []map[string]string
	for _, r := range rs {
		if k := key(r); !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

// altsFor are the alt searches worth playing on a sequence: one for each
// distinct reading of the followed choices that can part on it, the
// first reading's values aside.
func (s *searcher) altsFor(acts []sim.Action) []*searcher {
	if len(s.alts) == 0 {
		return nil
	}
	var relevant []string
	for _, c := range spec.Choices {
		if c.Followed && s.reading[c.Name] != s.choices[c.Name] && parts(c.Name, acts) {
			relevant = append(relevant, c.Name)
		}
	}
	key := func(r map[string]string) string {
		var b strings.Builder
		for _, n := range relevant {
			b.WriteString(n + "=" + r[n] + ";")
		}
		return b.String()
	}
	seen := map[string]bool{key(s.reading): true}
	var out []*searcher
	for _, a := range s.alts {
		if k := key(a.reading); !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	return out
}

// failure is a divergence before shrinking.
type failure struct {
	setup properties.Setup
	acts  []sim.Action
	imp   []sim.Result
	diff  *Diff
	expr  *Diff
	// by is the search whose reference the implementation diverged from
	// when it is another reading's (searcher.alts); nil: this one's.
	by *searcher
}

// run replays a fixed sequence side by side. ok is false when the model
// finds an action invalid (a shrink candidate that no longer fits).
func (s *searcher) run(setup properties.Setup, acts []sim.Action) (f *failure, ok bool, err error) {
	return s.runFrom(s.opts.NewImpl, setup, acts, 0)
}

// caseFactory is the factory random case i runs on: newFor with the
// case's check (ID "lockstep/i", so an adapter's pool restarts it by its
// policy) when set, else newImpl. Both levels' searches use it.
func caseFactory[T any](newImpl func() T, newFor func(sim.Check) T, i int) func() T {
	if newFor == nil {
		return newImpl
	}
	c := sim.Check{ID: fmt.Sprintf("lockstep/%d", i)}
	return func() T { return newFor(c) }
}

// runFrom is run, except that it goes on past divergences before action
// from, and from there on stops only at one a trace can state. Where the
// implementation leaves followed choices undeclared, a sequence that
// diverges from the reference is played against the reference of each
// other reading that can part on it (altsFor): it passes when one agrees
// at every action, and otherwise the divergence reported is the latest
// (the reading that explained the most of the sequence; the first
// reading's when they tie). The readings are tried with the one that
// agreed last first: the outcome does not depend on the order (an
// implementation error under one reading is returned only when no
// reading agrees, the first reading's in their order).
func (s *searcher) runFrom(newImp func() sim.Port, setup properties.Setup, acts []sim.Action, from int) (f *failure, ok bool, err error) {
	f, ok, err = s.runOne(newImp, setup, acts, from)
	if f == nil || err != nil {
		return f, ok, err
	}
	alts := s.altsFor(acts)
	errs := make([]error, len(alts))
	by := -1 // the index in alts of f's reading (-1: the first reading)
	for _, j := range s.hint.first(alts) {
		g, _, err := alts[j].runOne(newImp, setup, acts, from)
		switch {
		case err != nil:
			errs[j] = err
		case g == nil:
			s.hint.note(alts[j])
			return nil, true, nil
		case len(g.acts) > len(f.acts) || len(g.acts) == len(f.acts) && by >= 0 && j < by:
			g.by, f, by = alts[j], g, j
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, true, err
		}
	}
	return f, ok, nil
}

// runOne is runFrom against s's reference alone.
func (s *searcher) runOne(newImp func() sim.Port, setup properties.Setup, acts []sim.Action, from int) (f *failure, ok bool, err error) {
	p, d, err := startPair(s.newRef, newImp, setup, s.choices)
	if err != nil {
		return nil, true, err
	}
	if d != nil {
		return &failure{setup: setup, acts: p.acts, diff: d, expr: d}, true, nil
	}
	defer p.close()
	for k, act := range acts {
		// A config load comes first only; a later load is the plugin
		// loaded again as configured (after an unload), which the model
		// predicts like any action.
		config := act.Load != nil && k == 0
		if !config && !p.model.Valid(act) {
			return nil, false, nil
		}
		if !config {
			p.model.Apply(act)
		}
		d, err := p.do(act)
		if errors.Is(err, errRefused) || errors.Is(err, sim.ErrUnsupported) {
			// The sequence stops at an action the reference's runtime
			// refuses, or one needing a capability the implementation
			// does not declare (unload, say): what ran before agreed.
			return nil, true, nil
		}
		if err != nil {
			return nil, true, err
		}
		if d != nil && (from == 0 || k >= from && p.expr != nil) {
			return &failure{setup: setup, acts: slices.Clone(p.acts), imp: slices.Clone(p.impResults), diff: d, expr: p.expr}, true, nil
		}
		if p.unconfigured(k, act) {
			return nil, true, nil
		}
	}
	return nil, true, nil
}

// outcome is what comparing one sequence gave.
type outcome struct {
	f   *failure
	err error
	// model is the model after the sequence (exhaustive search).
	model *properties.Model
}

// compare runs the sequences on s.opts.Jobs workers and hands each outcome
// to done in sequence order until done returns false.
func (s *searcher) compare(ctx context.Context, n int, run func(i int) outcome, done func(i int, o outcome) bool) error {
	outs := make([]outcome, n)
	return workers.Run(ctx, s.opts.Jobs, n, func(i int) { outs[i] = run(i) }, func(i int) bool {
		o := outs[i]
		outs[i] = outcome{}
		return done(i, o)
	})
}

func (s *searcher) random(ctx context.Context, res *Result) (*Divergence, error) {
	configs := properties.Configs()
	var first *failure
	var firstErr error
	found := -1
	err := s.compare(ctx, s.opts.Cases, func(i int) outcome {
		c := properties.NewPRNG(s.opts.Seed, fmt.Sprintf("lockstep/%d", i))
		setup := properties.DrawSetup(c)
		w := weightsOf(i)
		if i >= s.opts.Cases/2 && i%2 == 1 && i%8 != 7 {
			// Every other case of the second half (not a review-reply one)
			// also draws the host's own tools and a runtime that skips empty
			// steps, where the implementation declares it can be shown them;
			// the first half keeps the plain setups.
			setup, w = properties.DrawHost(c, setup).Within(s.id), hostWeights
		}
		m := s.model(setup)
		var acts []sim.Action
		if c.Intn("config-case", 8) == 0 {
			svc := setup.Services
			acts = append(acts, sim.Action{Load: &sim.LoadAction{Config: []byte(configs[c.Intn("config", len(configs))]), Services: &svc}})
		}
		for range s.opts.Steps {
			act := properties.Draw(m, c, w)
			m.Apply(act)
			acts = append(acts, act)
		}
		f, _, err := s.runFrom(caseFactory(s.opts.NewImpl, s.opts.NewImplFor, i), setup, acts, 0)
		return outcome{f: f, err: err}
	}, func(i int, o outcome) bool {
		res.Sequences++
		first, firstErr, found = o.f, o.err, i
		return o.err == nil && o.f == nil
	})
	switch {
	case err != nil:
		return nil, err
	case firstErr != nil:
		return nil, firstErr
	case first == nil:
		return nil, nil
	}
	f, err := s.shrink(first, 1000)
	if err != nil {
		return nil, err
	}
	return s.divergence(f, "random", found), nil
}

func (s *searcher) divergence(f *failure, search string, i int) *Divergence {
	return &Divergence{Diff: *f.diff, Search: search, Case: i, Setup: f.setup, Actions: f.acts, Index: len(f.acts) - 1, by: f.by}
}

// shrink removes and simplifies actions while a divergence of the same
// observation kind remains, so the trace is short; the clauses are then
// judged on the shrunk sequence, whose last action is the simplest
// witness. budget bounds the replays.
func (s *searcher) shrink(f *failure, budget int) (*failure, error) {
	best := f
	try := func(setup properties.Setup, acts []sim.Action) ([]sim.Action, bool, error) {
		g, ok, err := s.run(setup, acts)
		if err != nil || !ok || g == nil || g.diff.Observation != best.diff.Observation {
			return nil, false, err
		}
		best = g
		return g.acts, true, nil
	}
	if def := (properties.Setup{Services: sim.Services{Commands: true, UserQuestions: true}, Retries: sim.RetriesPreStep}); best.setup != def {
		budget--
		if _, _, err := try(def, best.acts); err != nil {
			return best, err
		}
	}
	if plain := best.setup; plain.HostTools || plain.EmptySteps != "" {
		plain.HostTools, plain.EmptySteps = false, ""
		budget--
		if _, _, err := try(plain, best.acts); err != nil {
			return best, err
		}
	}
	_, err := shrinker.Sequence(best.acts, budget, func(acts []sim.Action) ([]sim.Action, bool, error) { return try(best.setup, acts) }, simplify)
	return best, err
}

// simplify returns simpler variants of an action: a /plan command as the
// set it stands for, a step without its extras.
func simplify(act sim.Action) []sim.Action {
	if c := act.Command; c != nil && spec.ParseCommand(c.Input).IsPlan() {
		return []sim.Action{{Set: &sim.SetAction{Agent: c.Agent, Active: spec.ParseCommand(c.Input).Active()}}}
	}
	return properties.Simpler(act)
}

// exhaustive compares every sequence of properties.Alphabet up to Depth,
// breadth first, merging sequences that reach the same model state; the
// first divergence is a shortest one.
func (s *searcher) exhaustive(ctx context.Context, res *Result) (*Divergence, error) {
	setup := properties.Setup{Services: sim.Services{Commands: true, UserQuestions: true}, Retries: sim.RetriesPreStep}
	search := fmt.Sprintf("depth %d", s.opts.Depth)
	alphabet := properties.Alphabet()
	start := s.model(setup)
	if f, _, err := s.run(setup, nil); err != nil || f != nil {
		if f != nil {
			return s.divergence(f, search, 0), nil
		}
		return nil, err
	}
	var d *Divergence
	var runErr error
	states, err := properties.Levels(ctx, s.opts.Jobs, s.opts.Depth, start, alphabet, func(prefix []sim.Action, act sim.Action) outcome {
		seq := append(slices.Clone(prefix), act)
		f, _, err := s.run(setup, seq)
		if err != nil || f != nil {
			return outcome{f: f, err: err}
		}
		m := s.model(setup)
		for _, a := range seq {
			m.Apply(a)
		}
		return outcome{model: m}
	}, func(_ []sim.Action, _ sim.Action, o outcome) (*properties.Model, bool) {
		res.Transitions++
		switch {
		case o.err != nil:
			runErr = o.err
			return nil, false
		case o.f != nil:
			d = s.divergence(o.f, search, 0)
			return nil, false
		}
		return o.model, true
	})
	res.States = states
	switch {
	case err != nil:
		return nil, err
	case runErr != nil:
		return nil, runErr
	}
	return d, nil
}

// Known lists the names of every known variant: the mutant catalogue and
// the variants of published deviations.
func Known() []reference.MutantInfo { return reference.Known() }

// classify finds the smallest set of known variants (one, then two),
// beyond the assumed ones, under which the reference does exactly what
// the implementation did over the diverging sequence.
func (s *searcher) classify(d *Divergence) [][]string {
	f, _, err := s.run(d.Setup, d.Actions)
	if err != nil || f == nil || len(f.imp) < len(d.Actions) {
		return nil
	}
	var candidates []string
	for _, m := range Known() {
		if !slices.Contains(s.opts.Assume, string(m.Name)) && s.applies(string(m.Name)) {
			candidates = append(candidates, string(m.Name))
		}
	}
	explains := func(set ...string) bool {
		newRef, err := ReferenceFor(s.choices, append(slices.Clone(s.opts.Assume), set...))
		return err == nil && replayRef(newRef, d.Setup, d.Actions, f.imp)
	}
	return smallestExplaining(candidates, explains)
}

// smallestExplaining returns the smallest sets of candidate variants that
// explain a divergence: every single one that does, else every pair; none
// when no single variant or pair does. Both levels classify with it.
func smallestExplaining(candidates []string, explains func(set ...string) bool) [][]string {
	var out [][]string
	for _, a := range candidates {
		if explains(a) {
			out = append(out, []string{a})
		}
	}
	if len(out) > 0 {
		return out
	}
	for i, a := range candidates {
		for _, b := range candidates[i+1:] {
			if explains(a, b) {
				out = append(out, []string{a, b})
			}
		}
	}
	return out
}

// applies says whether a variant can show under the implementation's
// declared choices.
func (s *searcher) applies(name string) bool {
	for _, v := range reference.Variants {
		if string(v.Name) != name {
			continue
		}
		for k, want := range v.Choices {
			if s.choices[k] != want {
				return false
			}
		}
	}
	return true
}

// followups are actions appended to a witness whose divergence no trace
// expectation can state (an effect such as a steered or injected message),
// so that it shows in the log a later action appends.
func followups(agent string) [][]sim.Action {
	step := sim.Action{Step: &sim.StepAction{Agent: agent}}
	prompt := sim.Action{Prompt: &sim.TextAction{Agent: agent, Text: "Go on."}}
	end := sim.Action{EndTurn: &sim.EndTurnAction{Agent: agent}}
	return [][]sim.Action{{step}, {prompt, step}, {end, prompt, step}}
}

// witness returns the actions of the trace and the expectation on its
// last action: the divergence's own observation when a trace can state
// it, else another observation of the same action, else one of a
// follow-up that makes the divergence visible in the log.
func (s *searcher) witness(d *Divergence) ([]sim.Action, *trace.Expect, string) {
	if d.Expressible {
		x := d.Expect
		return d.Actions, &x, ""
	}
	f, _, err := s.run(d.Setup, d.Actions)
	if err == nil && f != nil && f.expr != nil {
		x := f.expr.Expect
		return d.Actions, &x, fmt.Sprintf(" A trace cannot state that observation; the expectation states another of the same action: %s.", f.expr.String())
	}
	agent := d.Agent
	if agent == "" {
		agent = d.Actions[d.Index].Agent()
	}
	for _, fu := range followups(agent) {
		acts := append(slices.Clone(d.Actions), fu...)
		g, ok, err := s.runFrom(s.opts.NewImpl, d.Setup, acts, len(d.Actions))
		if err != nil || !ok || g == nil || g.expr == nil {
			continue
		}
		x := g.expr.Expect
		return g.acts, &x, fmt.Sprintf(" A trace cannot state that observation; the trace goes on until it shows in the log: %s at action %d.", g.expr.String(), len(g.acts))
	}
	return d.Actions, nil, " No trace expectation can state this observation; the trace only replays the sequence."
}

// write writes the divergence as a trace: the shrunk actions, with the
// reference's observation as the expectation on the diverging action.
// It then replays the file against the implementation (it must fail
// there) and the reference with the assumptions (it must pass).
func (s *searcher) write(d *Divergence) error {
	dir, err := traceDir(s.opts.Out)
	if err != nil {
		return err
	}
	acts, x, note := s.witness(d)
	var script []trace.Entry
	for k, act := range acts {
		e := trace.Entry{Action: act}
		if k == len(acts)-1 && x != nil {
			e.Expect = x
		}
		script = append(script, e)
	}
	assumed := assumedWith(s.opts.Assume)
	if len(s.differs) > 0 {
		under := strings.Join(s.differs, " ")
		assumed += " under " + under + " (the reading, of choices the implementation does not declare, that agreed with it longer; the reference needs --choice " + strings.Join(s.differs, " --choice ") + " to pass this trace)"
	}
	desc := fmt.Sprintf("Lockstep divergence (%s, seed %d, case %d) shrunk to %d actions: at action %d the implementation and the reference%s differ on %s.%s",
		d.Search, s.opts.Seed, d.Case, len(d.Actions), d.Index+1, assumed, d.Diff.String(), note)
	// The difference quotes what the implementation said: escaped for
	// one line, so the trace file holds it inert (safetext).
	t := d.Setup.Trace("lockstep divergence: "+d.Observation, safetext.Line(desc), d.Clauses, script)
	b, err := trace.Marshal(t)
	if err != nil {
		return err
	}
	path, err := writeTrace(dir, "lockstep", s.opts.Seed, d.Case, d.Search, b)
	if err != nil {
		return err
	}
	d.Trace = path
	d.Stated = x != nil
	back, err := trace.ReadFile(path)
	if err != nil {
		return fmt.Errorf("the written trace does not parse: %w", err)
	}
	run := trace.Execute(back, s.opts.NewImpl())
	fail, ok := run.FirstFailure()
	d.Reproduced = run.Err == nil && ok && fail.Index == len(script)-1 && script[len(script)-1].Expect != nil
	pass := trace.Execute(back, s.newRef())
	d.PassesReference = pass.Err == nil && !pass.Failed()
	return nil
}

// ReportCases turns a search into report cases: one for the random search and
// one for the exhaustive one. A failing case names only the clauses of
// the observation that diverged.
func (r *Result) ReportCases() []report.Case {
	var out []report.Case
	found, dsearch, clauses, path, summary := false, "", []string(nil), "", ""
	switch {
	case r.Divergence != nil:
		d := r.Divergence
		found, dsearch, clauses, path, summary = true, d.Search, d.Clauses, d.Trace, d.Summary()
	case r.Runtime != nil:
		d := r.Runtime
		found, dsearch, clauses, path, summary = true, d.Search, d.Clauses, d.Path, d.Summary()
	}
	prefix := "lockstep"
	if r.runtime {
		prefix = "runtime-lockstep"
	}
	add := func(id, name, search string) {
		c := report.Case{ID: id, Kind: Kind, Name: name, Clauses: Clauses(), Status: report.Passed}
		if found && (dsearch == search || (search == "depth" && strings.HasPrefix(dsearch, "depth"))) {
			c.Status = report.Failed
			c.Clauses = slices.Clone(clauses)
			c.Counterexample = path
			c.Message = summary
		} else if found && search == "depth" {
			c.Status = report.Skipped
			c.Message = "not run: the random search diverged first"
		} else if r.Interrupted == search || (r.Interrupted == "random" && search == "depth") {
			c.Status = report.NotRun
			c.Message = "not run: the run was interrupted"
		} else if r.Broken == search || (r.Broken == "random" && search == "depth") {
			c.Status = report.Errored
			c.Message = "not judged: the implementation could not be run"
		}
		out = append(out, c)
	}
	what := "sequences of %d actions"
	if r.runtime {
		what = "runtime scripts of %d steps"
	}
	if r.Cases > 0 {
		add(prefix+"-random", fmt.Sprintf("%s: %d random "+what, prefix, r.Cases, r.Steps), "random")
	}
	if r.Depth > 0 {
		add(fmt.Sprintf("%s-depth%d", prefix, r.Depth), fmt.Sprintf("%s: every %s up to depth %d", prefix, map[bool]string{false: "sequence", true: "script"}[r.runtime], r.Depth), "depth")
	}
	return out
}

// weights bias the random draw toward the actions that move plan state:
// selections, steps and retries; outside writers and the plugin unloaded
// and loaded again are drawn now and then.
var weights = properties.Weights{"set": 4, "step": 4, "retry": 2, "command": 2, "end-turn": 2, "prompt": 2, "append": 1, "open": 1, "unload": 1, "load": 2}

// replyWeights also draw the review seam's replies and failures (for an
// implementation that takes them); every eighth random sequence uses them,
// so the others stay the sequences they always were.
var replyWeights = properties.Weights{"set": 4, "step": 4, "retry": 2, "command": 2, "end-turn": 2, "prompt": 2, "step-reply": 2}

// weightsOf is the weights of the i-th random sequence.
func weightsOf(i int) properties.Weights {
	if i%8 == 7 {
		return replyWeights
	}
	return weights
}

// hostWeights add the host's tool calls and steps left with no messages.
var hostWeights = properties.Weights{"set": 4, "step": 4, "retry": 2, "command": 2, "end-turn": 2, "prompt": 2, "step-host-tool": 3, "step-empty": 3}

// Attribute names a failing property's cause: its sequence (the setup and
// the actions up to the failing one) departed from the reference first
// where Depart says. It is how a failing property is attributed to the
// clauses of the action that departed rather than to the property's tags
// or the observation that finally failed.
func Attribute(newImpl func() sim.Port, assume []string, setup properties.Setup, acts []sim.Action) (*Departure, error) {
	return Depart(newImpl, assume, setup.Options(), acts)
}

// model is the model of a fresh run of the searched implementation.
func (s *searcher) model(setup properties.Setup) *properties.Model {
	m := properties.NewModel(setup, properties.ChoicesOf(s.reading)) // one reading: no forks
	m.ReviewReplies = s.reviewReplies
	return m
}
