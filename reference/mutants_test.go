package reference_test

import (
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/trace"
)

// Every mutant in the catalogue fails at least one example trace, so the
// examples alone already tell a broken implementation from the reference.
// (The features and properties suites each have their own kill tests.)
func TestExamplesKillEveryMutant(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.yaml")
	var traces []*trace.Trace
	for _, f := range files {
		tr, err := trace.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		traces = append(traces, tr)
	}
	for _, m := range reference.Catalogue {
		var killers []string
		for _, tr := range traces {
			run := trace.Execute(tr, reference.NewPort(reference.Options{Mutants: reference.Mutants{m.Name}}))
			if run.Failed() || run.Err != nil {
				killers = append(killers, filepath.Base(tr.File))
			}
		}
		if len(killers) == 0 {
			t.Errorf("mutant %s (%s: %s) survives every example", m.Name, m.Clause, m.What)
		} else {
			t.Logf("%s killed by %v", m.Name, killers)
		}
	}
}
