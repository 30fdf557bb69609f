package properties

import (
	"context"
	"testing"

	"github.com/plankit/plankit/internal/voice"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

// An implementation in another voice — its own words, its notice first
// among the step's messages, extra fields in an approval's result —
// passes every property and the exploration: the model predicts what
// SPEC.md states, not the reference's wording or an order SPEC.md does not
// fix.
func TestAnotherVoicePasses(t *testing.T) {
	newRef := reference.Factory(reference.Options{})
	newPort := func() sim.Port { return voice.Plugin(newRef()) }
	cases, err := Run(context.Background(), Options{NewPort: newPort, Seed: 1, Checks: 50, CounterexampleDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Status != report.Passed {
			t.Errorf("%s %s: %s", c.ID, c.Status, c.Message)
		}
	}
	res, err := Explore(context.Background(), ExploreOptions{NewPort: newPort, Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil {
		t.Errorf("exploration: %+v", res.Violation)
	}
}
