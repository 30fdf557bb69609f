package planmode_test

import (
	"testing"

	"github.com/plankit/plankit/conformance"

	"example.com/planmode"
)

// The conformance suite, as plankit check runs it: one subtest per check.
func TestPlanModeConforms(t *testing.T) {
	conformance.Test(t, conformance.Options{NewPort: planmode.NewPort, Seed: 1})
}

// plankit diff's search: the implementation beside the reference on
// generated sequences; a divergence's trace goes to testdata/plankit/diff.
func TestPlanModeDiff(t *testing.T) {
	conformance.Diff(t, conformance.DiffOptions{NewPort: planmode.NewPort, Out: "testdata/plankit/diff"})
}

// plankit explore's search: every sequence up to a depth against the model.
func TestPlanModeExplore(t *testing.T) {
	conformance.Explore(t, conformance.ExploreOptions{NewPort: planmode.NewPort, Depth: 4, Out: "testdata/plankit/explore"})
}

// Go's fuzzer drives the sequences: go test -fuzz=FuzzPlanMode.
func FuzzPlanMode(f *testing.F) {
	f.Add([]byte("a seed input: optional")) // replayed by every go test
	conformance.Fuzz(f, conformance.FuzzOptions{NewPort: planmode.NewPort})
}
