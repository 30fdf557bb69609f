package sim

import "github.com/plankit/plankit/spec"

// Start starts port and checks the choices it declares
// (spec.CheckChoices). A refused declaration is an error like a failed
// start, and the started implementation is stopped: it cannot be run
// against the checks.
func Start(port Port) (Identity, error) {
	id, err := port.Start()
	if err != nil {
		return id, err
	}
	if err := spec.CheckChoices(id.Choices); err != nil {
		_ = port.Stop()
		return id, err
	}
	return id, nil
}
