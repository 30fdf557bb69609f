package properties

import (
	"context"

	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

// KillBudget is how hard the properties look for a mutant: seed after
// seed, KillChecks generated cases per property under each. A mutant must
// be killed within it, not under one seed, so a new draw or weight that
// changes what one seed draws cannot turn an unrelated mutant red. The
// kill matrix (plankit mutants --matrix, docs/mutants.md) searches within
// it; its test fails when a mutant survives.
var KillBudget = struct {
	Seeds  []int64
	Checks int
}{Seeds: []int64{7, 8, 9, 10, 11}, Checks: 100}

// FirstKiller runs the properties one at a time in catalog order, seed
// after seed of KillBudget, against the implementation newPort makes, and
// returns the ID of the first failing case and its seed ("" and 0: none
// fails within the budget). Counterexamples are written under dir.
func FirstKiller(ctx context.Context, newPort func() sim.Port, dir string) (id string, seed int64, err error) {
	for _, seed := range KillBudget.Seeds {
		for _, info := range Catalog() {
			cases, err := Run(ctx, Options{NewPort: newPort, Seed: seed, Checks: KillBudget.Checks, Only: []string{info.Name}, CounterexampleDir: dir})
			if err != nil {
				return "", 0, err
			}
			if cases[0].Status == report.Failed {
				return cases[0].ID, seed, nil
			}
		}
	}
	return "", 0, nil
}
