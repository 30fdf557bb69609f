package conformance

import (
	"github.com/plankit/plankit/lockstep"
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
