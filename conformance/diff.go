package conformance

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/plankit/plankit/lockstep"
	"github.com/plankit/plankit/sim"
)

// The search plankit diff and Diff run when not told otherwise.
const (
	// DefaultDiffCases is the number of random sequences.
	DefaultDiffCases = 1000
	// DefaultDiffSteps is the number of actions in each.
	DefaultDiffSteps = 40
	// DefaultDiffDepth bounds the exhaustive search over the exploration
	// alphabet that follows.
	DefaultDiffDepth = 4
	// DefaultSeed is the seed plankit's commands use when not told one.
	DefaultSeed = 1
)

// DiffOptions configure a lockstep search, as the flags of plankit diff
// do. Only NewPort is required; every number left 0 takes plankit diff's
// default.
type DiffOptions struct {
	// NewPort starts a fresh instance of the implementation under test;
	// the search reaches it only through this factory.
	NewPort func() sim.Port
	// Choices are the implementation's picks for the silent points it does
	// not declare at Start (as Options.Choices); the reference follows the
	// implementation's picks.
	Choices map[string]string
	// Assume names known deviations, as reference variants the reference
	// then follows (lockstep.Known lists them), so the search goes on past
	// them.
	Assume []string
	// Seed draws the random sequences (0: DefaultSeed).
	Seed int64
	// Cases is the number of random sequences (0: DefaultDiffCases; a
	// negative number: none), Steps the actions in each (0:
	// DefaultDiffSteps).
	Cases, Steps int
	// Depth bounds the exhaustive search that follows the random one (0:
	// DefaultDiffDepth; a negative number: none).
	Depth int
	// Out receives the divergence's trace file (empty: a new temporary
	// directory, named in the failure).
	Out string
	// Jobs is the number of sequences compared at once, each pair on its
	// own instances (<= 1: one at a time); the result is the same for any
	// number.
	Jobs int
	// Output receives the search's progress lines (nil: discarded).
	Output io.Writer
}

// search is the lockstep search the options describe, with plankit diff's
// defaults filled in.
func (o DiffOptions) search() (lockstep.Options, error) {
	if o.NewPort == nil {
		return lockstep.Options{}, errors.New("no implementation: DiffOptions.NewPort is nil")
	}
	if err := checkChoices(o.Choices); err != nil {
		return lockstep.Options{}, err
	}
	orDefault := func(n, def int) int {
		switch {
		case n == 0:
			return def
		case n < 0:
			return 0
		}
		return n
	}
	l := lockstep.Options{NewImpl: declared(o.NewPort, o.Choices), Assume: o.Assume, Seed: o.Seed, Cases: orDefault(o.Cases, DefaultDiffCases),
		Steps: orDefault(o.Steps, DefaultDiffSteps), Depth: orDefault(o.Depth, DefaultDiffDepth), Out: o.Out, Output: o.Output, Jobs: o.Jobs}
	switch {
	case l.Seed == 0:
		l.Seed = DefaultSeed
	case l.Seed < 0:
		return l, fmt.Errorf("seed %d: want a number >= 0", l.Seed)
	}
	if l.Cases == 0 && l.Depth == 0 {
		return l, errors.New("no search: Cases and Depth are both negative")
	}
	if l.Steps < 0 {
		return l, fmt.Errorf("steps %d: want at least 1", o.Steps)
	}
	return l, nil
}

// Diff runs the implementation and the reference side by side on the same
// generated action sequences, as plankit diff does: Cases random sequences
// of Steps actions, then every sequence up to Depth over the exploration
// alphabet, comparing every observation after every action. The reference
// runs with the implementation's declared choices and the assumed
// variants. The first divergence is shrunk, named by the clauses of the
// observation that differs (the attribution of plankit diff), classified by
// the known variants that explain it, written as a trace under Out whose
// last action carries the reference's observation as its expectation, and
// fails t, saying how to replay that trace against the implementation. An
// implementation that could not be run and options that cannot run fail t
// too. The context is t.Context().
func Diff(t testing.TB, opts DiffOptions) *lockstep.Result {
	t.Helper()
	l, err := opts.search()
	if err != nil {
		t.Fatalf("conformance.Diff: %v", err)
		return nil
	}
	res, err := lockstep.Run(t.Context(), l)
	if err != nil {
		var ie *sim.ImplError
		if errors.As(err, &ie) {
			t.Fatalf("conformance.Diff: the implementation could not be run: %v", err)
		} else {
			t.Fatalf("conformance.Diff: %v", err)
		}
		return res
	}
	if d := res.Divergence; d != nil {
		t.Errorf("%s", describeDivergence(d))
	}
	return res
}

// describeDivergence is a divergence in words, as plankit diff prints it.
func describeDivergence(d *lockstep.Divergence) string {
	var b strings.Builder
	fmt.Fprintf(&b, "divergence on %s [%s] at action %d of %d (%s)\n", d.Observation, strings.Join(d.Clauses, " "), d.Index+1, len(d.Actions), d.Actions[d.Index])
	fmt.Fprintf(&b, "  reference:      %s\n  implementation: %s\n", d.Reference, d.Implementation)
	if d.New() {
		b.WriteString("  class: new (no known variant explains it)\n")
	} else {
		var sets []string
		for _, set := range d.ExplainedBy {
			sets = append(sets, strings.Join(set, " + "))
		}
		fmt.Fprintf(&b, "  class: known, explained by %s\n", strings.Join(sets, " or "))
	}
	fmt.Fprintf(&b, "  trace: %s", d.Trace)
	switch {
	case !d.Stated:
		b.WriteString("\n  note: no trace expectation can state this observation; the trace replays the sequence")
	case !d.Reproduced:
		b.WriteString("\n  note: replaying the trace does not fail at its last action")
	}
	b.WriteString(replayHint(d.Trace, false))
	return b.String()
}
