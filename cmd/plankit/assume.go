package main

import (
	"slices"

	"github.com/plankit/plankit/lockstep"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/report"
)

// modelAssumptions gathers the known deviations check and explore assume
// and refuses, naming them, those the properties' model cannot predict,
// and any --assume at runtime level. At runtime level a manifest's assume:
// lines are diff --level runtime's (runtime variants and reference
// variants the built-in runtime follows): they are checked and left to it.
func modelAssumptions(flags []string, m *report.Manifest, runtimeLevel bool) ([]string, error) {
	if runtimeLevel {
		if len(flags) > 0 {
			return nil, usageErr("--assume and assume: lines apply to the plugin level, not to --level runtime")
		}
		_, err := gatherAssumptions(nil, m, lockstep.LookupRuntimeAssumption)
		return nil, err
	}
	out, err := gatherAssumptions(flags, m, func(name string) error {
		_, err := properties.ParseDeviations([]string{name})
		return err
	})
	if err == nil && len(out) > 0 && runtimeLevel {
		return nil, usageErr("--assume and assume: lines apply to the plugin level, not to --level runtime")
	}
	return out, err
}

// gatherAssumptions returns the known deviations a run assumes: --assume,
// then the manifest's assume: lines, each once, in that order. known
// refuses a name the run cannot assume; the error names the flag or the
// manifest line.
func gatherAssumptions(flags []string, m *report.Manifest, known func(string) error) ([]string, error) {
	var out []string
	for _, a := range flags {
		if err := known(a); err != nil {
			return nil, usageErr("--assume: %v", err)
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	if m != nil {
		for _, a := range m.Assume {
			if err := known(a.Name); err != nil {
				return nil, usageErr("%s:%d: assume: %v", m.Path, a.Line, err)
			}
			if !slices.Contains(out, a.Name) {
				out = append(out, a.Name)
			}
		}
	}
	return out, nil
}
