package conformance_test

import (
	"os"
	"testing"

	"github.com/plankit/plankit/conformance"
	"github.com/plankit/plankit/reference"
)

// FuzzReferenceMutant fuzzes the reference's mutant that
// $PLANKIT_FUZZ_MUTANT names against the reference, as an implementer's
// fuzz target does their implementation: scripts/fuzz-mutants.sh runs it
// from an empty corpus for each mutant of the catalogue and records how
// long the fuzzer takes to find it (docs/performance.md). Without the
// variable it is skipped.
func FuzzReferenceMutant(f *testing.F) {
	name := os.Getenv("PLANKIT_FUZZ_MUTANT")
	if name == "" {
		f.Skip("$PLANKIT_FUZZ_MUTANT names no mutant (scripts/fuzz-mutants.sh sets it)")
	}
	m, err := reference.LookupMutant(name)
	if err != nil {
		f.Fatal(err)
	}
	conformance.Fuzz(f, conformance.FuzzOptions{
		NewPort: reference.Factory(reference.Options{Mutants: reference.Mutants{m.Name}}),
		Out:     os.Getenv("PLANKIT_FUZZ_OUT"),
	})
}
