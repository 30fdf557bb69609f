package reference

import (
	"testing"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// openTurn is the plain open-turn fold, kept for tests of the cache.
func openTurn(events []sim.Event) bool {
	open := false
	for _, e := range events {
		switch e.Type {
		case spec.TypeTurnStart:
			open = true
		case spec.TypeTurnEnd:
			open = false
		}
	}
	return open
}

// stateAtLastHeader is the plain fold at the last request header, kept for
// tests of the cache.
func stateAtLastHeader(events []sim.Event) *bool {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == spec.TypeRequestHeader {
			v := FoldPlanMode(events, i+1)
			return &v
		}
	}
	return nil
}

// SliceEnd is events.slice(0, end)'s end: negative from the end, clamped.
func TestSliceEnd(t *testing.T) {
	for _, c := range [][3]int{{2, 5, 2}, {-1, 5, 4}, {-9, 5, 0}, {9, 5, 5}, {0, 0, 0}} {
		if got := SliceEnd(c[0], c[1]); got != c[2] {
			t.Errorf("SliceEnd(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}
