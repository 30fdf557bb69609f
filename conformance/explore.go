package conformance

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/sim"
)

// DefaultExploreDepth is the depth Explore and `plankit explore` explore
// to when not told.
const DefaultExploreDepth = 8

// ExploreOptions configure a bounded exhaustive exploration, as the flags
// of `plankit explore` do. Only NewPort is required.
type ExploreOptions struct {
	// NewPort starts a fresh instance of the implementation under test.
	NewPort func() sim.Port
	// Choices are the implementation's picks for the silent points it does
	// not declare at Start (as Options.Choices).
	Choices map[string]string
	// Depth is the longest action sequence explored (0: DefaultExploreDepth);
	// each level costs about twice the one before.
	Depth int
	// Out receives the violation's trace file (empty: a new temporary
	// directory, named in the failure).
	Out string
	// Retries is how request-recovery retries run: sim.RetriesPreStep
	// (empty) or sim.RetriesSameStep.
	Retries string
	// HostTools: the host registers tools of its own and the alphabet calls
	// them (the implementation must declare the capability HostTools).
	HostTools bool
	// EmptySteps is what the runtime does with an accepted step that carries
	// no messages: sim.EmptyStepsRun (empty) or sim.EmptyStepsSkip (the
	// alphabet then has such a step; capability EmptySteps).
	EmptySteps string
	// Assume names known deviations the model predicts instead of SPEC.md
	// (properties.Assumable), so the exploration goes on past them.
	Assume []string
	// Jobs is the number of transitions run at once, each on its own
	// instances (<= 1: one at a time); the result is the same for any number.
	Jobs int
}

// Exploration is what an exploration covered and the first violation it
// found, written as a trace and named by its clauses.
type Exploration struct {
	properties.ExploreResult
	// Trace is the violation's trace file, which Replay (and plankit sim)
	// replays to the same failure; empty without a violation.
	Trace string
	// Reproduced says replaying Trace fails at its last action (a trace
	// expectation can state the violation).
	Reproduced bool
	// Clauses are those of the first observation on which the violating
	// sequence differs from the reference (as plankit explore names
	// them), and Observation that observation; empty when the reference
	// does not tell them (then the model's clauses stand).
	Clauses     []string
	Observation string
}

// RunExplore explores every action sequence up to opts.Depth over the
// exploration alphabet, breadth first, against the abstract model of
// SPEC.md, as plankit explore does. A violation (a shortest one) is in
// the result, written as a trace and attributed; the error is for options
// that cannot run, an implementation that could not be run (a
// *sim.ImplError) and a cancelled ctx.
func RunExplore(ctx context.Context, opts ExploreOptions) (Exploration, error) {
	if opts.NewPort == nil {
		return Exploration{}, errors.New("no implementation: ExploreOptions.NewPort is nil")
	}
	if opts.Depth == 0 {
		opts.Depth = DefaultExploreDepth
	}
	if opts.Depth < 0 {
		return Exploration{}, fmt.Errorf("depth %d: want at least 1", opts.Depth)
	}
	if opts.Retries == "" {
		opts.Retries = sim.RetriesPreStep
	}
	if opts.Retries != sim.RetriesPreStep && opts.Retries != sim.RetriesSameStep {
		return Exploration{}, fmt.Errorf("retries %q: want %s or %s", opts.Retries, sim.RetriesPreStep, sim.RetriesSameStep)
	}
	if opts.EmptySteps != "" && opts.EmptySteps != sim.EmptyStepsRun && opts.EmptySteps != sim.EmptyStepsSkip {
		return Exploration{}, fmt.Errorf("empty steps %q: want %s or %s", opts.EmptySteps, sim.EmptyStepsRun, sim.EmptyStepsSkip)
	}
	if err := checkChoices(opts.Choices); err != nil {
		return Exploration{}, err
	}
	newPort := declared(opts.NewPort, opts.Choices)
	setup := properties.Setup{Services: sim.Services{Commands: true, UserQuestions: true}, Retries: opts.Retries, HostTools: opts.HostTools}
	if opts.EmptySteps == sim.EmptyStepsSkip {
		setup.EmptySteps = opts.EmptySteps
	}
	res, err := properties.Explore(ctx, properties.ExploreOptions{NewPort: newPort, Depth: opts.Depth, Setup: &setup, Jobs: opts.Jobs, Assume: opts.Assume})
	ex := Exploration{ExploreResult: res}
	if err != nil || res.Violation == nil {
		return ex, err
	}
	model, _ := properties.Lookup(properties.NameStateMachine)
	info := properties.Info{Name: fmt.Sprintf("explore-depth%d", opts.Depth), Clauses: model.Clauses,
		Doc: "bounded exhaustive exploration against the model"}
	if ex.Trace, ex.Reproduced, err = properties.WriteCounterexample(opts.Out, info, 0, 0, res.Violation, newPort); err != nil {
		return ex, fmt.Errorf("writing the counterexample: %w", err)
	}
	v := res.Violation
	if cl, obs, err := attribute(opts.Assume)(newPort, v.Setup, v.Actions[:min(v.Index+1, len(v.Actions))]); err == nil && len(cl) > 0 {
		ex.Clauses, ex.Observation = cl, obs
	}
	return ex, nil
}

// Explore is RunExplore from a go test: a violation fails t, naming its
// clauses, the sequence, the trace written and how to replay it against
// the implementation; an implementation that could not be run and options
// that cannot run fail t too. The context is t.Context().
func Explore(t testing.TB, opts ExploreOptions) Exploration {
	t.Helper()
	ex, err := RunExplore(t.Context(), opts)
	if err != nil {
		t.Fatalf("conformance.Explore: %v", err)
		return ex
	}
	if v := ex.Violation; v != nil {
		t.Errorf("%s", ex.describe())
	}
	return ex
}

// describe is the violation in words: what failed, its clauses, its trace
// and how to replay it.
func (ex Exploration) describe() string {
	v := ex.Violation
	var b strings.Builder
	fmt.Fprintf(&b, "explored to depth %d (%d distinct states, %d transitions): violation after %d actions: %s", ex.Depth, ex.States, ex.Transitions, len(v.Actions), v)
	if len(ex.Clauses) > 0 {
		fmt.Fprintf(&b, "\nclauses: %s (first differing observation: %s)", strings.Join(ex.Clauses, " "), ex.Observation)
	}
	fmt.Fprintf(&b, "\ncounterexample: %s", ex.Trace)
	if !ex.Reproduced {
		b.WriteString(" (the trace replays the sequence, but its expectation cannot express this failure)")
	}
	b.WriteString(replayHint(ex.Trace, false))
	return b.String()
}
