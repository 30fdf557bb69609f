package features

import (
	"context"
	"sync"
	"testing"

	"github.com/plankit/plankit/reference"
)

// kill is what the suite did to one mutant.
type kill struct {
	info reference.MutantInfo
	// own are the failing scenarios tagged with the mutant's clause.
	own []string
}

// TestEveryMutantIsKilled runs the scenarios tagged with each mutant's
// clause against the mutant and fails unless one of them fails. The kill
// matrix of every suite, the whole suite against every mutant, is
// docs/mutants.md (plankit mutants --matrix).
func TestEveryMutantIsKilled(t *testing.T) {
	if len(reference.Catalogue) < 15 {
		t.Fatalf("the catalogue has %d mutants, want at least 15", len(reference.Catalogue))
	}
	kills := make([]kill, len(reference.Catalogue))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	errs := make([]error, len(kills))
	for i, m := range reference.Catalogue {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			// Only the scenarios tagged with the mutant's clause: the
			// assertion is about them, and the whole suite against every
			// mutant is the kill matrix's scenario column (docs/mutants.md,
			// cmd/plankit TestMutantsDocIsFresh).
			res, err := Run(context.Background(), Options{NewPort: reference.Factory(reference.Options{Mutants: reference.Mutants{m.Name}}), Selection: Selection{Tags: "@" + m.Clause}})
			if err == nil && res.Impl != nil {
				err = res.Impl
			}
			errs[i] = err
			k := kill{info: m}
			k.own, _ = Kills(res.Cases, m.Clause)
			kills[i] = k
		}()
	}
	wg.Wait()
	for i, k := range kills {
		if errs[i] != nil {
			t.Errorf("mutant %s: %v", k.info.Name, errs[i])
			continue
		}
		if len(k.own) == 0 {
			t.Errorf("mutant %s (%s: %s) survives: no scenario tagged %s fails", k.info.Name, k.info.Clause, k.info.What, k.info.Clause)
		}
	}
}
