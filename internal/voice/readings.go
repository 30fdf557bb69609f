package voice

import (
	"fmt"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// Reading is a plan mode that follows one reading of the silent point
// idle-revert-notice (Behaves) and declares one (Declares; "": none, the
// default either).
type Reading struct{ Behaves, Declares string }

// IdleRevertReadings are the ones every level's checks are held to: each
// reading undeclared, declared either, declared as followed, and declared
// as the other one.
var IdleRevertReadings = []Reading{
	{spec.IdleRevertNoticeNet, ""},
	{spec.IdleRevertNoticeKeep, ""},
	{spec.IdleRevertNoticeNet, spec.IdleRevertNoticeEither},
	{spec.IdleRevertNoticeNet, spec.IdleRevertNoticeNet},
	{spec.IdleRevertNoticeKeep, spec.IdleRevertNoticeKeep},
	{spec.IdleRevertNoticeNet, spec.IdleRevertNoticeKeep},
	{spec.IdleRevertNoticeKeep, spec.IdleRevertNoticeNet},
}

// Honest reports whether the plan mode declares what it follows, or
// nothing: every check must then pass it.
func (r Reading) Honest() bool {
	return r.Declares == "" || r.Declares == spec.IdleRevertNoticeEither || r.Declares == r.Behaves
}

func (r Reading) String() string {
	return fmt.Sprintf("behaves %s, declares %q", r.Behaves, r.Declares)
}

// Port is the reference following r and declaring it, with the other
// choices ch.
func (r Reading) Port(ch reference.Choices) func() sim.Port {
	ch.IdleRevertNotice = r.Behaves
	return reference.Factory(reference.Options{Choices: ch, Declares: map[string]string{spec.ChoiceIdleRevertNotice: r.Declares}})
}

// Scenario is the status a scenario that depends on the reading value
// (tagged @choice:idle-revert-notice=value) must have against r: skipped
// unless r declares that value, then passed when r follows it and failed
// when it does not.
func (r Reading) Scenario(value string) string {
	switch {
	case r.Declares != value:
		return report.Skipped
	case r.Behaves == value:
		return report.Passed
	}
	return report.Failed
}

// Statuses says what of cases differs from want: a case it names with
// another status, or any other case neither passed nor skipped.
func Statuses(cases []report.Case, want map[string]string) []string {
	var out []string
	for _, k := range cases {
		w, named := want[k.ID]
		switch {
		case named && k.Status != w:
			out = append(out, fmt.Sprintf("%s %s (%s), want %s", k.ID, k.Status, k.Message, w))
		case !named && k.Status != report.Passed && k.Status != report.Skipped:
			out = append(out, fmt.Sprintf("%s %s: %s", k.ID, k.Status, k.Message))
		}
	}
	return out
}
