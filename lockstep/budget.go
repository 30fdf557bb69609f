package lockstep

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
)

// Budget bounds the search for a known deviation under its own clause:
// seed after seed from 1, at most PerSeed random sequences under each and
// Sequences in all, with the exhaustive search up to Depth under the first
// seed only (it draws nothing, so another seed would repeat it). A
// deviation is found when some divergence within the budget names its
// clause, whichever observation it is seen at: a divergence that names
// another clause does not end the search, so a change to what the
// generators draw (a new draw, a weight, a draw made Default) moves where
// a deviation is found but cannot turn an unrelated one red.
type Budget struct {
	Sequences, PerSeed, Steps, Depth int
}

// MutantBudget is the plugin level's budget: every known mutant and
// variant is found under its clause within it (the kill matrix of
// docs/mutants.md, whose test fails when one is not, and the recipe test).
var MutantBudget = Budget{Sequences: 6000, PerSeed: 1500}

// RuntimeMutantBudget is the runtime level's: every reference mutant a
// runtime can show (Evidence.RuntimeHidden empty) put in the built-in
// runtime is found under its clause within it
// (TestRuntimeLockstepNamesEachMutantUnderItsClause, the recipe test).
var RuntimeMutantBudget = Budget{Sequences: 360, PerSeed: 60, Steps: 12, Depth: 2}

// Found is what a budgeted search found: the first divergence that named
// the clause (nil: none within the budget), the divergences before it
// that named others (their one-line summaries), and how many random
// sequences it drew in all.
type Found struct {
	Divergence *Divergence
	Runtime    *RuntimeDivergence
	Others     []string
	Drawn      int
}

// FindUnder searches o's implementation for a divergence that names clause
// within b, writing each seed's trace under o.Out (seed-N). o's Seed,
// Cases, Steps and Depth are the budget's.
func FindUnder(ctx context.Context, o Options, clause string, b Budget) (Found, error) {
	var f Found
	err := b.search(&f, clause, func(seed int64, cases, depth int, sub string) (int, []string, string, error) {
		o.Seed, o.Cases, o.Steps, o.Depth = seed, cases, b.Steps, depth
		if o.Out != "" {
			o.Out = filepath.Join(o.Out, sub)
		}
		res, err := Run(ctx, o)
		if err != nil || res.Divergence == nil {
			return sequences(res), nil, "", err
		}
		f.Divergence = res.Divergence
		return res.Sequences, res.Divergence.Clauses, res.Divergence.Summary(), nil
	})
	if !slices.Contains(clausesOf(f.Divergence), clause) {
		f.Divergence = nil // the last seed's, under another clause
	}
	return f, err
}

// FindRuntimeUnder is FindUnder at runtime level: o's runtime against the
// built-in runtime around the reference.
func FindRuntimeUnder(ctx context.Context, o RuntimeOptions, clause string, b Budget) (Found, error) {
	var f Found
	err := b.search(&f, clause, func(seed int64, cases, depth int, sub string) (int, []string, string, error) {
		o.Seed, o.Cases, o.Steps, o.Depth = seed, cases, b.Steps, depth
		if o.Out != "" {
			o.Out = filepath.Join(o.Out, sub)
		}
		res, err := RunRuntime(ctx, o)
		if err != nil || res.Runtime == nil {
			return sequences(res), nil, "", err
		}
		f.Runtime = res.Runtime
		return res.Sequences, res.Runtime.Clauses, res.Runtime.Summary(), nil
	})
	if f.Runtime != nil && !slices.Contains(f.Runtime.Clauses, clause) {
		f.Runtime = nil // the last seed's, under another clause
	}
	return f, err
}

// search runs one search a seed, from 1, until one names clause or the
// budget is spent: run searches under a seed at most cases sequences (and
// the exhaustive search to depth, under the first seed only), writing
// under the directory named sub, and says how many it drew and the
// clauses and summary of the divergence it found (none: nil).
func (b Budget) search(f *Found, clause string, run func(seed int64, cases, depth int, sub string) (int, []string, string, error)) error {
	for seed := int64(1); f.Drawn < b.Sequences; seed++ {
		depth := 0
		if seed == 1 {
			depth = b.Depth
		}
		drawn, clauses, summary, err := run(seed, min(b.PerSeed, b.Sequences-f.Drawn), depth, fmt.Sprintf("seed-%d", seed))
		if err != nil {
			return err
		}
		f.Drawn += drawn
		switch {
		case slices.Contains(clauses, clause):
			return nil
		case clauses != nil:
			f.Others = append(f.Others, fmt.Sprintf("seed %d: %s", seed, summary))
		}
		if drawn == 0 {
			break
		}
	}
	return nil
}

// sequences is how many random sequences a search compared (none when it
// did not run).
func sequences(res *Result) int {
	if res == nil {
		return 0
	}
	return res.Sequences
}

// clausesOf is a divergence's clauses (none for none).
func clausesOf(d *Divergence) []string {
	if d == nil {
		return nil
	}
	return d.Clauses
}

// MutantProblems runs the plugin level's proof for a known mutant or
// variant m (the reference with m, declaring the choices a variant needs,
// as the implementation under test): some divergence within MutantBudget
// names m's clause, among the clauses the attribution table gives its
// observation, is explained by m alone, and its trace fails against m and
// passes against the reference. It returns what does not hold (none: m is
// found) and the divergence that named the clause.
func MutantProblems(ctx context.Context, m reference.MutantInfo, out string) ([]string, *Divergence, error) {
	f, err := FindUnder(ctx, Options{NewImpl: ImplOf(m), Out: out}, m.Clause, MutantBudget)
	if err != nil {
		return nil, nil, err
	}
	d := f.Divergence
	if d == nil {
		return []string{fmt.Sprintf("%s (%s): no divergence names %s within %d sequences over seeds from 1 (found instead: %v)", m.Name, m.Clause, m.Clause, f.Drawn, f.Others)}, nil, nil
	}
	var out2 []string
	if of := attribution.Of(d.Observation); len(of) == 0 || slices.ContainsFunc(d.Clauses, func(c string) bool { return !slices.Contains(of, c) }) {
		out2 = append(out2, fmt.Sprintf("%s: the %s divergence names %v; the attribution table gives it %v", m.Name, d.Observation, d.Clauses, of))
	}
	if !slices.ContainsFunc(d.ExplainedBy, func(set []string) bool { return slices.Equal(set, []string{string(m.Name)}) }) {
		out2 = append(out2, fmt.Sprintf("%s: classified as %v", m.Name, d.ExplainedBy))
	}
	if d.Stated && !d.Reproduced || !d.PassesReference {
		out2 = append(out2, fmt.Sprintf("%s: trace %s reproduces %v, passes the reference %v", m.Name, d.Trace, d.Reproduced, d.PassesReference))
	}
	return out2, d, nil
}

// RuntimeMutantProblems runs the runtime level's proof for a reference
// mutant of the catalogue: put in the built-in runtime, some divergence
// within RuntimeMutantBudget names its clause. A mutant whose evidence
// says a runtime cannot show it (RuntimeHidden) has nothing to prove.
func RuntimeMutantProblems(ctx context.Context, m reference.MutantInfo, out string) ([]string, *RuntimeDivergence, error) {
	if m.RuntimeHidden != "" {
		return nil, nil, nil
	}
	newPort := ImplOf(m)
	newRuntime := func() loop.Runtime {
		b, _ := loop.NewBuiltin(newPort(), loop.RetryPreStep)
		return b
	}
	f, err := FindRuntimeUnder(ctx, RuntimeOptions{NewImpl: newRuntime, Out: out}, m.Clause, RuntimeMutantBudget)
	if err != nil {
		return nil, nil, err
	}
	if f.Runtime == nil {
		return []string{fmt.Sprintf("%s (%s): at runtime level no divergence names %s within %d scripts over seeds from 1 (found instead: %v)", m.Name, m.Clause, m.Clause, f.Drawn, f.Others)}, nil, nil
	}
	return nil, f.Runtime, nil
}

// ImplOf is the reference with one known mutant or variant, declaring the
// choices a variant needs, as an implementation under test.
func ImplOf(m reference.MutantInfo) func() sim.Port {
	opts := reference.Options{Mutants: reference.Mutants{m.Name}}
	for _, v := range reference.Variants {
		if v.Name == m.Name {
			opts.Choices, _ = reference.ParseChoices(v.Choices)
		}
	}
	return reference.Factory(opts)
}
