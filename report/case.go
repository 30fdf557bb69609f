// Package report owns the results of a conformance run: one Case per
// scenario or property, the per-clause table, the expected-failure
// manifest, and the report files (JUnit XML, cucumber JSON, plankit JSON).
package report

// Kinds of check.
const (
	KindScenario = "scenario"
	KindProperty = "property"
	// KindLockstep is a lockstep search (package lockstep).
	KindLockstep = "lockstep"
)

// Statuses of a case after the expected-failure manifest is applied.
// Passed, Failed, ExpectedFailed and UnexpectedPass are judgements of the
// implementation; Skipped, Errored and NotRun are not: the check was not
// judged, and never counts as a failure of its clauses.
const (
	Passed         = "passed"
	Failed         = "failed"
	ExpectedFailed = "expected-failed"
	UnexpectedPass = "unexpected-pass"
	// Skipped: not judged because the check does not apply (a choice the
	// implementation declares differently, a request it does not support).
	Skipped = "skipped"
	// Errored: not judged because the implementation could not be run
	// (it crashed, hung or broke the protocol during the check or before
	// it started), or because the run stopped on an error of its own (a
	// counterexample that could not be written). The message says which.
	Errored = "error"
	// NotRun: not run because the run was interrupted (SIGINT, SIGTERM).
	NotRun = "not-run"
)

// Case is the result of one check: a Gherkin scenario or a property.
type Case struct {
	// ID is stable once published: a scenario's @id tag, a property's name.
	ID      string   `json:"id"`
	Kind    string   `json:"kind"`
	Name    string   `json:"name"`
	Feature string   `json:"feature,omitempty"`
	Clauses []string `json:"clauses"`
	// Attributed are the clauses of the first failing observation of a
	// failing check, when they can be told (empty: its Clauses). The
	// per-clause table counts a failure under these; Clauses, the
	// check's tags, still say what it covers.
	Attributed []string `json:"attributed,omitempty"`
	// Observed is what named a failing check's clauses, when it is known:
	// the observation kind its failing step compared or the ID of the rule
	// that found it (package attribution). A property's message names its
	// first differing observation instead.
	Observed string `json:"observed,omitempty"`
	// Choices are the silent-point choices the check depends on, name=value.
	Choices []string `json:"choices,omitempty"`
	Status  string   `json:"status"`
	// Message explains a failure or skip.
	Message string `json:"message,omitempty"`
	// Counterexample is the path of a trace file that replays a failure.
	Counterexample string `json:"counterexample,omitempty"`
	// Steps are a scenario's steps as they ran (empty for properties).
	Steps []Step `json:"steps,omitempty"`
	// Line is the scenario's (or outline row's) line in its feature file.
	Line int `json:"line,omitempty"`
	// URI is the feature file the scenario comes from.
	URI string `json:"uri,omitempty"`
}

// Step is one Gherkin step of a scenario as it ran.
type Step struct {
	Keyword string `json:"keyword"`
	Text    string `json:"text"`
	Line    int    `json:"line,omitempty"`
	// Status is godog's: passed, failed, skipped, undefined, pending,
	// ambiguous.
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
}

// FailedClauses are the clauses a failure of the case counts under: the
// attributed ones when known, else its tags.
func (c Case) FailedClauses() []string {
	if len(c.Attributed) > 0 {
		return c.Attributed
	}
	return c.Clauses
}

// Failing reports whether the case fails the run.
func (c Case) Failing() bool { return c.Status == Failed || c.Status == UnexpectedPass }

// Judged reports whether the check ran to a judgement of the
// implementation (passed or failed, expected or not).
func (c Case) Judged() bool {
	switch c.Status {
	case Passed, Failed, ExpectedFailed, UnexpectedPass:
		return true
	}
	return false
}
