package sim_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
)

func TestCheckChoices(t *testing.T) {
	for _, tc := range []struct {
		declared map[string]string
		want     string // "" for accepted
	}{
		{nil, ""},
		{map[string]string{"fold-end": "slice", "plan-heading": "level-1"}, ""},
		{map[string]string{"fold-end": "wrap"}, `fold-end="wrap"`},
		{map[string]string{"fold-end": ""}, "known values: clamp, error, slice"},
		{map[string]string{"cancel-pending": "clear", "section-order": "50"}, `choice "section-order", which plankit does not know (known choices: cancel-pending, fold-end, idle-append-failure, plan-heading, reload-pending, section-source)`},
	} {
		err := sim.CheckChoices(tc.declared)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckChoices(%v) = %v, want %q", tc.declared, err, tc.want)
		}
	}
}

// declaring is the reference declaring a choice value plankit does not know.
type declaring struct {
	*reference.Port
	stopped *bool
}

func (d declaring) Start() (sim.Identity, error) {
	id, err := d.Port.Start()
	id.Choices["fold-end"] = "wrap"
	return id, err
}

func (d declaring) Stop() error { *d.stopped = true; return d.Port.Stop() }

// The runtime refuses the declaration at start as an implementation error,
// and ends the implementation it started.
func TestRuntimeRefusesUnknownChoice(t *testing.T) {
	stopped := false
	_, _, err := sim.New(declaring{reference.NewPort(reference.Options{}), &stopped}, sim.Options{Config: sim.JSON(map[string]string{"section": "Plan first."}), Agents: []string{"main"}})
	var ie *sim.ImplError
	if !errors.As(err, &ie) || ie.Op != "start" || !strings.Contains(err.Error(), "known values: clamp, error, slice") {
		t.Fatalf("err = %v, want a start ImplError naming the known values", err)
	}
	if !stopped {
		t.Fatal("the refused implementation was not stopped")
	}
}
