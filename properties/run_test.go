package properties

import (
	"context"
	"strings"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

func referencePort(opts reference.Options) func() sim.Port {
	return func() sim.Port { return reference.NewPort(opts) }
}

func TestRunPassesAgainstReference(t *testing.T) {
	var out strings.Builder
	cases, err := Run(context.Background(), Options{NewPort: referencePort(reference.Options{}), Seed: 1, CounterexampleDir: t.TempDir(), Output: &out})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(cases) != len(Catalog()) {
		t.Fatalf("%d cases for %d properties", len(cases), len(Catalog()))
	}
	for _, c := range cases {
		if c.Status != report.Passed || c.Kind != report.KindProperty || len(c.Clauses) == 0 {
			t.Errorf("%s: %s %s", c.ID, c.Status, c.Message)
		}
	}
	t.Log(out.String())
}
