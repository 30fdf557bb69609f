package properties

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/spec"
)

// Choices are the silent-point picks the model honours, read from the
// implementation's declared sim.Identity.Choices. A choice the
// implementation does not declare takes the specification-leaning default
// (the first value listed in docs/properties.md).
type Choices struct {
	FoldEnd           string // clamp | error | slice
	CancelPending     string // clear | keep-equal
	SectionSource     string // log | pending
	ReloadPending     string // drop | keep
	IdleAppendFailure string // error | pending
	EmptyStep         string // keep-pending | inject
	PlanModeData      string // fold-active | exact
	PlanModeMalformed string // either | keep | truthy
	IdleRevertNotice  string // either | keep | net
	PlanArgument      string // either | trimmed | exact
	UnloadedHeader    string // either | fold | shown | skipped
	LoggedPending     string // either | keep | clear
	// Assume is the known deviations the model predicts instead of
	// SPEC.md (none by default).
	Assume Deviations
}

// Deviations are known deviations of an implementation that the model can
// be told to predict, so a run goes on past them to other deviations. Each
// is named like the reference variant that reproduces it (plankit
// mutants), but restated here from its description: the model shares no
// code with the reference.
type Deviations struct {
	// ListenerAppended: the plugin's pre-step listener is registered
	// without prepend, so listeners registered before it wrap it (STEP-1).
	ListenerAppended bool
	// CancelledNarrated: a selection cancelled within a turn and kept as
	// an entry equal to the log (cancel-pending=keep-equal) is narrated at
	// the next accepted pre-step (STEP-6).
	CancelledNarrated bool
	// KeepPlanningKeepsExit: keep planning leaves an earlier approval's
	// pending exit in force (EXIT-6).
	KeepPlanningKeepsExit bool
	// ReplyAnnouncesEntering: every /plan that does not commit announces
	// queued, as does a repeated /plan off while plan mode is logged on
	// (SVC-1).
	ReplyAnnouncesEntering bool
	// NoticeForcesStep: at a step the runtime skips when its decision
	// carries no messages, the plugin appends the selection and adds its
	// notice to the empty decision, so the step runs (PEND-2).
	NoticeForcesStep bool
}

// Assumption is a known deviation the model can predict: its name (as
// plankit mutants lists it), its clause, what it does, and the field of
// Deviations that assumes it.
type Assumption struct {
	Name, Clause, What string
	field              func(*Deviations) *bool
}

// Assumable lists the known deviations the model can predict.
var Assumable = []Assumption{
	{"listener-appended", spec.STEP1, "the pre-step listener is registered without prepend", func(d *Deviations) *bool { return &d.ListenerAppended }},
	{"cancelled-selection-narrated", spec.STEP6, "a selection cancelled within a turn (kept as an entry equal to the log) is narrated at the next accepted pre-step", func(d *Deviations) *bool { return &d.CancelledNarrated }},
	{"keep-planning-keeps-exit", spec.EXIT6, "keep planning leaves an earlier approval's pending exit in force", func(d *Deviations) *bool { return &d.KeepPlanningKeepsExit }},
	{"plan-reply-announces-entering", spec.SVC1, "every /plan that does not commit announces entering plan mode from the next step (queued), as does a repeated in-turn /plan off", func(d *Deviations) *bool { return &d.ReplyAnnouncesEntering }},
	{"notice-forces-step", spec.PEND2, "a pending selection's notice is added to an empty accepted decision the runtime would skip, so the selection starts a step", func(d *Deviations) *bool { return &d.NoticeForcesStep }},
}

// AssumableNames are the names of Assumable, in order, for messages.
func AssumableNames() []string {
	names := make([]string, len(Assumable))
	for i, a := range Assumable {
		names[i] = a.Name
	}
	return names
}

// ParseDeviations reads assumed deviations by name. Names the model cannot
// predict are refused, all of them named in the error.
func ParseDeviations(names []string) (Deviations, error) {
	var d Deviations
	var unknown []string
	for _, n := range names {
		i := slices.IndexFunc(Assumable, func(a Assumption) bool { return a.Name == n })
		switch {
		case i >= 0:
			*Assumable[i].field(&d) = true
		case !slices.Contains(unknown, n):
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		return Deviations{}, fmt.Errorf("the model cannot predict %s; it can assume %s", strings.Join(unknown, ", "), strings.Join(AssumableNames(), ", "))
	}
	return d, nil
}

// Names lists the assumed deviations in Assumable order.
func (d Deviations) Names() []string {
	var out []string
	for _, a := range Assumable {
		if *a.field(&d) {
			out = append(out, a.Name)
		}
	}
	return out
}

// ChoicesOf reads the declared choices, defaulting the missing ones.
func ChoicesOf(declared map[string]string) Choices {
	pick := func(name, def string) string {
		if v := declared[name]; v != "" {
			return v
		}
		return def
	}
	return Choices{
		FoldEnd:           pick(spec.ChoiceFoldEnd, spec.FoldEndClamp),
		CancelPending:     pick(spec.ChoiceCancelPending, spec.CancelPendingClear),
		SectionSource:     pick(spec.ChoiceSectionSource, spec.SectionSourceLog),
		ReloadPending:     pick(spec.ChoiceReloadPending, spec.ReloadPendingDrop),
		IdleAppendFailure: pick(spec.ChoiceIdleAppendFailure, spec.IdleAppendFailureError),
		EmptyStep:         pick(spec.ChoiceEmptyStep, spec.EmptyStepKeepPending),
		PlanModeData:      pick(spec.ChoicePlanModeData, spec.PlanModeDataFoldActive),
		PlanModeMalformed: pick(spec.ChoicePlanModeMalformed, spec.PlanModeMalformedEither),
		IdleRevertNotice:  pick(spec.ChoiceIdleRevertNotice, spec.IdleRevertNoticeEither),
		PlanArgument:      pick(spec.ChoicePlanArgument, spec.Either),
		UnloadedHeader:    pick(spec.ChoiceUnloadedHeader, spec.Either),
		LoggedPending:     pick(spec.ChoiceLoggedPending, spec.Either),
	}
}

// Map is the choices as a declaration (name to value).
func (c Choices) Map() map[string]string {
	return map[string]string{
		spec.ChoiceFoldEnd: c.FoldEnd, spec.ChoiceCancelPending: c.CancelPending,
		spec.ChoiceSectionSource: c.SectionSource, spec.ChoiceReloadPending: c.ReloadPending,
		spec.ChoiceIdleAppendFailure: c.IdleAppendFailure, spec.ChoiceEmptyStep: c.EmptyStep,
		spec.ChoicePlanModeData: c.PlanModeData, spec.ChoicePlanModeMalformed: c.PlanModeMalformed,
		spec.ChoiceIdleRevertNotice: c.IdleRevertNotice, spec.ChoicePlanArgument: c.PlanArgument,
		spec.ChoiceUnloadedHeader: c.UnloadedHeader, spec.ChoiceLoggedPending: c.LoggedPending,
	}
}
