package properties

import (
	"context"
	"strings"
	"testing"

	"github.com/plankit/plankit/reference"
)

// TestFirstKiller: the kill budget's search names the first property in
// catalog order that kills a mutant, and its seed. Every mutant is killed
// within the budget: the kill matrix asserts it (plankit mutants --matrix,
// cmd/plankit TestMutantsDocIsFresh), so it is not run again here.
func TestFirstKiller(t *testing.T) {
	id, seed, err := FirstKiller(context.Background(), reference.Factory(reference.Options{Mutants: reference.Mutants{reference.FoldFirst}}), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	first := Catalog()[0].Name
	if !strings.HasPrefix(id, first) || seed != KillBudget.Seeds[0] {
		t.Fatalf("fold-first: first killer %q at seed %d, want %s at seed %d", id, seed, first, KillBudget.Seeds[0])
	}
}
