package features

import (
	"errors"
)

// observedError is a step's failure that names the observation it
// compared, when the step's text alone does not tell (a step checking
// several things).
type observedError struct {
	observation string
	err         error
}

func (e *observedError) Error() string { return e.err.Error() }
func (e *observedError) Unwrap() error { return e.err }

// clauseError is a step error that knows the clauses of the observation
// it found diverging (the runtime level's findings, loop.Findings); a
// failing scenario counts under those.
type clauseError interface {
	error
	AttributedClauses() []string
}

// stepAttributed is the clauses a failing step's error names, or nil.
func stepAttributed(err error) []string {
	var ce clauseError
	if errors.As(err, &ce) {
		return ce.AttributedClauses()
	}
	return nil
}

// stepObservation is the observation a failing step compared, as the
// attribution table's kinds, when its error names one: a checking step is
// registered with the observation it compares (observes0..2), or names it
// itself when it checks several things. "" leaves the scenario's tags.
func stepObservation(err error) string {
	var oe *observedError
	if errors.As(err, &oe) {
		return oe.observation
	}
	return ""
}

// observing tags a checking step's failure with the observation it
// compared; an error that already names one keeps it.
func observing(observation string, err error) error {
	var oe *observedError
	if err == nil || errors.As(err, &oe) {
		return err
	}
	return &observedError{observation, err}
}

// observes0, observes1 and observes2 register a checking step of no, one
// or two arguments with the observation it compares.
func observes0(observation string, step func() error) func() error {
	return func() error { return observing(observation, step()) }
}

func observes1[A any](observation string, step func(A) error) func(A) error {
	return func(a A) error { return observing(observation, step(a)) }
}

func observes2[A, B any](observation string, step func(A, B) error) func(A, B) error {
	return func(a A, b B) error { return observing(observation, step(a, b)) }
}
