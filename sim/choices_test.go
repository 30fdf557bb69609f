package sim_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
)

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
