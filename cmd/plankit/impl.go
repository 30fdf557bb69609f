package main

import (
	"strings"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
	"github.com/spf13/cobra"
)

// implFlags pick the implementation under test: the built-in reference
// (optionally one of its mutants or alternative choices).
type implFlags struct {
	mutant  string
	choices []string
}

func (f *implFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.mutant, "mutant", "", "run against a named mutant of the reference (see docs/mutants.md)")
	cmd.Flags().StringArrayVar(&f.choices, "choice", nil, "reference choice for a silent point of the spec, name=value (repeatable)")
}

// factory returns a function that builds a fresh port for each run.
func (f *implFlags) factory() (func() sim.Port, error) {
	opts := reference.Options{}
	if f.mutant != "" {
		m, err := reference.LookupMutant(f.mutant)
		if err != nil {
			return nil, usageErr("%v", err)
		}
		opts.Mutants = reference.Mutants{m.Name}
	}
	if len(f.choices) > 0 {
		m := map[string]string{}
		for _, c := range f.choices {
			name, value, ok := strings.Cut(c, "=")
			if !ok {
				return nil, usageErr("--choice %q: want name=value", c)
			}
			m[name] = value
		}
		ch, err := reference.ParseChoices(m)
		if err != nil {
			return nil, usageErr("--choice: %v", err)
		}
		opts.Choices = ch
	}
	return func() sim.Port { return reference.NewPort(opts) }, nil
}
