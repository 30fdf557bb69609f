package reference_test

import (
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/spec"
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

// LogProblem accepts exactly one account of the log: a trace with its
// clause, why none can show the mutant, or what one shows unread.
func TestLogProblem(t *testing.T) {
	for _, c := range []struct {
		e  reference.Evidence
		ok bool
	}{
		{reference.Evidence{Log: "x.yaml", LogClause: spec.LOG1}, true},
		{reference.Evidence{LogHidden: "not logged"}, true},
		{reference.Evidence{LogUnlinted: "no rule yet"}, true},
		{reference.Evidence{}, false},
		{reference.Evidence{Log: "x.yaml"}, false},
		{reference.Evidence{LogClause: spec.LOG1, LogHidden: "not logged"}, false},
		{reference.Evidence{LogHidden: "a", LogUnlinted: "b"}, false},
	} {
		if got := c.e.LogProblem() == ""; got != c.ok {
			t.Errorf("%+v: LogProblem %q", c.e, c.e.LogProblem())
		}
	}
}
