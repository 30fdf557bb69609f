package reference_test

import (
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/trace"
)

// Every mutant in the catalogue fails the example trace its evidence
// names, so the examples alone already tell a broken implementation from
// the reference. (The features and properties suites each have their own
// kill tests.)
func TestExamplesKillEveryMutant(t *testing.T) {
	for _, m := range reference.Catalogue {
		if m.Example == "" {
			t.Errorf("mutant %s (%s): its Evidence names no example trace that kills it", m.Name, m.Clause)
			continue
		}
		tr, err := trace.ReadFile(filepath.Join("..", "examples", m.Example))
		if err != nil {
			t.Errorf("mutant %s: %v", m.Name, err)
			continue
		}
		run := trace.Execute(tr, reference.NewPort(reference.Options{Mutants: reference.Mutants{m.Name}}))
		if !run.Failed() && run.Err == nil {
			t.Errorf("mutant %s (%s: %s) passes examples/%s, which its Evidence says kills it", m.Name, m.Clause, m.What, m.Example)
		}
	}
}
