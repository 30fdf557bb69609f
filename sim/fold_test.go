package sim

import (
	"encoding/json"
	"testing"

	"github.com/plankit/plankit/spec"
)

// TestFoldReadsTheDeclaredReadings: the fold the checks use reads
// plan/mode data with no boolean active as the implementation declares
// (plan-mode-malformed): truthy folds its truthiness, keep and the
// default (either, read as keep) leave the state as it was.
func TestFoldReadsTheDeclaredReadings(t *testing.T) {
	event := func(data string) Event {
		return Event{Type: spec.TypePlanMode, Data: json.RawMessage(data)}
	}
	on, empty, yes := event(`{"active":true}`), event(`{}`), event(`{"active":"yes"}`)
	for _, c := range []struct {
		malformed string
		log       []Event
		want      bool
	}{
		{"", []Event{on, empty}, true},
		{spec.PlanModeMalformedKeep, []Event{on, empty}, true},
		{spec.PlanModeMalformedTruthy, []Event{on, empty}, false},
		{"", []Event{yes}, false},
		{spec.PlanModeMalformedTruthy, []Event{yes}, true},
	} {
		reading := spec.PlanModeReadingOf(map[string]string{spec.ChoicePlanModeMalformed: c.malformed})
		if got := FoldPlanMode(c.log, len(c.log), reading); got != c.want {
			t.Errorf("plan-mode-malformed=%q, log of %d events ending %s: fold %v, want %v", c.malformed, len(c.log), c.log[len(c.log)-1].Data, got, c.want)
		}
	}
}
