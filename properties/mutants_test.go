package properties

import (
	"context"
	"slices"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
)

// unobservable lists the mutants no property can observe, each justified
// in docs/properties.md. It is empty: every mutant is killed.
var unobservable = []reference.Mutant{}

// killSeeds is the budget of the mutant search: the seeds tried, in
// order, each with killChecks generated cases per property. A mutant must
// be killed within it, not under one seed, so a new action or weight that
// changes what one seed draws cannot turn an unrelated mutant red.
var killSeeds = []int64{7, 8, 9, 10, 11}

const killChecks = 100

// TestEveryMutantIsKilled runs the whole property suite against each
// mutant of the reference, seed after seed of the budget: some property
// must fail.
func TestEveryMutantIsKilled(t *testing.T) {
	for _, m := range reference.Catalogue {
		t.Run(string(m.Name), func(t *testing.T) {
			// Properties run one at a time, stopping at the first that
			// kills the mutant, to keep the test short.
			var killers []string
		search:
			for _, seed := range killSeeds {
				for _, info := range Catalog() {
					cases, err := Run(context.Background(), Options{NewPort: reference.Factory(reference.Options{Mutants: reference.Mutants{m.Name}}), Seed: seed, Checks: killChecks, Only: []string{info.Name}, CounterexampleDir: t.TempDir()})
					if err != nil {
						t.Fatal(err)
					}
					if cases[0].Status == report.Failed {
						killers = append(killers, cases[0].ID)
						break search
					}
				}
			}
			if slices.Contains(unobservable, m.Name) {
				if len(killers) > 0 {
					t.Fatalf("%s is listed as unobservable but %v kill it", m.Name, killers)
				}
				return
			}
			if len(killers) == 0 {
				t.Fatalf("mutant %s (%s: %s) survives every property", m.Name, m.Clause, m.What)
			}
			t.Logf("%s (%s) killed by %v", m.Name, m.Clause, killers)
		})
	}
}
