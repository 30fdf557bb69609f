package features

import (
	"errors"
	"regexp"

	"github.com/plankit/plankit/attribution"
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

// stepObservations names the observation each checking step compares, as
// the attribution table's kinds, so a failing scenario counts under the
// clauses of that observation (first match wins). A step not listed
// leaves the scenario's tags.
var stepObservations = []struct {
	step        *regexp.Regexp
	observation string
}{
	{regexp.MustCompile(`^get (of "[^"]*" )?reports `), attribution.ObsGet},
	{regexp.MustCompile(`^the log (of "[^"]*" )?folds to `), attribution.ObsFold},
	{regexp.MustCompile(`^foldPlanMode (returns|reports)`), attribution.ObsFold},
	{regexp.MustCompile(`^the step carries .* plan-mode notices?$`), attribution.ObsNotices},
	{regexp.MustCompile(`^the request renders the plan:policy section|^the request has no plan:policy section$|^the request shows plan mode`), attribution.ObsRequest},
	{regexp.MustCompile(`^the plugin's listener is registered with prepend$|^the plugin saw the message "[^"]*" in the downstream decision$`), attribution.ObsListener},
	{regexp.MustCompile(`^the reply announces `), attribution.ObsReply},
	{regexp.MustCompile(`^exit_plan_mode |^call \d+ of the batch |^the plan is (not )?presented for review`), attribution.ObsTool},
}

// stepObservation is the observation a failing step compared: the one its
// error names, else the one its text declares ("" when not told).
func stepObservation(text string, err error) string {
	var oe *observedError
	if errors.As(err, &oe) {
		return oe.observation
	}
	for _, s := range stepObservations {
		if s.step.MatchString(text) {
			return s.observation
		}
	}
	return ""
}
