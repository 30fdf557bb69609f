package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/plankit/plankit/conformance"
	"github.com/plankit/plankit/lockstep"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/spf13/cobra"
)

// diffOptions are the flags of plankit diff.
type diffOptions struct {
	impl   implFlags
	depth  int
	cases  int
	steps  int
	seed   int64
	out    string
	assume []string
	expect string
	files  reportFlags
	level  levelFlags
}

func newDiffCmd() *cobra.Command {
	o := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff",
		Short: "Run an implementation and the reference in lockstep and find the first divergence",
		Long: `diff runs the implementation and the reference side by side, each in its own
simulated runtime, on the same generated action sequences: --cases random
sequences of --steps actions, then every sequence up to --depth over the
exploration alphabet. After every action it compares every observation (set
outcome, get, appended events, notices, steered and injected text, each
request's sections and tools, the pre-step decision, tool and command
results, folds) and stops at the first difference. The difference is shrunk,
written as a trace whose diverging action carries the reference's
observation as its expectation, attributed to the clauses of that
observation (docs/lockstep.md), and classified by the smallest set of known
variants (plankit mutants) under which the reference does the same, or
"new".

The reference runs with the implementation's declared choices and with the
assumed variants (--assume, and assume: lines of the --expect manifest), so
the search goes on past known deviations.

With --level runtime the runtime under test (--adapter: a runtime over the
runtime protocol; without it the built-in runtime, with --mutant, --choice
and --retry) runs beside plankit's built-in runtime around the reference
(with the runtime's declared choices and retry behaviour, and the assumed
variants) on the same generated runtime scripts: --cases random scripts of
--steps steps, then every script up to --depth over the runtime alphabet
(host listeners and tools, faults, outside writers, restarts, reloads,
unload, review outcomes, /plan commands). After every step it compares the
events appended, each request as sent, set outcomes, get, tool and command
results. The divergence is written as a runtime trace (plankit sim --level
runtime replays it). --assume then also takes the runtime variants
same-step-retries and assembly-before-pre-step.

--jobs N compares N sequences at once, each pair on its own implementation
instance (adapter process); the first divergence is the first in sequence
order, so the output and reports are the same for any N.

Exit codes: 0 no divergence; 1 a divergence (none is assumed: assumed
variants are part of the reference); 2 usage or input error; 3 the
implementation could not be run, or the run was interrupted by SIGINT or
SIGTERM (the reports say which searches did not finish).`,
		Example: `  plankit diff --adapter "plankit serve" --cases 10000 --depth 6
  plankit diff --mutant noop-queues --out counterexamples
  plankit diff --adapter "node adapter/dsh/host.mjs" --expect adapter/dsh/expected-failures.txt
  plankit diff --level runtime --adapter "plankit serve --level runtime"
  plankit diff --level runtime --mutant notice-forces-step`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.level.validate(); err != nil {
				return err
			}
			if o.level.runtime() && !cmd.Flags().Changed("depth") {
				o.depth = runtimeDiffDepth
			}
			return runDiff(cmd.Context(), o, cmd.OutOrStdout())
		},
	}
	o.impl.register(cmd)
	o.impl.registerJobs(cmd)
	o.files.register(cmd)
	o.level.register(cmd)
	f := cmd.Flags()
	f.IntVar(&o.depth, "depth", conformance.DefaultDiffDepth, "also compare every sequence of the exploration alphabet up to this depth (0: none; --level runtime: 2 unless given)")
	f.IntVar(&o.cases, "cases", conformance.DefaultDiffCases, "number of random sequences (0: none)")
	f.IntVar(&o.steps, "steps", conformance.DefaultDiffSteps, "actions per random sequence")
	f.Int64Var(&o.seed, "seed", conformance.DefaultSeed, "seed of the random sequences")
	f.StringVar(&o.out, "out", "", "directory for the divergence's trace file (default: a new temporary directory)")
	f.StringArrayVar(&o.assume, "assume", nil, "a known deviation, as the name of a reference variant the reference then follows (repeatable; see plankit mutants)")
	f.StringVar(&o.expect, "expect", "", "expected-failure manifest `FILE` whose assume: lines add assumptions")
	return cmd
}

func runDiff(ctx context.Context, o *diffOptions, stdout io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	switch {
	case o.depth < 0:
		return usageErr("--depth %d: want 0 or more", o.depth)
	case o.cases < 0:
		return usageErr("--cases %d: want 0 or more", o.cases)
	case o.cases == 0 && o.depth == 0:
		return usageErr("--cases 0 and --depth 0: nothing to search")
	case o.steps < 1:
		return usageErr("--steps %d: want at least 1", o.steps)
	case o.seed < 0:
		return usageErr("--seed %d: want a number >= 0", o.seed)
	}
	for _, validate := range []func() error{o.impl.checkJobs, o.files.validate} {
		if err := validate(); err != nil {
			return err
		}
	}
	if err := outputDir("--out", o.out); err != nil {
		return err
	}
	m, err := readExpect(o.expect)
	if err != nil {
		return err
	}
	known := func(name string) error {
		_, err := reference.LookupMutant(name)
		return err
	}
	if o.level.runtime() {
		known = lockstep.LookupRuntimeAssumption
	}
	assume, err := gatherAssumptions(o.assume, m, known)
	if err != nil {
		return err
	}
	var res *lockstep.Result
	suiteName := "plankit diff"
	if o.level.runtime() {
		suiteName = "plankit diff --level runtime"
		newRuntime, ferr := runtimeFactory(&o.impl, &o.level)
		if ferr != nil {
			return ferr
		}
		// The root command's context: SIGINT and SIGTERM cancel it (interrupt.go).
		res, err = lockstep.RunRuntime(ctx, lockstep.RuntimeOptions{NewImpl: newRuntime, NewImplFor: o.impl.runtimeFor(), Assume: assume, Seed: o.seed, Cases: o.cases, Steps: o.steps, Depth: o.depth, Out: o.out, Output: stdout, Jobs: o.impl.jobs})
	} else {
		newPort, ferr := o.impl.factory()
		if ferr != nil {
			return ferr
		}
		// The root command's context: SIGINT and SIGTERM cancel it (interrupt.go).
		res, err = lockstep.Run(ctx, lockstep.Options{NewImpl: newPort, NewImplFor: o.impl.portFor(), Assume: assume, Seed: o.seed, Cases: o.cases, Steps: o.steps, Depth: o.depth, Out: o.out, Output: stdout, Jobs: o.impl.jobs})
	}
	rep := report.Run{Suite: suiteName, SuiteVersion: spec.SuiteVersion, Seed: o.seed, Manifest: o.expect}
	if len(assume) > 0 {
		rep.Filter = "assume " + strings.Join(assume, ", ")
	}
	if res != nil {
		rep.Implementation = res.Implementation
	}
	if err != nil {
		code := ExitImpl
		rep.Verdict = report.VerdictImpl
		var ie *sim.ImplError
		switch {
		case ctx.Err() != nil:
			// Interrupted (checked first: the interruption ends the
			// adapters, so the request in flight fails too): what was
			// compared before is reported, what was not is not run
			// (Result.ReportCases), never failed.
			code, rep.Verdict = ExitInterrupted, report.VerdictInterrupted
			err = context.Cause(ctx)
			if res != nil {
				rep.Cases = res.ReportCases()
			}
		case errors.As(err, &ie):
			// The searches the implementation's failure stopped (all of
			// them when it could not be started) are listed as errors.
			if res == nil {
				res = &lockstep.Result{Cases: o.cases, Steps: o.steps, Depth: o.depth, Broken: "random"}
			}
			rep.Cases = res.ReportCases()
		default:
			code, rep.Verdict = ExitUsage, report.VerdictFail
			// A divergence whose trace could not be written (a symbolic
			// link at its name) is still reported.
			summary := ""
			switch {
			case res == nil:
			case res.Runtime != nil:
				summary = res.Runtime.Summary()
			case res.Divergence != nil:
				summary = res.Divergence.Summary()
			}
			if summary != "" {
				fmt.Fprintf(stdout, "\nfirst divergence (its trace not written): %s\n", strings.TrimSuffix(summary, "; trace "))
			}
		}
		rep.Error = err.Error()
		rep.Clauses = report.Table(rep.Cases, spec.ClauseIDs())
		if werr := o.files.Write(rep); werr != nil {
			return usageErr("%v", werr)
		}
		if ie := interruption(ctx); ie != nil {
			return interrupted(ie, "")
		}
		return withCode(code, err)
	}
	rep.Cases = res.ReportCases()
	rep.Clauses = report.Table(rep.Cases, spec.ClauseIDs())
	rep.Verdict = report.VerdictPass
	if res.Divergence != nil || res.Runtime != nil {
		rep.Verdict = report.VerdictFail
	}
	if err := o.files.Write(rep); err != nil {
		return usageErr("%v", err)
	}
	if d := res.Runtime; d != nil {
		fmt.Fprintf(stdout, "\nfirst divergence at step %d of %d (%s)\n", d.Index+1, len(d.Trace.Steps), d.StepName())
		fmt.Fprintf(stdout, "  observation: %s\n  clauses:     %s\n  reference:      %s\n  implementation: %s\n",
			d.Observation, strings.Join(d.Clauses, " "), d.Reference, d.Implementation)
		if d.Cause != nil {
			fmt.Fprintf(stdout, "  cause:       %s\n", d.Cause)
		}
		class := classLine(d.ExplainedBy)
		if !d.Recurs {
			class = "not classified: played again, the shrunk script agrees with the reference side"
		}
		fmt.Fprintf(stdout, "  class:       %s\n  trace:       %s\n", class, d.Path)
		switch {
		case !d.Recurs:
			fmt.Fprintln(stdout, "  note: the runtime did not do the same on the same script (or could not be run the first time); the trace replays it")
		case !d.Stated:
			fmt.Fprintln(stdout, "  note: no runtime trace expectation can state this observation; the trace replays the script")
		case !d.Reproduced:
			fmt.Fprintln(stdout, "  note: replaying the trace does not fail its expectation")
		}
		if !d.PassesReference {
			fmt.Fprintln(stdout, "  note: the built-in runtime around the reference does not pass the trace either")
		}
		return withCode(ExitFail, fmt.Errorf("divergence on %s [%s]; replay with %s %s", d.Observation, strings.Join(d.Clauses, " "), replayCommand(&o.impl, &o.level), d.Path))
	}
	if d := res.Divergence; d != nil {
		fmt.Fprintf(stdout, "\nfirst divergence at action %d of %d (%s)\n", d.Index+1, len(d.Actions), d.Actions[d.Index])
		fmt.Fprintf(stdout, "  observation: %s\n  clauses:     %s\n  reference:      %s\n  implementation: %s\n",
			d.Observation, strings.Join(d.Clauses, " "), d.Reference, d.Implementation)
		if d.New() {
			fmt.Fprintln(stdout, "  class:       new (no known variant explains it)")
		} else {
			var sets []string
			for _, set := range d.ExplainedBy {
				sets = append(sets, strings.Join(set, " + "))
			}
			fmt.Fprintf(stdout, "  class:       known, explained by %s\n", strings.Join(sets, " or "))
		}
		fmt.Fprintf(stdout, "  trace:       %s\n", d.Trace)
		switch {
		case !d.Stated:
			fmt.Fprintln(stdout, "  note: no trace expectation can state this observation; the trace replays the sequence")
		case !d.Reproduced:
			fmt.Fprintln(stdout, "  note: replaying the trace does not fail at its last action")
		}
		if !d.PassesReference {
			fmt.Fprintln(stdout, "  note: the reference does not pass the trace either")
		}
		return withCode(ExitFail, fmt.Errorf("divergence on %s [%s]; replay with %s %s", d.Observation, strings.Join(d.Clauses, " "), replayCommand(&o.impl, nil), d.Trace))
	}
	return nil
}

// runtimeDiffDepth is diff --level runtime's default --depth: each level
// multiplies the runtime alphabet's scripts by its size (about 20), and
// every script runs from a fresh runtime.
const runtimeDiffDepth = 2

// classLine is a runtime divergence's class in words.
func classLine(sets [][]string) string {
	if len(sets) == 0 {
		return "new (no known variant explains it)"
	}
	return "known, " + lockstep.ExplainedText(sets)
}
