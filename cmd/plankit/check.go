package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/plankit/plankit/features"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
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
	portFor func(sim.Check) sim.Port
	tags    string
	seed    int64
	checks  int
	cexDir  string
	out     io.Writer
	format  string
	jobs    int
}

// checkSuite is one suite of checks: the features or the properties.
// An error wrapping features.ErrImpl or a *sim.ImplError means the
// implementation could not be run; the cases returned with it still count.
type checkSuite struct {
	name string
	run  func(ctx context.Context, env suiteEnv) ([]report.Case, error)
}

// suites lists the suites plankit check runs, in order.
var suites = []checkSuite{
	{name: "features", run: runFeatures},
	{name: "properties", run: runProperties},
}

func runProperties(ctx context.Context, env suiteEnv) ([]report.Case, error) {
	return properties.Run(ctx, properties.Options{NewPort: env.newPort, PortFor: env.portFor, Seed: env.seed, Checks: env.checks, CounterexampleDir: env.cexDir, Output: env.out, Jobs: env.jobs})
}

func runFeatures(ctx context.Context, env suiteEnv) ([]report.Case, error) {
	format := env.format
	if format == "summary" {
		format = ""
	}
	res, err := features.Run(ctx, features.Options{NewPort: env.newPort, PortFor: env.portFor, Tags: env.tags, Seed: env.seed, Output: env.out, Format: format})
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

Exit codes: 0 conformant; 1 a check failed (or the manifest is out of date);
2 usage or input error; 3 the implementation could not be run.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runCheck(cmd.Context(), o, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	o.impl.register(cmd)
	o.impl.registerJobs(cmd)
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
	if o.impl.jobs == 0 {
		o.impl.jobs = 1
	}
	if err := o.impl.checkJobs(); err != nil {
		return err
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
		// Reports say so too, so CI shows why there are no results.
		rep := report.Run{Suite: "plankit", SuiteVersion: features.SuiteVersion, Implementation: id, Seed: o.seed,
			Verdict: report.VerdictImpl, Error: err.Error(), Clauses: report.Table(nil, allClauses())}
		if werr := writeReports(o, rep); werr != nil {
			return usageErr("%v", werr)
		}
		return withCode(ExitImpl, err)
	}
	fmt.Fprintf(stdout, "plankit check: %s %s (%s), suite %s, seed %d\n", id.Name, id.Version, id.Language, features.SuiteVersion, o.seed)

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	env := suiteEnv{newPort: newPort, portFor: o.impl.portFor(), tags: o.tags, seed: o.seed, checks: o.checks, cexDir: o.cexDir, out: stdout, format: o.format, jobs: o.impl.jobs}
	var raw []report.Case
	var implErr, runErr error
	for _, s := range run {
		cases, err := s.run(ctx, env)
		raw = append(raw, cases...)
		switch {
		case err == nil:
		case ctx.Err() != nil && errors.Is(err, ctx.Err()):
			// Interrupted: reported below; the suite listed what it did not run.
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
	if ctx.Err() != nil && runErr == nil {
		runErr = errors.New("the run was interrupted; unfinished checks are reported as skipped")
	}

	if o.fix && implErr == nil && runErr == nil {
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
	final, findings := manifest.Apply(raw, date, !filtered)

	rep := report.Run{
		Suite: "plankit", SuiteVersion: features.SuiteVersion, Implementation: id, Seed: o.seed,
		Filter: strings.Join(filters, " "), Manifest: o.expect, Findings: findings,
		Cases: final, Clauses: report.Table(final, allClauses()),
		Restarts: o.impl.restartReport(),
	}
	failing := len(findings) > 0
	for _, c := range final {
		failing = failing || c.Failing()
	}
	code := ExitPass
	switch {
	case implErr != nil:
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
	switch code {
	case ExitImpl:
		return withCode(ExitImpl, implErr)
	case ExitFail:
		if runErr != nil {
			return withCode(ExitFail, runErr)
		}
		return withCode(ExitFail, errors.New(""))
	}
	return nil
}

// allClauses is every clause of the specification, so the table shows
// clauses whose checks were filtered out.
func allClauses() []string { return features.SpecClauses }

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
	for _, c := range rep.Cases {
		switch c.Status {
		case report.Failed, report.UnexpectedPass:
			fmt.Fprintf(w, "FAIL %s [%s] %s\n", c.ID, strings.Join(c.Clauses, " "), c.Message)
		case report.ExpectedFailed:
			fmt.Fprintf(w, "XFAIL %s [%s] %s\n", c.ID, strings.Join(c.Clauses, " "), c.Message)
		}
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
	fmt.Fprintf(w, "\n%d checks: %d passed, %d failed, %d expected-failed, %d unexpected-pass, %d skipped\n",
		len(rep.Cases), counts[report.Passed], counts[report.Failed], counts[report.ExpectedFailed], counts[report.UnexpectedPass], counts[report.Skipped])
	if rep.Error != "" {
		fmt.Fprintf(w, "error: %s\n", rep.Error)
	}
	fmt.Fprintf(w, "verdict: %s (seed %d)\n", rep.Verdict, rep.Seed)
}
