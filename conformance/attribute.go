package conformance

import (
	"github.com/plankit/plankit/lockstep"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/sim"
)

// attribute names a failing property's clauses as plankit check and
// explore do, and as a lockstep divergence is named: its sequence is
// replayed beside the reference (the implementation's declared choices,
// the assumed variants), and the first differing observation names the
// clauses (lockstep.Table). The implementation is reached only through
// newPort.
func attribute(assume []string) func(func() sim.Port, properties.Setup, []sim.Action) ([]string, string, error) {
	return func(newPort func() sim.Port, setup properties.Setup, acts []sim.Action) ([]string, string, error) {
		d, err := lockstep.Attribute(newPort, assume, setup, acts)
		if err != nil || d == nil {
			return nil, "", err
		}
		return d.Clauses, d.String(), nil
	}
}

// depart names a failing scenario's cause as plankit check does: its run
// (the runtime options and the actions it played) replayed beside the
// reference, the clauses of the first action that departed from it
// (lockstep.Depart).
func depart(assume []string) func(func() sim.Port, sim.Options, []sim.Action) ([]string, string, error) {
	return func(newPort func() sim.Port, opts sim.Options, acts []sim.Action) ([]string, string, error) {
		d, err := lockstep.Depart(newPort, assume, opts, acts)
		if err != nil || d == nil {
			return nil, "", err
		}
		return d.Clauses, d.String(), nil
	}
}

// runtimeDepart names a failing runtime-level check's cause as plankit
// check does: its script replayed beside the built-in runtime around the
// reference, the clauses of the first step that departed
// (lockstep.RuntimeDepart).
func runtimeDepart(assume []string) func(func() loop.Runtime, loop.Trace) ([]string, string, error) {
	return func(newRuntime func() loop.Runtime, t loop.Trace) ([]string, string, error) {
		d, err := lockstep.RuntimeDepart(newRuntime, assume, t)
		if err != nil || d == nil {
			return nil, "", err
		}
		return d.Clauses, d.String(), nil
	}
}
