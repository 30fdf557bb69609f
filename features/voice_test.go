package features

import (
	"context"
	"testing"

	"github.com/plankit/plankit/internal/voice"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

// An implementation in another voice passes every scenario: they assert
// meaning, not the reference's words or an order SPEC.md does not fix.
func TestAnotherVoicePasses(t *testing.T) {
	newRef := reference.Factory(reference.Options{})
	res, err := Run(context.Background(), Options{NewPort: func() sim.Port { return voice.Plugin(newRef()) }})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Cases {
		if c.Status != report.Passed && c.Status != report.Skipped {
			t.Errorf("%s %s: %s", c.ID, c.Status, c.Message)
		}
	}
}
