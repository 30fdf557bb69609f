package properties

import (
	"context"
	"strings"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

// assumedVariant is the reference with the assumable deviations enabled,
// with the choice the STEP-6 variant needs to show (cancel-pending
// keep-equal), as the published package declares it.
func assumedVariant(t *testing.T, names ...string) func() sim.Port {
	t.Helper()
	ch, err := reference.ParseChoices(map[string]string{"cancel-pending": "keep-equal"})
	if err != nil {
		t.Fatal(err)
	}
	var ms reference.Mutants
	for _, n := range names {
		ms = append(ms, reference.Mutant(n))
	}
	return reference.Factory(reference.Options{Choices: ch, Mutants: ms})
}

// TestAssumedDeviationsArePredicted: against the reference with every
// assumable deviations, every property passes once they are assumed, and
// some fails when they are not (the assumption is what makes it pass).
func TestAssumedDeviationsArePredicted(t *testing.T) {
	var all []string
	for _, a := range Assumable {
		all = append(all, a.Name)
	}
	newPort := assumedVariant(t, all...)
	cases, err := Run(context.Background(), Options{NewPort: newPort, Seed: 3, Checks: 60, Assume: all, CounterexampleDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Status != report.Passed {
			t.Errorf("%s with %v assumed: %s %s", c.ID, all, c.Status, c.Message)
		}
	}
	res, err := Explore(context.Background(), ExploreOptions{NewPort: newPort, Depth: 4, Assume: all})
	if err != nil || res.Violation != nil {
		t.Fatalf("explore with %v assumed: %v %v", all, err, res.Violation)
	}
}

// TestEachAssumptionIsNeeded: each deviation alone, not assumed, fails
// some property; assumed, none.
func TestEachAssumptionIsNeeded(t *testing.T) {
	for _, a := range Assumable {
		t.Run(a.Name, func(t *testing.T) {
			newPort := assumedVariant(t, a.Name)
			for _, assume := range [][]string{nil, {a.Name}} {
				cases, err := Run(context.Background(), Options{NewPort: newPort, Seed: 3, Checks: 50, Assume: assume, CounterexampleDir: t.TempDir()})
				if err != nil {
					t.Fatal(err)
				}
				var failed []string
				for _, c := range cases {
					if c.Status != report.Passed {
						failed = append(failed, c.ID+": "+c.Message)
					}
				}
				if got, want := len(failed) == 0, assume != nil; got != want {
					t.Errorf("assuming %v: failing %v", assume, failed)
				}
			}
		})
	}
}

func TestUnpredictableAssumptionRefused(t *testing.T) {
	_, err := Run(context.Background(), Options{NewPort: assumedVariant(t), Assume: []string{"narrate-twice", "listener-appended", "fold-first"}})
	if err == nil || !strings.Contains(err.Error(), "narrate-twice, fold-first") {
		t.Fatalf("got %v, want narrate-twice and fold-first named", err)
	}
	if _, err := Explore(context.Background(), ExploreOptions{NewPort: assumedVariant(t), Depth: 1, Assume: []string{"narrate-twice"}}); err == nil {
		t.Fatal("explore accepted narrate-twice")
	}
}
