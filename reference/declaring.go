package reference

import (
	"maps"

	"github.com/plankit/plankit/sim"
)

// Declaring is p declaring value for choice at start, whatever p follows
// (value "": no declaration of that choice). Tests build with it an
// implementation that declares another reading than the one it takes, or
// none, to show a check holding an implementation to its declaration and
// judging neither reading of an undeclared silent point.
func Declaring(p sim.Port, choice, value string) sim.Port {
	return declaring{Port: p, choice: choice, value: value}
}

type declaring struct {
	sim.Port
	choice, value string
}

func (p declaring) Start() (sim.Identity, error) {
	id, err := p.Port.Start()
	id.Choices = maps.Clone(id.Choices)
	if p.value == "" {
		delete(id.Choices, p.choice)
	} else {
		if id.Choices == nil {
			id.Choices = map[string]string{}
		}
		id.Choices[p.choice] = p.value
	}
	return id, err
}
