// Package conformance runs the plan-mode conformance suite against an
// implementation of sim.Port: the Gherkin scenarios of package features,
// then the properties of package properties (or, given a whole runtime,
// the runtime level's suites of package loop/suite). It is the gate behind
// `plankit check`, as a library in the shape of testing/fstest.TestFS:
// Run returns the results as a report.Run, and Test runs the whole suite
// from an implementer's own go test, one subtest per check, with plankit
// check's verdict (the same attribution, the same reports).
//
// The searches of the plankit command run from go test too, against a
// sim.Port factory: Diff (plankit diff: the implementation beside the
// reference on generated sequences), Explore (plankit explore: every
// sequence up to a depth against the model) and Fuzz (Go's fuzzer drives
// the sequences); Replay runs one trace a failure wrote against the
// implementation. docs/checking-from-go-test.md shows a whole module.
//
// A run never reads the clock or the environment: the date that decides
// whether an expected-failure entry has expired, the seed and the output
// sink are all options.
package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/plankit/plankit/features"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// Suite names, for Options.Only.
const (
	Features   = "features"
	Properties = "properties"
)

// DefaultChecks is the number of generated cases per property when
// Options.Checks is 0.
const DefaultChecks = 100

// Options configure a conformance run. Only NewPort (or NewRuntime) is
// required.
type Options struct {
	// NewPort starts a fresh instance of the implementation under test.
	// The run calls it once to read the implementation's identity, then
	// once for every scenario and generated case.
	NewPort func() sim.Port
	// Choices are the implementation's picks for the silent points of the
	// specification (spec.Choices), for an implementation whose Start does
	// not declare them in Identity.Choices. A pick declared at Start must
	// agree; one declared nowhere skips the checks that depend on it.
	Choices map[string]string
	// Seed orders the scenarios (0 keeps file order) and draws the
	// properties' cases; the same seed gives the same report.
	Seed int64
	// Checks is the number of generated cases per property (0: DefaultChecks).
	Checks int
	// Tags is a godog tag expression selecting scenarios, e.g.
	// "@PEND-5 && ~@choice:cancel-pending=keep-equal". Properties carry no
	// tags, so with Tags set only the features run.
	Tags string
	// Only runs one suite, Features or Properties; empty runs both.
	Only string
	// Manifest lists the checks the implementation is expected to fail
	// (docs/expected-failures.md); nil expects everything to pass.
	Manifest *report.Manifest
	// Today (YYYY-MM-DD) is the date against which manifest entries
	// expire; required with a Manifest.
	Today string
	// UpdateManifest, when set, is given the cases of a complete run
	// (unfiltered, and the implementation never broke) before the manifest
	// is applied, and returns the manifest to apply instead: `plankit check
	// --fix` rewrites the manifest file there.
	UpdateManifest func(cases []report.Case) (*report.Manifest, error)
	// CounterexampleDir receives the trace file of each failing property
	// (empty: a fresh temporary directory).
	CounterexampleDir string
	// Replay, when set, is a command that replays a counterexample trace
	// against this implementation, before the trace's path, and failure
	// messages (and so the reports) name it. Empty, as plankit check runs
	// it: the messages name the trace only, so the reports are the same
	// whoever ran the check, and each runner says how to replay it (Test:
	// Replay or ReplayRuntime; plankit check: plankit sim with its flags).
	Replay string
	// Output receives the progress of the run: godog's formatter output
	// and one line per property. Nil discards it.
	Output io.Writer
	// Format is godog's formatter, "pretty" or "progress"; empty prints no
	// scenario progress.
	Format string
	// Started, when set, is called with the implementation's identity
	// before any check runs.
	Started func(sim.Identity)
	// PortFor, when set, builds each scenario's and generated case's
	// instances instead of NewPort, told which check they are for (an
	// adapter decides from it whether restarts are real or resets).
	PortFor func(sim.Check) sim.Port
	// Jobs is the number of property cases run at once, each on its own
	// instances (<= 1: one at a time); the report is the same for any
	// number.
	Jobs int
	// Discard, when set, is told each property case that ran ahead of its
	// property's verdict and is not part of the report (properties.Options).
	Discard func(sim.Check)
	// NewRuntime, when set instead of NewPort, checks a whole runtime with
	// its own loop (loop.Runtime): the runtime level's suites, the
	// @runtime scenarios and the properties over generated runtime
	// scripts (package loop/suite), as `plankit check --level runtime`.
	NewRuntime func() loop.Runtime
	// RuntimeFor, when set with NewRuntime, builds each scenario's and
	// generated script's runtime instead, told which check it is for (as
	// PortFor at the plugin level: an adapter decides from it whether
	// restarts are real or resets).
	RuntimeFor func(sim.Check) loop.Runtime
	// Suites, when set, replace the plugin-level suites (features, then
	// properties) with others of the same names, such as the runtime
	// level's (`plankit check --level runtime`); Probe then tells who the
	// implementation is, and NewPort is not used.
	Suites []Suite
	Probe  func() (sim.Identity, error)
	// Assume names known deviations the properties' model predicts
	// instead of SPEC.md (properties.Assumable lists those it can; others
	// are an error). Scenarios are not affected: their failures stay
	// listed in the manifest. The report records them.
	Assume []string
}

// Run runs the suite and returns its report, whatever the verdict: pass,
// fail (a check failed or the manifest is out of date), implementation
// error (the implementation could not be started or broke mid-run) or
// interrupted (ctx was cancelled; context.Cause, when set, says why). It
// is plankit check's run: a failing check counts under the clauses of its
// first failing observation, as check attributes it (a failing property's
// case is replayed beside the reference: package lockstep), so the same
// implementation, seed and options give the same per-clause table and the
// same report files, byte for byte. The report lists every check of the run, also when it broke early: those
// judged with their results (failures before an implementation error or
// an interruption included), the others report.Errored (the
// implementation could not be run) or report.NotRun (interrupted), never
// failed. The error is for a run that could not be set up: invalid
// options, a bad tag expression, a filter that selects no check, or
// UpdateManifest failing.
func Run(ctx context.Context, opts Options) (report.Run, error) {
	suites, err := opts.validate()
	if err != nil {
		return report.Run{}, err
	}
	filters := opts.filters()
	rep := report.Run{Suite: "plankit", SuiteVersion: spec.SuiteVersion, Seed: opts.Seed, Assume: opts.Assume}

	probeID := func() (sim.Identity, error) { return probe(opts.NewPort) }
	if opts.Probe != nil {
		probeID = opts.Probe
	}
	id, err := probeID()
	if err == nil {
		if err := conflicts(id, opts.Choices); err != nil {
			return report.Run{}, err
		}
	}
	rep.Implementation = fill(id, opts.Choices)
	if err != nil {
		// Reports say so too, listing every check as not judged, so CI
		// shows why there are no results.
		rep.Filter = strings.Join(filters, " ")
		if opts.Manifest != nil {
			rep.Manifest = opts.Manifest.Path
		}
		rep.Verdict, rep.Error = report.VerdictImpl, err.Error()
		status, msg := report.Errored, "not run: "+err.Error()
		if cause := stopCause(ctx); cause != nil {
			rep.Verdict, rep.Error = report.VerdictInterrupted, cause.Error()
			status, msg = report.NotRun, "not run: the run was interrupted"
		}
		rep.Cases = unjudged(suites, opts.Tags, status, msg)
		rep.Clauses = report.Table(rep.Cases, spec.ClauseIDs())
		return rep, nil
	}
	if opts.Started != nil {
		opts.Started(rep.Implementation)
	}

	raw, implErr, runErr := opts.runSuites(ctx, suites)
	if runErr != nil && len(raw) == 0 {
		return report.Run{}, runErr
	}
	if len(raw) == 0 && implErr == nil && ctx.Err() == nil {
		// A filter that selects nothing would make a gate always green.
		return report.Run{}, fmt.Errorf("no check matches %s (godog tag expressions combine tags with ',' for or, '&&' for and, '~' for not)", strings.Join(filters, ", "))
	}
	cause := stopCause(ctx)
	complete := len(filters) == 0 && implErr == nil && runErr == nil && cause == nil

	manifest := opts.Manifest
	if opts.UpdateManifest != nil && complete {
		if manifest, err = opts.UpdateManifest(raw); err != nil {
			return report.Run{}, err
		}
	}
	final, findings := manifest.Apply(raw, opts.Today, complete)
	rep.Filter, rep.Findings = strings.Join(filters, " "), findings
	if manifest != nil {
		rep.Manifest = manifest.Path
	}
	rep.Cases, rep.Clauses = final, report.Table(final, spec.ClauseIDs())
	rep.Verdict = report.VerdictPass
	switch {
	case cause != nil:
		// The failures judged before the interruption stay listed.
		rep.Verdict, rep.Error = report.VerdictInterrupted, cause.Error()
	case implErr != nil:
		// The failures judged before the implementation broke stay listed.
		rep.Verdict, rep.Error = report.VerdictImpl, implErr.Error()
	case runErr != nil:
		rep.Verdict, rep.Error, rep.Cause = report.VerdictFail, runErr.Error(), runErr
	case len(findings) > 0 || slices.ContainsFunc(final, report.Case.Failing):
		rep.Verdict = report.VerdictFail
	}
	return rep, nil
}

// Suite is one suite of checks. An error wrapping features.ErrImpl or a
// *sim.ImplError means the implementation could not be run; the cases
// returned with it still count (a suite lists every check it did not
// judge, as error or not-run).
type Suite struct {
	Name string
	Run  func(ctx context.Context, o Options) ([]report.Case, error)
	// List gives the suite's checks without running them.
	List func(tags string) ([]report.Case, error)
}

var allSuites = []Suite{{Features, runFeatures, features.Scenarios}, {Properties, runProperties, listProperties}}

func listProperties(string) ([]report.Case, error) {
	var out []report.Case
	for _, p := range properties.Catalog() {
		out = append(out, report.Case{ID: p.Name, Kind: report.KindProperty, Name: p.Name, Clauses: p.Clauses})
	}
	return out, nil
}

// unjudged lists the checks of the suites, none judged, with status and
// message: the report of a run that could not start them.
func unjudged(suites []Suite, tags, status, message string) []report.Case {
	var out []report.Case
	for _, s := range suites {
		cases, err := s.List(tags)
		if err != nil {
			continue
		}
		for _, c := range cases {
			c.Status, c.Message = status, message
			out = append(out, c)
		}
	}
	return out
}

// stopCause says why ctx was cancelled, or nil: its cause when the
// canceller gave one (plankit's "the run was interrupted by SIGTERM").
func stopCause(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	cause := context.Cause(ctx)
	if cause == context.Canceled || cause == context.DeadlineExceeded {
		return fmt.Errorf("the run was interrupted (%v)", cause)
	}
	return cause
}

// portFor is Options.PortFor as declared (declared), or nil.
func (o Options) portFor() func(sim.Check) sim.Port {
	if o.PortFor == nil {
		return nil
	}
	return func(c sim.Check) sim.Port {
		return declared(func() sim.Port { return o.PortFor(c) }, o.Choices)()
	}
}

func runFeatures(ctx context.Context, o Options) ([]report.Case, error) {
	newPort := declared(o.NewPort, o.Choices)
	res, err := features.Run(ctx, features.Options{NewPort: newPort, PortFor: o.portFor(), Selection: features.Selection{Tags: o.Tags, Seed: o.Seed, Output: o.Output, Format: o.Format}, Depart: depart(o.Assume)})
	if err != nil {
		return nil, err
	}
	return res.Cases, res.Impl
}

func runProperties(ctx context.Context, o Options) ([]report.Case, error) {
	newPort := declared(o.NewPort, o.Choices)
	return properties.Run(ctx, properties.Options{NewPort: newPort, PortFor: o.portFor(), Seed: o.Seed, Checks: o.Checks, CounterexampleDir: o.CounterexampleDir, Replay: o.Replay, Output: o.Output, Jobs: o.Jobs, Discard: o.Discard, Assume: o.Assume, Attribute: attribute(o.Assume),
		Expected: func(c report.Case) string { return o.Manifest.Expects(c, o.Today) }})
}

// runSuites runs each suite in turn and collects its cases. It stops at a
// suite that could not run at all; an implementation error or an
// interruption lets the remaining suites report their checks (as error or
// not-run).
func (o Options) runSuites(ctx context.Context, suites []Suite) (raw []report.Case, implErr, runErr error) {
	for _, s := range suites {
		cases, err := s.Run(ctx, o)
		raw = append(raw, cases...)
		switch {
		case err == nil:
		case ctx.Err() != nil:
			// Interrupted (an error now is most likely the interruption
			// ending the implementation): the suite listed what it did not
			// run.
		case isImpl(err):
			if implErr == nil {
				implErr = err
			}
		default:
			return raw, implErr, fmt.Errorf("%s: %w", s.Name, err)
		}
	}
	return raw, implErr, nil
}

func isImpl(err error) bool {
	var ie *sim.ImplError
	return errors.Is(err, features.ErrImpl) || errors.As(err, &ie)
}

// validate checks the options and returns the suites to run.
func (o *Options) validate() ([]Suite, error) {
	if o.NewRuntime != nil && o.Suites == nil {
		newRuntime := o.NewRuntime
		o.Suites, o.Probe = runtimeSuites(newRuntime, o.RuntimeFor), func() (sim.Identity, error) { return probeRuntime(newRuntime) }
	}
	switch {
	case o.NewPort == nil && o.Suites == nil:
		return nil, errors.New("no implementation: Options.NewPort is nil")
	case o.Suites != nil && o.Probe == nil:
		return nil, errors.New("no implementation: Options.Suites need Options.Probe")
	case o.Seed < 0:
		return nil, fmt.Errorf("seed %d: want a number >= 0", o.Seed)
	case o.Checks < 0:
		return nil, fmt.Errorf("checks %d: want at least 1", o.Checks)
	case o.Format != "" && o.Format != "pretty" && o.Format != "progress":
		return nil, fmt.Errorf("format %q: want pretty, progress or none", o.Format)
	case o.Manifest != nil && !isDate(o.Today):
		return nil, fmt.Errorf("today %q: a manifest needs the date its entries expire against (YYYY-MM-DD)", o.Today)
	case o.UpdateManifest != nil && len(o.filters()) > 0:
		return nil, fmt.Errorf("the manifest cannot be updated from a filtered run (%s): a partial run cannot tell which entries are still needed", strings.Join(o.filters(), ", "))
	}
	if o.Checks == 0 {
		o.Checks = DefaultChecks
	}
	if err := checkChoices(o.Choices); err != nil {
		return nil, err
	}
	if _, err := properties.ParseDeviations(o.Assume); err != nil {
		return nil, fmt.Errorf("assume: %w", err)
	}
	if len(o.Assume) > 0 && o.Suites != nil {
		return nil, errors.New("assume: assumptions apply to the plugin level's properties, not to the runtime level")
	}
	suites := allSuites
	if o.Suites != nil {
		suites = o.Suites
	}
	switch {
	case o.Only != "":
		i := slices.IndexFunc(suites, func(s Suite) bool { return s.Name == o.Only })
		if i < 0 {
			return nil, fmt.Errorf("only %q: want %s or %s", o.Only, Features, Properties)
		}
		return suites[i : i+1], nil
	case o.Tags != "":
		// Tag expressions select scenarios; properties carry no tags.
		return suites[:1], nil
	}
	return suites, nil
}

// filters describes what the options leave out of a complete run, in the
// words of plankit check's flags, as reports show it.
func (o Options) filters() []string {
	var f []string
	if o.Tags != "" {
		f = append(f, "--tags "+o.Tags)
	}
	if o.Only != "" {
		f = append(f, "--only "+o.Only)
	}
	return f
}

func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// probe starts one instance to learn who the implementation is.
func probe(newPort func() sim.Port) (sim.Identity, error) {
	p := newPort()
	id, err := sim.Start(p)
	if err != nil {
		return id, fmt.Errorf("the implementation could not be started: %w", err)
	}
	if err := p.Stop(); err != nil {
		return id, fmt.Errorf("the implementation could not be stopped: %w", err)
	}
	return id, nil
}

func checkChoices(choices map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(choices)) {
		ch, ok := spec.LookupChoice(name)
		if !ok {
			return fmt.Errorf("choice %q: not a choice of the specification", name)
		}
		if !ch.Accepts(choices[name]) {
			return fmt.Errorf("choice %s: unknown value %q (one of %v)", name, choices[name], ch.ValueNames())
		}
	}
	return nil
}
