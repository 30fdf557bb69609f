package conformance_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/plankit/plankit/conformance"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
)

// Run the scenarios of one clause against the reference and read the
// verdict and that clause's row of the per-clause table.
func Example() {
	rep, err := conformance.Run(context.Background(), conformance.Options{
		NewPort: reference.Factory(reference.Options{}),
		Seed:    1,
		Tags:    "@PEND-5",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Implementation.Name, rep.Verdict, rep.Filter)
	for _, row := range rep.Clauses {
		if row.Clause == "PEND-5" {
			fmt.Printf("%s: %d failed\n", row.Clause, row.Failed)
		}
	}
	// Output:
	// plankit-reference pass --tags @PEND-5
	// PEND-5: 0 failed
}

// A Go implementation of sim.Port runs the whole suite from one test
// function; each check is a subtest. Here the implementation is the
// reference, as an implementer's own factory would be.
func TestReferenceConforms(t *testing.T) {
	rep := conformance.Test(t, conformance.Options{
		NewPort: reference.Factory(reference.Options{}),
		Seed:    1,
		Checks:  20,
	})
	if rep.Verdict != report.VerdictPass {
		t.Errorf("verdict %s", rep.Verdict)
	}
}

// The other reading of every silent point conforms too; the scenarios of
// the default readings are skipped, not failed.
func TestReferenceConformsUnderAlternativeChoices(t *testing.T) {
	conformance.Test(t, conformance.Options{
		NewPort: reference.Factory(reference.Options{Choices: reference.AlternativeChoices()}),
		Seed:    1,
		Checks:  20,
	})
}
