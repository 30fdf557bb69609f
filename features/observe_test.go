package features

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
)

type clausesErr []string

func (c clausesErr) Error() string               { return "diverged" }
func (c clausesErr) AttributedClauses() []string { return c }

// A step error that names its observation's clauses wins, also wrapped;
// a step registered with its observation names it unless its error
// names its own; a plain error names none.
func TestStepAttribution(t *testing.T) {
	wrapped := fmt.Errorf("step: %w", clausesErr{"STEP-6"})
	if got := stepAttributed(wrapped); !slices.Equal(got, []string{"STEP-6"}) {
		t.Fatalf("stepAttributed(wrapped) = %v", got)
	}
	if got := stepAttributed(errors.New("plain")); got != nil {
		t.Fatalf("stepAttributed(plain) = %v", got)
	}
	reply := observes1(attribution.ObsReply, func(string) error { return errors.New("x") })
	if got := stepObservation(reply("noop")); got != attribution.ObsReply {
		t.Fatalf("reply step observes %q", got)
	}
	listener := observes0(attribution.ObsReply, func() error { return &observedError{attribution.ObsListener, errors.New("x")} })
	if got := stepObservation(listener()); got != attribution.ObsListener {
		t.Fatalf("a step naming its own observation observes %q", got)
	}
	if err := observes2(attribution.ObsGet, func(string, string) error { return nil })("a", "b"); err != nil {
		t.Fatalf("a passing step fails: %v", err)
	}
	if got := stepObservation(errors.New("plain")); got != "" {
		t.Fatalf("a step registered with no observation observes %q", got)
	}
	if got := attribution.ForScenario(attribution.ObsReply, []string{"CMD-3", "CMD-4"}); !slices.Equal(got, []string{"SVC-1"}) {
		t.Fatalf("reply attribution %v", got)
	}
}

// TestFailingStepCountsUnderItsObservation: a scenario failing at a
// checking step counts under the clauses of the observation the step is
// registered with, not all the scenario's tags: the replies of /plan
// (tagged CMD-2 and SVC-1) are the command's reply, SVC-1.
func TestFailingStepCountsUnderItsObservation(t *testing.T) {
	res, err := Run(context.Background(), Options{Selection: Selection{Tags: "@id:cmd-replies-announce-what-happened"},
		NewPort: reference.Factory(reference.Options{Mutants: reference.Mutants{reference.ReplyAnnouncesEntering}})})
	if err != nil || len(res.Cases) != 1 {
		t.Fatalf("cases %+v, err %v", res.Cases, err)
	}
	c := res.Cases[0]
	if c.Status != report.Failed || !slices.Equal(c.Attributed, attribution.Of(attribution.ObsReply)) {
		t.Fatalf("%s %s attributed to %v, want failed attributed to %v: %s", c.ID, c.Status, c.Attributed, attribution.Of(attribution.ObsReply), c.Message)
	}
}

// A get step that found the pending selection reported as active names
// the row, PEND-7, through the observation it is registered with.
func TestRowErrorNamesItsRow(t *testing.T) {
	err := observing(attribution.ObsGet, rowError{attribution.RowGetActivePending, errors.New("state.active: expected false, got true")})
	if got := stepAttributed(err); !slices.Equal(got, []string{"PEND-7"}) {
		t.Fatalf("stepAttributed = %v", got)
	}
	if got := stepRule(err); got != attribution.RowGetActivePending {
		t.Fatalf("stepRule = %q", got)
	}
}
