package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/plankit/plankit/conformance"
	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/spf13/cobra"
)

// checkOptions are the flags of plankit check, and what the command takes
// from outside its flags: the date and the implementation's factory.
type checkOptions struct {
	impl                               implFlags
	level                              levelFlags
	tags, format, only, expect, cexDir string
	files                              report.Files
	fix                                bool
	seed                               int64
	checks                             int
	today                              func() string
	factory                            func(*implFlags) (func() sim.Port, error)
	limits                             inputFlags
	assume                             []string
}

func newCheckCmd() *cobra.Command {
	return checkCmd(&checkOptions{
		today:   func() string { return time.Now().UTC().Format(time.DateOnly) },
		factory: (*implFlags).factory,
	})
}

func checkCmd(o *checkOptions) *cobra.Command {
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
			if err := o.level.validate(cmd); err != nil {
				return err
			}
			return runCheck(cmd.Context(), o, cmd.OutOrStdout())
		},
	}
	o.impl.register(cmd)
	o.impl.registerJobs(cmd)
	o.level.register(cmd)
	f := cmd.Flags()
	f.StringVar(&o.tags, "tags", "", "run only scenarios matching a godog tag expression, e.g. '@PEND-5 && ~@choice:cancel-pending=keep-equal' (the properties are not run then)")
	f.StringVar(&o.format, "format", "summary", "console output: pretty, progress or summary")
	f.StringVar(&o.files.JUnit, "junit", "", "write a JUnit XML report to `PATH`")
	f.StringVar(&o.files.Cucumber, "cucumber", "", "write a cucumber JSON report to `PATH`")
	f.StringVar(&o.files.JSON, "json", "", "write the plankit JSON report to `PATH`")
	f.StringVar(&o.expect, "expect", "", "expected-failure manifest `FILE` (docs/expected-failures.md); its assume: lines add assumptions")
	f.StringArrayVar(&o.assume, "assume", nil, "a known deviation the properties' model predicts instead of SPEC.md (repeatable: listener-appended, cancelled-selection-narrated, keep-planning-keeps-exit); scenarios are not affected")
	f.BoolVar(&o.fix, "fix", false, "rewrite the --expect manifest from this run (refused for filtered runs)")
	f.Int64Var(&o.seed, "seed", 1, "seed for the scenario order and the properties (0 keeps file order)")
	f.StringVar(&o.only, "only", "", "run one suite: features or properties")
	f.IntVar(&o.checks, "checks", 100, "number of generated cases per property")
	o.limits.register(cmd, inputlimit.Manifest, "manifest", boundBytes|boundLine|boundEntries)
	f.StringVar(&o.cexDir, "counterexamples", "", "directory for the trace file of each failing property, written only on failure (default: a new temporary directory, named in the output)")
	return cmd
}

func runCheck(ctx context.Context, o *checkOptions, stdout io.Writer) error {
	format, ok := map[string]string{"pretty": "pretty", "progress": "progress", "summary": ""}[o.format]
	switch {
	case !ok:
		return usageErr("--format %q: want pretty, progress or summary", o.format)
	case o.checks < 1:
		return usageErr("--checks %d: want at least 1", o.checks)
	case o.fix && o.expect == "":
		return usageErr("--fix needs --expect FILE")
	}
	if o.impl.jobs == 0 {
		o.impl.jobs = 1
	}
	if err := o.impl.checkJobs(); err != nil {
		return err
	}
	if err := o.limits.validate(); err != nil {
		return err
	}
	paths := checkPaths{JUnit: o.files.JUnit, Cucumber: o.files.Cucumber, JSON: o.files.JSON, Expect: o.expect, Fix: o.fix, Counterexamples: o.cexDir}
	if err := paths.validate(); err != nil {
		return err
	}
	opts := conformance.Options{Seed: o.seed, Checks: o.checks, Tags: o.tags, Only: o.only,
		CounterexampleDir: o.cexDir, Output: stdout, Format: format, Today: o.today(), Jobs: o.impl.jobs}
	if o.expect != "" {
		m, err := report.ReadManifestWithLimits(o.expect, o.limits.Limits)
		if o.fix && errors.Is(err, os.ErrNotExist) {
			m, err = report.ParseManifest(o.expect, nil)
		}
		if err != nil {
			return usageErr("%v", err)
		}
		opts.Manifest = m
	}
	assume, err := modelAssumptions(o.assume, opts.Manifest)
	if err != nil {
		return err
	}
	if len(assume) > 0 && o.level.runtime() {
		return usageErr("--assume and assume: lines apply to the plugin level, not to --level runtime")
	}
	opts.Assume = assume
	opts.Attribute = attributeInLockstep(assume)
	if o.fix {
		opts.UpdateManifest = func(raw []report.Case) (*report.Manifest, error) {
			if err := atomicfile.Write(o.expect, opts.Manifest.Fix(raw)); err != nil {
				return nil, err
			}
			fmt.Fprintf(stdout, "rewrote %s\n", o.expect)
			return report.ReadManifestWithLimits(o.expect, o.limits.Limits)
		}
	}
	if o.level.runtime() {
		newRuntime, err := runtimeFactory(&o.impl, &o.level)
		if err != nil {
			return err
		}
		opts.Suites, opts.Probe = runtimeSuites(newRuntime), func() (sim.Identity, error) { return probeRuntime(newRuntime) }
	} else {
		newPort, err := o.factory(&o.impl)
		if err != nil {
			return err
		}
		opts.NewPort = newPort
		opts.PortFor = o.impl.portFor()
		if o.impl.pool != nil {
			opts.Discard = func(c sim.Check) { o.impl.pool.Forget(c.ID) }
		}
	}
	started := false
	opts.Started = func(id sim.Identity) {
		started = true
		fmt.Fprintf(stdout, "plankit check: %s %s (%s), suite %s, seed %d\n", safetext.Line(id.Name), safetext.Line(id.Version), safetext.Line(id.Language), spec.SuiteVersion, o.seed)
		printAdapterHint(stdout, o)
	}

	// The root command's context: SIGINT and SIGTERM cancel it (interrupt.go).
	rep, err := conformance.Run(ctx, opts)
	if err != nil {
		return usageErr("%v", err)
	}
	rep.Restarts = o.impl.restartReport()
	if err := o.files.Write(rep); err != nil {
		return usageErr("%v", err)
	}
	if started || rep.Verdict == report.VerdictInterrupted { // an implementation that never started has no summary
		_ = report.Summary(stdout, rep)
	}
	failed := 0
	for _, c := range rep.Cases {
		if c.Failing() {
			failed++
		}
	}
	if rep.Verdict == report.VerdictFail && errors.Is(rep.Cause, atomicfile.ErrSymlink) {
		// A link planted where a counterexample goes stopped the run: an
		// input error, not a verdict on the implementation.
		return withCode(ExitUsage, rep.Cause)
	}
	switch rep.Verdict {
	case report.VerdictPass:
		return nil
	case report.VerdictInterrupted:
		notRun := 0
		for _, c := range rep.Cases {
			if c.Status == report.NotRun {
				notRun++
			}
		}
		if ie := interruption(ctx); ie != nil {
			return interrupted(ie, "%d checks not run", notRun)
		}
		return withCode(ExitInterrupted, fmt.Errorf("%s; %d checks not run", rep.Error, notRun))
	case report.VerdictImpl:
		if failed > 0 {
			// Both: the failures are listed above and in the reports.
			return withCode(ExitImpl, fmt.Errorf("%s (and %d checks failed: see above)", rep.Error, failed))
		}
		return withCode(ExitImpl, errors.New(rep.Error))
	}
	return withCode(ExitFail, errors.New(rep.Error))
}
