package conformance

import (
	"fmt"
	"maps"
	"slices"

	"github.com/plankit/plankit/sim"
)

// withChoices wraps newPort so that Start declares the given picks for
// the silent points the implementation leaves undeclared.
func withChoices(newPort func() sim.Port, choices map[string]string) func() sim.Port {
	if len(choices) == 0 {
		return newPort
	}
	return func() sim.Port { return choicePort{newPort(), choices} }
}

type choicePort struct {
	sim.Port
	choices map[string]string
}

// StopForRestart passes the restart on, so the port underneath can keep
// its process (sim.Restarter).
func (p choicePort) StopForRestart() error {
	if rs, ok := p.Port.(sim.Restarter); ok {
		return rs.StopForRestart()
	}
	return p.Port.Stop()
}

func (p choicePort) Start() (sim.Identity, error) {
	id, err := p.Port.Start()
	return fill(id, p.choices), err
}

// fill adds to id the picks it does not declare.
func fill(id sim.Identity, choices map[string]string) sim.Identity {
	if len(choices) == 0 {
		return id
	}
	declared := maps.Clone(id.Choices)
	if declared == nil {
		declared = map[string]string{}
	}
	for name, v := range choices {
		if _, ok := declared[name]; !ok {
			declared[name] = v
		}
	}
	id.Choices = declared
	return id
}

// conflicts reports a pick given in Options.Choices that the
// implementation declares otherwise.
func conflicts(declared sim.Identity, choices map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(choices)) {
		if v, ok := declared.Choices[name]; ok && v != choices[name] {
			return fmt.Errorf("choice %s: the implementation declares %q, the options say %q", name, v, choices[name])
		}
	}
	return nil
}
