package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/catalog/coverage"
	"github.com/plankit/plankit/spec"
)

// findSpec returns SPEC.md's path: $PLANKIT_SPEC, or shared/SPEC.md
// beside the module root or one of its parents (where the project keeps
// it); "" when neither is there.
func findSpec(root string) string {
	if p := os.Getenv("PLANKIT_SPEC"); p != "" {
		return p
	}
	dir, err := filepath.Abs(root)
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(filepath.Dir(dir), "shared", "SPEC.md")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// noSpec is the value of PLANKIT_SPEC that skips the comparison with
// SPEC.md on purpose; CI refuses it.
const noSpec = "none"

// readRecipeState gathers what the recipe checks: SPEC.md's clause IDs,
// the coverage of every clause, the stale generated files.
func readRecipeState(t *testing.T, root string) recipeState {
	t.Helper()
	e := recipeState{root: root}
	switch path := findSpec(root); {
	case path == noSpec && os.Getenv("CI") != "":
		t.Fatal("PLANKIT_SPEC=none: CI must compare the clauses with SPEC.md")
	case path == noSpec:
		t.Log("PLANKIT_SPEC=none: the clauses are not compared with SPEC.md")
	case path == "":
		t.Fatal("SPEC.md not found (shared/SPEC.md beside the checkout or a parent): set PLANKIT_SPEC to its path, or PLANKIT_SPEC=none to skip the comparison on purpose (refused when CI is set)")
	default:
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range spec.ListedIn(string(text)) {
			e.specIDs = append(e.specIDs, c.ID)
		}
		if len(e.specIDs) == 0 {
			t.Fatalf("%s: no clause found (a clause is a line \"- **GROUP-N** …\")", path)
		}
	}
	scenarios, err := scenarioChecks(filepath.Join(root, "features"))
	if err != nil {
		t.Fatal(err)
	}
	runtimeScenarios, err := scenarioChecks(filepath.Join(root, "loop", "suite"))
	if err != nil {
		t.Fatal(err)
	}
	e.coverage = coverage.ComputeWithChoices(spec.ClauseIDs(), knownChoices(), scenarios, propertyChecks())
	e.coverage.AddRuntime(append(runtimeScenarios, runtimePropertyChecks()...))
	e.coverage.AddRuntimeGaps(runtimeGaps())
	set, err := generatedFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if e.stale, err = set.Stale(root); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestEveryClauseHasItsEvidence is the recipe test (clauseRecipe,
// actionRecipe, stepRecipe): it reports every piece that a clause of
// SPEC.md, a mutant, an action or a kind of runtime step lacks, all at
// once, in the order a maintainer adds them, each with the file it goes
// in; then, for what is new since the base revision's records (recipeNew:
// PLANKIT_RECIPE_BASE, default HEAD), it runs the slow proofs the rest of
// the suite would run for it, for it alone, so that nothing missing means
// the suite is green.
func TestEveryClauseHasItsEvidence(t *testing.T) {
	root := filepath.Join("..", "..")
	missing := recipeMissing(readRecipeState(t, root))
	n := newSinceBase(root)
	switch {
	case n.Base == "":
		t.Logf("the base revision %s could not be read with git: no slow proof is run", recipeBase())
	default:
		t.Log(n)
		missing = append(missing, recipeProve(context.Background(), root, n)...)
	}
	if len(missing) > 0 {
		t.Errorf("the recipe (docs/architecture.md, \"Recipes\") lacks, in the order to add them:\n%s", strings.Join(missing, "\n"))
	}
}

// A clause SPEC.md lists and the code does not know is named at the
// recipe's first step.
func TestRecipeNamesANewClause(t *testing.T) {
	e := recipeState{root: filepath.Join("..", ".."), specIDs: append(spec.ClauseIDs(), "LOG-9")}
	missing := recipeMissing(e)
	if len(missing) != 1 || missing[0] != "1. spec/clauses.go: LOG-9 is in SPEC.md but not declared" {
		t.Fatalf("got %q", missing)
	}
}
