package main

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/plankit/plankit/conformance"
	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/spf13/cobra"
)

// checkOptions are the flags of plankit check, and what the command takes
// from outside its flags: the date and the implementation's factory.
type checkOptions struct {
	impl               implFlags
	level              levelFlags
	tags, format, only string
	files              reportFlags
	paths              checkPaths
	seed               int64
	checks             int
	today              func() string
	factory            func(*implFlags) (func() sim.Port, error)
	limits             inputFlags
	assume             []string
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
			if err := o.level.validate(); err != nil {
				return err
			}
			return runCheck(cmd.Context(), o, cmd.OutOrStdout())
		},
	}
	o.impl.register(cmd)
	o.impl.registerJobs(cmd)
	o.level.register(cmd)
	o.files.register(cmd)
	f := cmd.Flags()
	f.StringVar(&o.tags, "tags", "", "run only scenarios matching a godog tag expression, e.g. '@PEND-5 && ~@choice:cancel-pending=keep-equal' (the properties are not run then)")
	f.StringVar(&o.format, "format", "summary", "console output: pretty, progress or summary")
	f.StringVar(&o.paths.Expect, "expect", "", "expected-failure manifest `FILE` (docs/expected-failures.md); its assume: lines add assumptions")
	f.StringArrayVar(&o.assume, "assume", nil, "a known deviation the properties' model predicts instead of SPEC.md (repeatable: "+strings.Join(properties.AssumableNames(), ", ")+"); scenarios are not affected")
	f.BoolVar(&o.paths.Fix, "fix", false, "rewrite the --expect manifest from this run (refused for filtered runs)")
	f.Int64Var(&o.seed, "seed", conformance.DefaultSeed, "seed for the scenario order and the properties (0 keeps file order)")
	f.StringVar(&o.only, "only", "", "run one suite: features or properties")
	f.IntVar(&o.checks, "checks", conformance.DefaultChecks, "number of generated cases per property")
	o.limits.register(cmd, inputlimit.Manifest, "manifest", boundBytes|boundLine|boundEntries)
	f.StringVar(&o.paths.Counterexamples, "counterexamples", "", "directory for the trace file of each failing property, written only on failure (default: a new temporary directory, named in the output)")
	return cmd
}

func runCheck(ctx context.Context, o *checkOptions, stdout io.Writer) error {
	format, ok := map[string]string{"pretty": "pretty", "progress": "progress", "summary": ""}[o.format]
	switch {
	case !ok:
		return usageErr("--format %q: want pretty, progress or summary", o.format)
	case o.checks < 1:
		return usageErr("--checks %d: want at least 1", o.checks)
	}
	for _, validate := range []func() error{o.impl.checkJobs, o.limits.validate, o.files.validate, o.paths.validate} {
		if err := validate(); err != nil {
			return err
		}
	}
	opts := conformance.Options{Seed: o.seed, Checks: o.checks, Tags: o.tags, Only: o.only,
		CounterexampleDir: o.paths.Counterexamples, Output: stdout, Format: format, Today: o.today(), Jobs: o.impl.jobs}
	var err error
	if opts.Manifest, opts.UpdateManifest, err = o.paths.manifest(stdout, o.limits.Limits); err != nil {
		return err
	}
	if opts.Assume, err = modelAssumptions(o.assume, opts.Manifest, o.level.runtime()); err != nil {
		return err
	}
	if err := o.impl.plugIn(&opts, &o.level, o.factory); err != nil {
		return err
	}
	started := announce(stdout, o, &opts)
	// The root command's context: SIGINT and SIGTERM cancel it (interrupt.go).
	rep, err := conformance.Run(ctx, opts)
	if err != nil {
		return usageErr("%v", err)
	}
	rep.Restarts = o.impl.restartReport()
	if err := o.files.Write(rep); err != nil {
		return usageErr("%v", err)
	}
	if *started || rep.Verdict == report.VerdictInterrupted { // an implementation that never started has no summary
		_ = report.Summary(stdout, withReplays(rep, replayCommand(&o.impl, &o.level)))
	}
	return gateExit(ctx, conformance.Gate(rep))
}
