package features

import (
	"encoding/json"
	"errors"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/spec"
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

// ruleError is a step error that knows the rule or observation kind that
// named its clauses (the runtime level's findings).
type ruleError interface {
	error
	AttributedRule() string
}

// stepRule is the rule or observation a failing step's error names, or "".
func stepRule(err error) string {
	var re ruleError
	if errors.As(err, &re) {
		return re.AttributedRule()
	}
	return ""
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

// seamError is an exit-tool check that failed because the call never
// reached the review seam although the scenario composed one and scripted
// the user's answer: whatever the call then returned, the one cause is the
// plan not being presented for review (EXIT-4), so a package whose review
// service is missing reads as that, not as a failure of every clause a
// review decides (EXIT-2, EXIT-5..7).
type seamError struct{ err error }

func (e seamError) Error() string          { return e.err.Error() }
func (e seamError) Unwrap() error          { return e.err }
func (e seamError) AttributedRule() string { return attribution.ExpPresented }
func (e seamError) AttributedClauses() []string {
	return attribution.Attribute(attribution.ExpPresented, nil)
}

// rowError is a checking step's failure that one row of the attribution
// table names, decided by what the implementation returned.
type rowError struct {
	row string
	err error
}

func (e rowError) Error() string               { return e.err.Error() }
func (e rowError) Unwrap() error               { return e.err }
func (e rowError) AttributedRule() string      { return e.row }
func (e rowError) AttributedClauses() []string { return attribution.Row(e.row) }

// unpresented reports whether the last action called exit_plan_mode with
// a complete plan and a scripted review answer, a user-questions channel
// composed, and the call was not presented for review.
func (w *world) unpresented() bool {
	if !w.opts.Services.UserQuestions || w.last.Action.Step == nil || w.last.Action.Step.Model == nil {
		return false
	}
	calls := w.last.Action.Step.Model.Calls
	for i, t := range w.last.Tools {
		if i >= len(calls) || t.Name != spec.ExitTool || t.Asked || calls[i].Review == nil {
			continue
		}
		var args struct {
			Plan string `json:"plan"`
		}
		if json.Unmarshal(calls[i].Args, &args) == nil && spec.PlanOpensWithLevel1Heading(args.Plan) {
			return true
		}
	}
	return false
}

// seam0..seam2 name an exit-tool check's failure by the review seam when
// the call never reached it (seamError).
func seam0(w *world, step func() error) func() error {
	return func() error { return w.seamed(step()) }
}

func seam1[A any](w *world, step func(A) error) func(A) error {
	return func(a A) error { return w.seamed(step(a)) }
}

func seam2[A, B any](w *world, step func(A, B) error) func(A, B) error {
	return func(a A, b B) error { return w.seamed(step(a, b)) }
}

func (w *world) seamed(err error) error {
	if err != nil && w.unpresented() {
		return seamError{err}
	}
	return err
}
