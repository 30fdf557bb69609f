package lockstep_test

import (
	"context"
	"slices"
	"testing"

	"github.com/plankit/plankit/lockstep"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
)

// builtinRuntime is the built-in runtime around the reference with the
// mutants, as check --level runtime --mutant runs it.
func builtinRuntime(retry string, mutants ...reference.Mutant) func() loop.Runtime {
	newPort := reference.Factory(reference.Options{Mutants: mutants})
	return func() loop.Runtime {
		b, _ := loop.NewBuiltin(newPort(), retry)
		return b
	}
}

func TestRuntimeLockstepFindsNothingInTheBuiltinRuntime(t *testing.T) {
	for _, retry := range []string{loop.RetryPreStep, loop.RetrySameStep} {
		res, err := lockstep.RunRuntime(context.Background(), lockstep.RuntimeOptions{NewImpl: builtinRuntime(retry), Seed: 1, Cases: 60, Steps: 12, Depth: 2, Out: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if res.Runtime != nil {
			t.Fatalf("retry %s: %s", retry, res.Runtime.Summary())
		}
	}
}

func TestRuntimeLockstepNamesEachMutantUnderItsClause(t *testing.T) {
	for _, mi := range reference.Catalogue {
		t.Run(string(mi.Name), func(t *testing.T) {
			var got []string
			for seed := int64(1); seed <= 3; seed++ {
				res, err := lockstep.RunRuntime(context.Background(), lockstep.RuntimeOptions{NewImpl: builtinRuntime(loop.RetryPreStep, mi.Name), Seed: seed, Cases: 100, Steps: 12, Depth: 2, Out: t.TempDir()})
				if err != nil {
					t.Fatal(err)
				}
				d := res.Runtime
				if d == nil {
					continue
				}
				if slices.Contains(d.Clauses, mi.Clause) {
					return
				}
				got = append(got, d.Summary())
			}
			t.Errorf("%s (%s): not found under its clause: %v", mi.Name, mi.Clause, got)
		})
	}
}
