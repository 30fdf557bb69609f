package features

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/plankit/plankit/attribution"
)

type clausesErr []string

func (c clausesErr) Error() string               { return "diverged" }
func (c clausesErr) AttributedClauses() []string { return c }

// A step error that names its observation's clauses wins, also wrapped;
// a plain error names none, and the step text then says the observation.
func TestStepAttribution(t *testing.T) {
	wrapped := fmt.Errorf("step: %w", clausesErr{"STEP-6"})
	if got := stepAttributed(wrapped); !slices.Equal(got, []string{"STEP-6"}) {
		t.Fatalf("stepAttributed(wrapped) = %v", got)
	}
	if got := stepAttributed(errors.New("plain")); got != nil {
		t.Fatalf("stepAttributed(plain) = %v", got)
	}
	if got := stepObservation("the reply announces noop", errors.New("x")); got != attribution.ObsReply {
		t.Fatalf("reply step observes %q", got)
	}
	if got := attribution.ForScenario(attribution.ObsReply, []string{"CMD-3", "CMD-4"}); !slices.Equal(got, []string{"SVC-1"}) {
		t.Fatalf("reply attribution %v", got)
	}
}
