package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/plankit/plankit/conformance"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/sim"
	"github.com/spf13/cobra"
)

// exploreOptions are the flags of plankit explore, and which of them were
// given.
type exploreOptions struct {
	depth   int
	out     string
	retries string
	// hostTools and emptySteps widen the setup and the alphabet.
	hostTools  bool
	emptySteps string
	impl       implFlags
	level      levelFlags
	assume     []string
	expect     string
	// depthSet and retriesSet: --depth and --retries were given.
	depthSet, retriesSet bool
}

func newExploreCmd() *cobra.Command { return exploreCmd(&exploreOptions{}) }

func exploreCmd(o *exploreOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "explore",
		Short: "Check every action sequence up to a depth against the model",
		Long: `explore enumerates every sequence of up to --depth actions over a fixed
alphabet (selections, /plan, accepted, rejected, aborted and failing steps,
retries, the exit tool, turn ends, a failed append, restart, reload, fork,
compaction, a second agent), breadth first, merging sequences that reach the
same abstract state. After every action it checks the implementation against
the abstract model of SPEC.md. It prints the number of distinct states.

The first violation (a shortest one) is written as a trace file that
plankit sim replays to the same failure. Exit 0 when no violation exists up to
the depth, 1 on a violation, 2 on a usage error, 3 when the implementation
could not be run or the exploration was interrupted (SIGINT, SIGTERM).

--assume NAME (repeatable) and the assume: lines of --expect FILE name known
deviations the model then predicts instead of SPEC.md, so the exploration goes
on past them (docs/lockstep.md#assumptions-in-check-and-explore).

With --level runtime (default depth 3) it enumerates every sequence of up to
--depth runtime steps of the runtime alphabet (selections, plain turns,
selections while the model streams, approved and kept-planning exits, a
failed append, /plan commands, an outside writer, restart, reload, unload,
host listeners rejecting or taking a step's messages), breadth first,
merging sequences after which the model's logs and situation are the same,
each on a fresh runtime, and compares every step with the model: the
built-in runtime around the reference (as diff --level runtime does). The
first divergence is written as a runtime trace (plankit sim --level runtime
replays it) and named by the clauses of the observation that diverged.`,
		Example: `  plankit explore
  plankit explore --depth 6 --adapter "plankit serve"
  plankit explore --depth 4 --mutant append-on-abort --out counterexamples`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.depthSet, o.retriesSet = cmd.Flags().Changed("depth"), cmd.Flags().Changed("retries")
			return runExplore(cmd.Context(), o, cmd.OutOrStdout())
		},
	}
	cmd.Flags().IntVar(&o.depth, "depth", conformance.DefaultExploreDepth, "longest action sequence explored (each level costs about twice the one before; through a slow adapter pass a smaller one)")
	cmd.Flags().StringVar(&o.out, "out", "", "directory for the violation's trace file (default: a new temporary directory)")
	cmd.Flags().StringVar(&o.retries, "retries", sim.RetriesPreStep, "how request-recovery retries run: pre-step or same-step")
	cmd.Flags().BoolVar(&o.hostTools, "host-tools", false, "the host registers tools of its own (read, write, and search added at assembly) and the alphabet calls them (needs the adapter capability hostTools)")
	cmd.Flags().StringVar(&o.emptySteps, "empty-steps", sim.EmptyStepsRun, "what the runtime does with an accepted step that carries no messages: run, or skip (the alphabet then has such a step; needs the adapter capability emptySteps)")
	cmd.Flags().StringArrayVar(&o.assume, "assume", nil, "a known deviation the model predicts instead of SPEC.md (repeatable: "+strings.Join(properties.AssumableNames(), ", ")+")")
	cmd.Flags().StringVar(&o.expect, "expect", "", "expected-failure manifest `FILE` whose assume: lines add assumptions (its other entries are not used)")
	o.impl.register(cmd)
	o.impl.registerJobs(cmd)
	o.level.register(cmd)
	return cmd
}

// runExplore is plankit explore: it checks the flags, explores and writes
// to w what it found.
func runExplore(ctx context.Context, o *exploreOptions, w io.Writer) error {
	if o.depth < 1 {
		return usageErr("--depth must be at least 1, not %d", o.depth)
	}
	if err := o.level.validate(); err != nil {
		return err
	}
	m, err := readExpect(o.expect)
	if err != nil {
		return err
	}
	assumed, err := modelAssumptions(o.assume, m, o.level.runtime())
	if err != nil {
		return err
	}
	// --out is checked before anything runs, at either level.
	if err := outputDir("--out", o.out); err != nil {
		return err
	}
	if o.level.runtime() {
		depth := o.depth
		if !o.depthSet {
			depth = runtimeExploreDepth
		}
		return exploreRuntime(ctx, w, &o.impl, &o.level, depth, o.out, o.retriesSet)
	}
	if o.retries != sim.RetriesPreStep && o.retries != sim.RetriesSameStep {
		return usageErr("--retries must be %s or %s, not %q", sim.RetriesPreStep, sim.RetriesSameStep, o.retries)
	}
	if err := o.impl.checkJobs(); err != nil {
		return err
	}
	newPort, err := o.impl.factory()
	if err != nil {
		return err
	}
	if o.emptySteps != sim.EmptyStepsRun && o.emptySteps != sim.EmptyStepsSkip {
		return usageErr("--empty-steps must be %s or %s, not %q", sim.EmptyStepsRun, sim.EmptyStepsSkip, o.emptySteps)
	}
	ex, err := conformance.RunExplore(ctx, conformance.ExploreOptions{NewPort: newPort, Depth: o.depth, Out: o.out, Retries: o.retries,
		HostTools: o.hostTools, EmptySteps: o.emptySteps, Assume: assumed, Jobs: o.impl.jobs})
	if ie := interruption(ctx); ie != nil {
		// No verdict: the depth was not explored to the end.
		return interrupted(ie, "explored %d distinct states before it, no verdict for depth %d", ex.States, o.depth)
	}
	if err != nil {
		var ie *sim.ImplError
		switch {
		case errors.As(err, &ie):
			return withCode(ExitImpl, err)
		case ex.Violation != nil:
			return usageErr("%v", err) // the counterexample could not be written
		}
		return err
	}
	if len(assumed) > 0 {
		fmt.Fprintf(w, "assuming %s\n", strings.Join(assumed, ", "))
	}
	fmt.Fprintf(w, "explored to depth %d: %d distinct states, %d transitions checked (%d-action alphabet, %d actions run)\n",
		ex.Depth, ex.States, ex.Transitions, ex.Alphabet, ex.Actions)
	if ex.Violation == nil {
		fmt.Fprintln(w, "no violation")
		return nil
	}
	fmt.Fprintf(w, "violation: %s\ncounterexample: %s\n", ex.Violation, ex.Trace)
	if len(ex.Clauses) > 0 {
		// The clauses of the observation that diverged (lockstep's
		// table), not the whole model's.
		fmt.Fprintf(w, "clauses: %s (first differing observation: %s)\n", strings.Join(ex.Clauses, " "), ex.Observation)
	}
	if !ex.Reproduced {
		fmt.Fprintln(w, "note: the trace replays the sequence, but its expectation cannot express this failure")
	}
	return withCode(ExitFail, fmt.Errorf("violation after %d actions; replay with %s %s", len(ex.Violation.Actions), replayCommand(&o.impl, &o.level), ex.Trace))
}

// runtimeExploreDepth is explore --level runtime's default depth: every
// runtime script is run from a fresh runtime, and each level multiplies
// the states by about the alphabet's size.
const runtimeExploreDepth = 3
