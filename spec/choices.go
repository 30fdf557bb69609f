package spec

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Choice is a named pick for a point where SPEC.md is silent. An
// implementation declares its value for each choice at start; checks that
// depend on the pick are tagged with the choice and run only where they
// apply.
type Choice struct {
	Name string
	// Question is the silent point the choice answers, in one line.
	Question string
	// Values are the accepted values, the reference's default first.
	Values []Value
	// Clauses are the clauses whose reading the choice refines.
	Clauses []string
}

// Value is one accepted value of a choice and what it means.
type Value struct {
	Name    string
	Meaning string
}

// Default is the choice's default value, the reference's pick.
func (c Choice) Default() string { return c.Values[0].Name }

// ValueNames returns the choice's values, the default first.
func (c Choice) ValueNames() []string {
	names := make([]string, len(c.Values))
	for i, v := range c.Values {
		names[i] = v.Name
	}
	return names
}

// Choice names.
const (
	ChoiceFoldEnd           = "fold-end"
	ChoiceCancelPending     = "cancel-pending"
	ChoiceSectionSource     = "section-source"
	ChoiceReloadPending     = "reload-pending"
	ChoiceIdleAppendFailure = "idle-append-failure"
	ChoicePlanHeading       = "plan-heading"
	ChoiceEmptyStep         = "empty-step"
	ChoicePlanModeData      = "plan-mode-data"
	ChoicePlanModeMalformed = "plan-mode-malformed"
	ChoiceIdleRevertNotice  = "idle-revert-notice"
)

// Choice values, named <Choice><Value>.
const (
	FoldEndClamp             = "clamp"
	FoldEndError             = "error"
	FoldEndSlice             = "slice"
	CancelPendingClear       = "clear"
	CancelPendingKeepEqual   = "keep-equal"
	SectionSourceLog         = "log"
	SectionSourcePending     = "pending"
	ReloadPendingDrop        = "drop"
	ReloadPendingKeep        = "keep"
	IdleAppendFailureError   = "error"
	IdleAppendFailurePending = "pending"
	PlanHeadingLevel1        = "level-1"
	EmptyStepKeepPending     = "keep-pending"
	EmptyStepInject          = "inject"
	PlanModeDataFoldActive   = "fold-active"
	PlanModeDataExact        = "exact"
	PlanModeMalformedEither  = "either"
	PlanModeMalformedKeep    = "keep"
	PlanModeMalformedTruthy  = "truthy"
	IdleRevertNoticeEither   = "either"
	IdleRevertNoticeKeep     = "keep"
	IdleRevertNoticeNet      = "net"
)

// Choices is the table of silent-point choices.
var Choices = []Choice{
	{ChoiceFoldEnd, "What `foldPlanMode(events, end)` does with `end` beyond the log or negative.", []Value{
		{FoldEndClamp, "`end` is clamped into [0, len(events)]: beyond the log folds the whole log, negative folds nothing."},
		{FoldEndError, "`end` outside [0, len(events)] is an error."},
		{FoldEndSlice, "As `events.slice(0, end)`: a negative `end` counts from the end of the log (then clamps at 0); beyond the log folds the whole log."},
	}, []string{"LOG-2"}},
	{ChoiceCancelPending, "Whether `get` reports `pending` after a `cancelled` selection during an open turn.", []Value{
		{CancelPendingClear, "`cancelled` clears the pending selection: `get` shows no `pending`."},
		{CancelPendingKeepEqual, "`cancelled` keeps a pending entry equal to the logged state until the next pre-step (the published package)."},
	}, []string{"PEND-5", "PEND-7"}},
	{ChoiceSectionSource, "Which state the `plan:policy` section of a step being assembled renders.", []Value{
		{SectionSourceLog, "The logged state: the request of an accepted step is derived after the append, from the log."},
		{SectionSourcePending, "The pending selection when there is one, else the logged state (the published package)."},
	}, []string{"CFG-2", "STEP-7", "LOG-3"}},
	{ChoiceReloadPending, "Whether a reload of the plan-mode service keeps the pending selections.", []Value{
		{ReloadPendingDrop, "A reload drops pending selections, like a restart."},
		{ReloadPendingKeep, "A reload keeps pending selections; only a process exit loses them."},
	}, []string{"PEND-8"}},
	{ChoiceIdleAppendFailure, "What a `set` with no open turn does when its append fails.", []Value{
		{IdleAppendFailureError, "`set` reports an error and nothing changes (the published package)."},
		{IdleAppendFailurePending, "`set` returns `queued` and the selection waits for the next accepted in-turn pre-step."},
	}, []string{"PEND-6", "STEP-5"}},
	{ChoicePlanHeading, "What counts as a complete markdown plan starting with a `#` heading.", []Value{
		{PlanHeadingLevel1, "After trimming, the plan starts with a level-1 heading (`# Title`); `## Plan` is rejected (the published package)."},
	}, []string{"EXIT-3"}},
	{ChoiceEmptyStep, "What a pre-step does with a pending selection when the downstream decision accepts with no messages and the runtime skips such a step (it does not continue after tool results): a notice in the decision would start a step the selection alone caused (PEND-2).", []Value{
		{EmptyStepKeepPending, "A step that will not run is not an accepted step: nothing is appended and the selection stays pending for the next step that runs, whose request then carries the notice."},
		{EmptyStepInject, "The selection is appended at once and its notice, when due, is injected (queued without waking the agent) for the next step that claims messages, as after an idle commit (under `idle-revert-notice=net` its narration waits for the next accepted pre-step of a step that runs, as an idle commit's does); the decision stays empty, so the step is still skipped."},
	}, []string{"PEND-1", "PEND-2", "STEP-6", "STEP-7"}},
	{ChoicePlanModeData, "What the fold reads from a `plan/mode` event (another writer's) whose data has a boolean `active` and other fields besides.", []Value{
		{PlanModeDataFoldActive, "The fold takes its boolean `active` whatever other fields the data has (LOG-2: \"the `active` of the last `plan/mode`\")."},
		{PlanModeDataExact, "Only data that is exactly `{active: boolean}` folds; an event with other fields changes nothing."},
	}, []string{"LOG-1", "LOG-2", "LOG-3"}},
	{ChoicePlanModeMalformed, "What the fold does with a `plan/mode` event (another writer's) whose data has no boolean `active`: `{}`, `{active: \"yes\"}`, `null`.", []Value{
		{PlanModeMalformedEither, "Not judged: no check fails an implementation for what such an event does to the state, and the generators do not draw such data (the reference behaves as `keep`)."},
		{PlanModeMalformedKeep, "The event changes nothing: the state stays the `active` of the last `plan/mode` whose data has a boolean `active`."},
		{PlanModeMalformedTruthy, "The state becomes the truthiness of `data.active`, as JavaScript reads it: missing, `null`, `false`, `0` and `\"\"` (and data that is not an object) are off, a non-empty string, a non-zero number, an object or an array is on (the published package)."},
	}, []string{"LOG-1", "LOG-2", "LOG-3"}},
	{ChoiceIdleRevertNotice, "Whether the next request carries the notice of a change committed between turns (`set` with no open turn, after a header that showed the other state) when a second idle `set` reverted it before that request: STEP-6 records the first change's notice and none for the revert, while its last sentence tells the model exactly when its context changed.", []Value{
		{IdleRevertNoticeEither, "Not judged: an implementation whose next request carries that notice and one whose request carries none both pass, at the plugin and the runtime level (the reference behaves as `keep`)."},
		{IdleRevertNoticeKeep, "The notice recorded at the idle commit stays and reaches the next request, which then says plan mode was switched though the request shows the state the last header showed (the published package: it hands the notice to the runtime's inbox, `agent.inject`, at the commit)."},
		{IdleRevertNoticeNet, "The next request carries a notice only for the net change since the last header: the narration of an idle commit is deferred to the next accepted in-turn pre-step, which narrates it in that step's messages (STEP-7) only when the logged state then differs from the last header, so a change reverted before the next request is never narrated; the deferred narration is process-local: a restart and an unload lose it, a reload in place keeps it (as the runtime's inbox keeps a notice)."},
	}, []string{"STEP-6", "STEP-7"}},
}

// LookupChoice returns the choice with the given name.
func LookupChoice(name string) (Choice, bool) {
	i := slices.IndexFunc(Choices, func(c Choice) bool { return c.Name == name })
	if i < 0 {
		return Choice{}, false
	}
	return Choices[i], true
}

// Accepts reports whether value is one of the choice's values.
func (c Choice) Accepts(value string) bool {
	return slices.ContainsFunc(c.Values, func(v Value) bool { return v.Name == value })
}

// CheckChoices refuses declared choices plankit does not know: a name that
// is not in Choices, or a value its choice does not have. Every suite checks
// the choices an implementation declares at start with it, so a declaration
// no check can honour stops the run instead of being skipped by some checks
// and judged under another reading by others. The error names the choice and
// the known names or values.
func CheckChoices(declared map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(declared)) {
		v := declared[name]
		c, ok := LookupChoice(name)
		if !ok {
			known := make([]string, len(Choices))
			for i, c := range Choices {
				known[i] = c.Name
			}
			slices.Sort(known)
			return fmt.Errorf("the implementation declares choice %q, which plankit does not know (known choices: %s)", name, strings.Join(known, ", "))
		}
		if !c.Accepts(v) {
			return fmt.Errorf("the implementation declares %s=%q, a value plankit does not know for choice %s (known values: %s)", name, v, name, strings.Join(c.ValueNames(), ", "))
		}
	}
	return nil
}

// level1Heading is a level-1 markdown heading at the start of a text.
var level1Heading = regexp.MustCompile(`^#\s+\S`)

// PlanOpensWithLevel1Heading reports whether a plan, after trimming, opens
// with a level-1 markdown heading: a complete plan under plan-heading=level-1
// (EXIT-3).
func PlanOpensWithLevel1Heading(plan string) bool {
	return level1Heading.MatchString(strings.TrimSpace(plan))
}
