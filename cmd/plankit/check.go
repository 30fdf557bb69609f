package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/plankit/plankit/features"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/spf13/cobra"
)

// checkOptions are the flags of plankit check.
type checkOptions struct {
	impl     implFlags
	tags     string
	format   string
	junit    string
	cucumber string
	json     string
	expect   string
	fix      bool
	seed     int64
	only     string
	checks   int
	cexDir   string
}

// today is read once per check, in this layer only; it decides whether a
// manifest entry expired and never reaches a report. Tests replace it.
var today = func() string { return time.Now().UTC().Format(time.DateOnly) }

// checkFactory picks the implementation under test; tests replace it to
// run check against implementations that break.
var checkFactory = func(f *implFlags) (func() sim.Port, error) { return f.factory() }

// suiteEnv is what every suite of a check run gets.
type suiteEnv struct {
	newPort func() sim.Port
	tags    string
	seed    int64
	checks  int
	cexDir  string
	out     io.Writer
	format  string
}

// checkSuite is one suite of checks: the features or the properties.
// An error wrapping features.ErrImpl or a *sim.ImplError means the
// implementation could not be run; the cases returned with it still count
// (a suite lists every check it did not judge, as error or not-run).
type checkSuite struct {
	name string
	run  func(ctx context.Context, env suiteEnv) ([]report.Case, error)
	// list gives the suite's checks without running them (nil: none).
	list func(tags string) ([]report.Case, error)
}

// suites lists the suites plankit check runs, in order.
var suites = []checkSuite{
	{name: "features", run: runFeatures, list: features.Scenarios},
	{name: "properties", run: runProperties, list: listProperties},
}

func listProperties(string) ([]report.Case, error) {
	var out []report.Case
	for _, p := range properties.Catalog() {
		out = append(out, report.Case{ID: p.Name, Kind: report.KindProperty, Name: p.Name, Clauses: p.Clauses})
	}
	return out, nil
}

// unjudged lists the checks of the suites, none judged, with status and
// message: the report of a run that could not start them.
func unjudged(run []checkSuite, tags, status, message string) []report.Case {
	var out []report.Case
	for _, s := range run {
		if s.list == nil {
			continue
		}
		cases, err := s.list(tags)
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

func runProperties(ctx context.Context, env suiteEnv) ([]report.Case, error) {
	return properties.Run(ctx, properties.Options{NewPort: env.newPort, Seed: env.seed, Checks: env.checks, CounterexampleDir: env.cexDir, Output: env.out})
}

func runFeatures(ctx context.Context, env suiteEnv) ([]report.Case, error) {
	format := env.format
	if format == "summary" {
		format = ""
	}
	res, err := features.Run(ctx, features.Options{NewPort: env.newPort, Tags: env.tags, Seed: env.seed, Output: env.out, Format: format})
	if err != nil {
		return nil, err
	}
	return res.Cases, res.Impl
}

func newCheckCmd() *cobra.Command {
	o := &checkOptions{}
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Run the conformance checks against an implementation",
		Long: `check runs the conformance suite (the Gherkin features, then the properties)
against the reference, one of its mutants, or an adapter, prints a per-clause table and the verdict, and writes JUnit XML, cucumber JSON and a plankit
JSON report on request, even when the run fails or is interrupted.

Checks that could not be judged are never reported as failures: those the
implementation's crash, hang or protocol error kept from running have the
status error (JUnit <error>), those an interruption kept from running
not-run (JUnit <skipped>); the failures found before are still listed.

Exit codes: 0 conformant; 1 a check failed (or the manifest is out of date);
2 usage or input error; 3 the implementation could not be run, or the run
was interrupted by SIGINT or SIGTERM (the reports say which).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runCheck(cmd.Context(), o, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	o.impl.register(cmd)
	f := cmd.Flags()
	f.StringVar(&o.tags, "tags", "", "run only scenarios matching a godog tag expression, e.g. '@PEND-5 && ~@choice:cancel-pending=keep-equal' (the properties are not run then)")
	f.StringVar(&o.format, "format", "summary", "console output: pretty, progress or summary")
	f.StringVar(&o.junit, "junit", "", "write a JUnit XML report to `PATH`")
	f.StringVar(&o.cucumber, "cucumber", "", "write a cucumber JSON report to `PATH`")
	f.StringVar(&o.json, "json", "", "write the plankit JSON report to `PATH`")
	f.StringVar(&o.expect, "expect", "", "expected-failure manifest `FILE` (docs/expected-failures.md)")
	f.BoolVar(&o.fix, "fix", false, "rewrite the --expect manifest from this run (refused for filtered runs)")
	f.Int64Var(&o.seed, "seed", 1, "seed for the scenario order and the properties (0 keeps file order)")
	f.StringVar(&o.only, "only", "", "run one suite: features or properties")
	f.IntVar(&o.checks, "checks", 100, "number of generated cases per property")
	f.StringVar(&o.cexDir, "counterexamples", "plankit-counterexamples", "directory for the trace file of each failing property (written only on failure)")
	return cmd
}

func isImpl(err error) bool {
	var ie *sim.ImplError
	return errors.Is(err, features.ErrImpl) || errors.As(err, &ie)
}

func runCheck(ctx context.Context, o *checkOptions, stdout, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	switch o.format {
	case "pretty", "progress", "summary":
	default:
		return usageErr("--format %q: want pretty, progress or summary", o.format)
	}
	if o.seed < 0 {
		return usageErr("--seed %d: want a number >= 0", o.seed)
	}
	if o.checks < 1 {
		return usageErr("--checks %d: want at least 1", o.checks)
	}
	var run []checkSuite
	switch o.only {
	case "":
		run = suites
		if o.tags != "" {
			// Tag expressions select scenarios; properties carry no tags.
			run = suites[:1]
		}
	default:
		i := slices.IndexFunc(suites, func(s checkSuite) bool { return s.name == o.only })
		if i < 0 && o.only != "properties" && o.only != "features" {
			return usageErr("--only %q: want features or properties", o.only)
		}
		if i < 0 {
			return usageErr("--only %s: this build has no %s suite", o.only, o.only)
		}
		run = suites[i : i+1]
	}
	var filters []string
	if o.tags != "" {
		filters = append(filters, "--tags "+o.tags)
	}
	if o.only != "" {
		filters = append(filters, "--only "+o.only)
	}
	filtered := len(filters) > 0
	if o.fix && o.expect == "" {
		return usageErr("--fix needs --expect FILE")
	}
	if o.fix && filtered {
		return usageErr("--fix refused: the run is filtered (%s); a partial run cannot tell which entries are still needed", strings.Join(filters, ", "))
	}
	var manifest *report.Manifest
	if o.expect != "" {
		m, err := report.ReadManifest(o.expect)
		switch {
		case err == nil:
			manifest = m
		case o.fix && errors.Is(err, os.ErrNotExist):
			manifest, _ = report.ParseManifest(o.expect, nil)
		default:
			return usageErr("%v", err)
		}
	}
	date := today()

	newPort, err := checkFactory(&o.impl)
	if err != nil {
		return err
	}
	probe := newPort()
	id, err := probe.Start()
	if err == nil {
		if err = probe.Stop(); err != nil {
			err = fmt.Errorf("the implementation could not be stopped: %w", err)
		}
	} else {
		err = fmt.Errorf("the implementation could not be started: %w", err)
	}
	if err != nil {
		// Reports say so too, listing every check as not judged, so CI
		// shows why there are no results.
		rep := report.Run{Suite: "plankit", SuiteVersion: spec.SuiteVersion, Implementation: id, Seed: o.seed,
			Filter: strings.Join(filters, " "), Manifest: o.expect,
			Verdict: report.VerdictImpl, Error: err.Error()}
		status, msg := report.Errored, "not run: "+err.Error()
		if cause := stopCause(ctx); cause != nil {
			err = cause
			rep.Verdict, rep.Error = report.VerdictInterrupted, cause.Error()
			status, msg = report.NotRun, "not run: the run was interrupted"
		}
		rep.Cases = unjudged(run, o.tags, status, msg)
		rep.Clauses = report.Table(rep.Cases, allClauses())
		if werr := writeReports(o, rep); werr != nil {
			return usageErr("%v", werr)
		}
		printSummary(stdout, rep)
		if rep.Verdict == report.VerdictInterrupted {
			return stopped(ctx, "")
		}
		return withCode(ExitImpl, err)
	}
	fmt.Fprintf(stdout, "plankit check: %s %s (%s), suite %s, seed %d\n", safetext.Line(id.Name), safetext.Line(id.Version), safetext.Line(id.Language), spec.SuiteVersion, o.seed)

	env := suiteEnv{newPort: newPort, tags: o.tags, seed: o.seed, checks: o.checks, cexDir: o.cexDir, out: stdout, format: o.format}
	var raw []report.Case
	var implErr, runErr error
	for _, s := range run {
		cases, err := s.run(ctx, env)
		raw = append(raw, cases...)
		switch {
		case err == nil:
		case ctx.Err() != nil:
			// Interrupted (an error now is most likely the interruption
			// ending the implementation): reported below; the suite listed
			// what it did not run.
		case isImpl(err):
			if implErr == nil {
				implErr = err
			}
		default:
			runErr = fmt.Errorf("%s: %w", s.name, err)
		}
		if runErr != nil {
			break
		}
	}
	if runErr != nil && len(raw) == 0 {
		return usageErr("%v", runErr)
	}
	if len(raw) == 0 && implErr == nil && ctx.Err() == nil {
		// A filter that selects nothing would make a gate always green.
		return usageErr("no check matches %s (godog tag expressions combine tags with ',' for or, '&&' for and, '~' for not)", strings.Join(filters, ", "))
	}
	cause := stopCause(ctx)
	complete := !filtered && implErr == nil && cause == nil

	if o.fix && implErr == nil && runErr == nil && cause == nil {
		if err := report.WriteFileAtomic(o.expect, manifest.Fix(raw)); err != nil {
			return usageErr("%v", err)
		}
		m, err := report.ReadManifest(o.expect)
		if err != nil {
			return usageErr("after --fix: %v", err)
		}
		manifest = m
		fmt.Fprintf(stdout, "rewrote %s\n", o.expect)
	}
	final, findings := manifest.Apply(raw, date, complete)

	rep := report.Run{
		Suite: "plankit", SuiteVersion: spec.SuiteVersion, Implementation: id, Seed: o.seed,
		Filter: strings.Join(filters, " "), Manifest: o.expect, Findings: findings,
		Cases: final, Clauses: report.Table(final, allClauses()),
	}
	failing := len(findings) > 0
	for _, c := range final {
		failing = failing || c.Failing()
	}
	code := ExitPass
	switch {
	case cause != nil:
		// The failures judged before the interruption stay listed.
		rep.Verdict, rep.Error, code = report.VerdictInterrupted, cause.Error(), ExitInterrupted
	case implErr != nil:
		// The failures judged before the implementation broke stay listed.
		rep.Verdict, rep.Error, code = report.VerdictImpl, implErr.Error(), ExitImpl
	case runErr != nil:
		rep.Verdict, rep.Error, code = report.VerdictFail, runErr.Error(), ExitFail
	case failing:
		rep.Verdict, code = report.VerdictFail, ExitFail
	default:
		rep.Verdict = report.VerdictPass
	}
	if err := writeReports(o, rep); err != nil {
		return usageErr("%v", err)
	}
	printSummary(stdout, rep)
	switch {
	case cause != nil:
		return stopped(ctx, "%d checks not run", countStatus(rep.Cases, report.NotRun))
	case code == ExitImpl:
		if n := countStatus(rep.Cases, report.Failed) + countStatus(rep.Cases, report.UnexpectedPass); n > 0 {
			return withCode(ExitImpl, fmt.Errorf("%w (and %d checks failed before or after it: see above)", implErr, n))
		}
		return withCode(ExitImpl, implErr)
	case code == ExitFail:
		if runErr != nil {
			return withCode(ExitFail, runErr)
		}
		return withCode(ExitFail, errors.New(""))
	}
	return nil
}

// stopCause is why ctx was cancelled (a signal's interruption), or nil.
func stopCause(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	if ie := interruption(ctx); ie != nil {
		return ie
	}
	return fmt.Errorf("the run was interrupted: %w", context.Cause(ctx))
}

// stopped is the error of an interrupted check.
func stopped(ctx context.Context, format string, args ...any) error {
	if ie := interruption(ctx); ie != nil {
		return interrupted(ie, format, args...)
	}
	err := stopCause(ctx)
	if format != "" {
		err = fmt.Errorf("%w; %s", err, fmt.Sprintf(format, args...))
	}
	return withCode(ExitInterrupted, err)
}

func countStatus(cases []report.Case, status string) int {
	n := 0
	for _, c := range cases {
		if c.Status == status {
			n++
		}
	}
	return n
}

// allClauses is every clause of the specification, so the table shows
// clauses whose checks were filtered out.
func allClauses() []string { return spec.ClauseIDs() }

func writeReports(o *checkOptions, rep report.Run) error {
	writers := []struct {
		path   string
		render func(report.Run) ([]byte, error)
	}{{o.junit, report.JUnit}, {o.cucumber, report.Cucumber}, {o.json, report.JSON}}
	for _, w := range writers {
		if w.path == "" {
			continue
		}
		data, err := w.render(rep)
		if err != nil {
			return err
		}
		if err := report.WriteFileAtomic(w.path, data); err != nil {
			return err
		}
	}
	return nil
}

func printSummary(w io.Writer, rep report.Run) {
	fmt.Fprintln(w)
	var firstError *report.Case
	for i, c := range rep.Cases {
		switch c.Status {
		case report.Failed, report.UnexpectedPass:
			fmt.Fprintf(w, "FAIL %s [%s] %s\n", c.ID, strings.Join(c.Clauses, " "), safetext.Text(c.Message))
		case report.ExpectedFailed:
			fmt.Fprintf(w, "XFAIL %s [%s] %s\n", c.ID, strings.Join(c.Clauses, " "), safetext.Text(c.Message))
		case report.Errored:
			if firstError == nil {
				firstError = &rep.Cases[i]
			}
		}
	}
	if firstError != nil {
		// One line, not one per check: they share the cause, the error below.
		fmt.Fprintf(w, "ERROR %d checks not judged: the implementation could not be run (first: %s)\n",
			countStatus(rep.Cases, report.Errored), firstError.ID)
	}
	for _, f := range rep.Findings {
		fmt.Fprintf(w, "MANIFEST %s\n", f)
	}
	counts := map[string]int{}
	for _, c := range rep.Cases {
		counts[c.Status]++
	}
	fmt.Fprintln(w)
	_ = report.WriteTable(w, rep.Clauses)
	fmt.Fprintf(w, "\n%d checks: %d passed, %d failed, %d expected-failed, %d unexpected-pass, %d skipped",
		len(rep.Cases), counts[report.Passed], counts[report.Failed], counts[report.ExpectedFailed], counts[report.UnexpectedPass], counts[report.Skipped])
	if counts[report.Errored]+counts[report.NotRun] > 0 {
		fmt.Fprintf(w, ", %d error, %d not run", counts[report.Errored], counts[report.NotRun])
	}
	fmt.Fprintln(w)
	if rep.Error != "" {
		fmt.Fprintf(w, "error: %s\n", safetext.Text(rep.Error))
	}
	fmt.Fprintf(w, "verdict: %s (seed %d)\n", rep.Verdict, rep.Seed)
}
