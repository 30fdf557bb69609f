package lint_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/plankit/plankit/lint"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/render"
	"github.com/plankit/plankit/trace"
)

// simLog runs a trace against the reference (with mutants) and returns its
// session logs as plankit sim --format jsonl writes them.
func simLog(t *testing.T, path string, ms reference.Mutants) []byte {
	t.Helper()
	return simLogWith(t, path, reference.Options{Mutants: ms})
}

func simLogWith(t *testing.T, path string, opts reference.Options) []byte {
	t.Helper()
	tr, err := trace.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	run := trace.Execute(tr, reference.NewPort(opts))
	if run.Err != nil {
		t.Fatalf("%s: %v", path, run.Err)
	}
	var b bytes.Buffer
	if err := render.Write(&b, "jsonl", run); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestEveryMutantIsClassified: each mutant's evidence says which log
// shows it (and the clause of the finding), why no log can, or what a log
// shows that no rule reads yet.
func TestEveryMutantIsClassified(t *testing.T) {
	for _, m := range reference.Catalogue {
		if p := m.LogProblem(); p != "" {
			t.Errorf("mutant %s (%s): its Evidence (reference/mutants.go) %s", m.Name, m.Clause, p)
		}
	}
}

// TestMutantLogsHaveFindings: the log of each mutant's declared trace has
// a finding of the declared clause.
func TestMutantLogsHaveFindings(t *testing.T) {
	for _, m := range reference.Catalogue {
		if m.Log == "" {
			continue
		}
		t.Run(string(m.Name), func(t *testing.T) {
			path := filepath.Join("..", filepath.FromSlash(m.Log))
			r := lint.Bytes(path, simLog(t, path, reference.Mutants{m.Name}), lint.Options{})
			if !slices.Contains(r.Clauses(), m.LogClause) {
				t.Fatalf("mutant %s: want a %s finding, got %v:\n%s", m.Name, m.LogClause, r.Clauses(), text(r))
			}
		})
	}
}

// The fixture traces and every example trace, run against the faithful
// reference, give clean logs: the rules have no false findings there.
func TestFaithfulLogsAreClean(t *testing.T) {
	fixtures, _ := filepath.Glob("testdata/traces/*.yaml")
	examples, _ := filepath.Glob("../examples/*.yaml")
	if len(fixtures) < 4 || len(examples) == 0 {
		t.Fatalf("found %d fixtures and %d examples", len(fixtures), len(examples))
	}
	for _, path := range append(fixtures, examples...) {
		r := lint.Bytes(path, simLog(t, path, nil), lint.Options{})
		if c := lint.Code([]*lint.Report{r}); c != lint.ExitClean {
			t.Errorf("%s: exit %d:\n%s", path, c, text(r))
		}
		if r.Sessions == 0 {
			t.Errorf("%s: no session read", path)
		}
	}
}

// Every state line agrees with the reference's own fold at that header.
func TestStatesMatchTheReferenceFold(t *testing.T) {
	examples, _ := filepath.Glob("../examples/*.yaml")
	for _, path := range examples {
		tr, err := trace.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		run := trace.Execute(tr, reference.NewPort(reference.Options{}))
		var want []string
		for _, l := range run.Logs {
			for i, e := range l.Events {
				if e.Type == "request/header" {
					want = append(want, fmt.Sprint(reference.FoldPlanMode(l.Events, i)))
				}
			}
		}
		var b bytes.Buffer
		_ = render.Write(&b, "jsonl", run)
		var got []string
		for _, s := range lint.Bytes(path, b.Bytes(), lint.Options{}).States() {
			got = append(got, fmt.Sprint(*s.Active))
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: states %v, reference fold %v", path, got, want)
		}
	}
}

// With section-source=pending the section shows a selection whose append
// failed; the log cannot tell that from a CFG-2 breach, so the linter takes
// the implementation's declared choice.
func TestSectionSourcePendingChoice(t *testing.T) {
	path := "testdata/traces/append-failure.yaml"
	log := simLogWith(t, path, reference.Options{Choices: reference.Choices{SectionSource: "pending"}})
	if r := lint.Bytes(path, log, lint.Options{}); !slices.Equal(r.Clauses(), []string{"CFG-2"}) {
		t.Fatalf("default options: want a CFG-2 finding, got %v:\n%s", r.Clauses(), text(r))
	}
	if r := lint.Bytes(path, log, lint.Options{SectionSource: "pending"}); lint.Code([]*lint.Report{r}) != lint.ExitClean {
		t.Fatalf("section-source=pending: want clean:\n%s", text(r))
	}
	if err := (lint.Options{SectionSource: "later"}).Validate(); err == nil {
		t.Fatal("an unknown section-source value must be refused")
	}
}
