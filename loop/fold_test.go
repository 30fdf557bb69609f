package loop

import (
	"encoding/json"
	"testing"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// TestFoldReadsTheDeclaredReadings: the fold the runtime-level invariants
// use reads plan/mode data with no boolean active as the runtime declares
// (plan-mode-malformed): truthy folds its truthiness, keep and the
// default (either, read as keep) leave the state as it was.
func TestFoldReadsTheDeclaredReadings(t *testing.T) {
	event := func(data string) sim.Event {
		return sim.Event{Type: spec.TypePlanMode, Data: json.RawMessage(data)}
	}
	on, empty, yes := event(`{"active":true}`), event(`{}`), event(`{"active":"yes"}`)
	for _, c := range []struct {
		malformed string
		log       []sim.Event
		want      bool
	}{
		{"", []sim.Event{on, empty}, true},
		{spec.PlanModeMalformedKeep, []sim.Event{on, empty}, true},
		{spec.PlanModeMalformedTruthy, []sim.Event{on, empty}, false},
		{"", []sim.Event{yes}, false},
		{spec.PlanModeMalformedTruthy, []sim.Event{yes}, true},
	} {
		reading := spec.PlanModeReadingOf(map[string]string{spec.ChoicePlanModeMalformed: c.malformed})
		if got := Fold(c.log, len(c.log), reading); got != c.want {
			t.Errorf("plan-mode-malformed=%q, log of %d events ending %s: fold %v, want %v", c.malformed, len(c.log), c.log[len(c.log)-1].Data, got, c.want)
		}
	}
}
