package features

import (
	"context"
	"strings"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

func referencePort(o reference.Options) func() sim.Port {
	return func() sim.Port { return reference.NewPort(o) }
}

// TestReferenceConforms runs the whole suite against the reference: every
// scenario passes or is skipped for a choice the reference did not make.
func TestReferenceConforms(t *testing.T) {
	res, err := Run(context.Background(), Options{NewPort: referencePort(reference.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	if res.Impl != nil {
		t.Fatal(res.Impl)
	}
	for _, c := range res.Cases {
		switch c.Status {
		case report.Passed:
		case report.Skipped:
			if !strings.Contains(c.Message, "choice") {
				t.Errorf("%s skipped: %s", c.ID, c.Message)
			}
		default:
			t.Errorf("%s (%s:%d) %s: %s", c.ID, c.URI, c.Line, c.Status, c.Message)
		}
	}
}
