package main

import (
	"slices"

	"github.com/plankit/plankit/lockstep"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
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

// departInLockstep names a failing scenario's cause: its run replayed
// beside the reference (the implementation's choices, the assumed
// variants), the clauses of the first action that departed.
func departInLockstep(assume []string) func(func() sim.Port, sim.Options, []sim.Action) ([]string, string, error) {
	return func(newPort func() sim.Port, opts sim.Options, acts []sim.Action) ([]string, string, error) {
		d, err := lockstep.Depart(newPort, assume, opts, acts)
		if err != nil || d == nil {
			return nil, "", err
		}
		return d.Clauses, d.String(), nil
	}
}

// runtimeDepartInLockstep names a failing runtime-level check's cause: its
// script replayed beside the built-in runtime around the reference, the
// clauses of the first step that departed.
func runtimeDepartInLockstep(assume []string) func(func() loop.Runtime, loop.Trace) ([]string, string, error) {
	return func(newRuntime func() loop.Runtime, t loop.Trace) ([]string, string, error) {
		d, err := lockstep.RuntimeDepart(newRuntime, assume, t)
		if err != nil || d == nil {
			return nil, "", err
		}
		return d.Clauses, d.String(), nil
	}
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
