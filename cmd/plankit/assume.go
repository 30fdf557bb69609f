package main

import (
	"slices"

	"github.com/plankit/plankit/lockstep"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

// modelAssumptions gathers the known deviations check and explore assume
// (--assume, then the manifest's assume: lines, each once) and refuses,
// naming them, those the properties' model cannot predict, and any at
// runtime level. plankit diff, whose reference can follow any variant,
// checks its own.
func modelAssumptions(flags []string, m *report.Manifest, runtimeLevel bool) ([]string, error) {
	var out []string
	add := func(name string) {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	for _, a := range flags {
		add(a)
	}
	if m != nil {
		for _, a := range m.Assume {
			if _, err := properties.ParseDeviations([]string{a.Name}); err != nil {
				return nil, usageErr("%s:%d: assume: %v", m.Path, a.Line, err)
			}
			add(a.Name)
		}
	}
	if _, err := properties.ParseDeviations(out); err != nil {
		return nil, usageErr("--assume: %v", err)
	}
	if len(out) > 0 && runtimeLevel {
		return nil, usageErr("--assume and assume: lines apply to the plugin level, not to --level runtime")
	}
	return out, nil
}

// attributeInLockstep attributes a failing property as lockstep does a
// divergence: its sequence is replayed against the reference (the
// implementation's choices, the assumed variants) and the first differing
// observation names the clauses (lockstep.Table).
func attributeInLockstep(assume []string) func(func() sim.Port, properties.Setup, []sim.Action) ([]string, string, error) {
	return func(newPort func() sim.Port, setup properties.Setup, acts []sim.Action) ([]string, string, error) {
		d, err := lockstep.Attribute(newPort, assume, setup, acts)
		if err != nil || d == nil {
			return nil, "", err
		}
		return d.Clauses, d.String(), nil
	}
}
