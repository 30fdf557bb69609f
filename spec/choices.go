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
	// Followed marks a choice whose default, Either, judges none of its
	// readings by following all of them: a check passes an implementation
	// that leaves the choice undeclared when one of the other values
	// explains everything it did (Readings). Levels names the levels at
	// which the readings part (plugin, runtime); empty: both.
	Followed bool
	Levels   []string
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
	ChoicePlanArgument      = "plan-argument"
	ChoiceUnloadedHeader    = "unloaded-header"
	ChoiceLoggedPending     = "logged-pending"
	ChoiceFaultScope        = "fault-scope"
)

// Either is the default of a followed choice (Choice.Followed): no reading
// is judged, every one passes.
const Either = "either"

// Levels at which a followed choice's readings part (Choice.Levels).
const (
	LevelPlugin  = "plugin"
	LevelRuntime = "runtime"
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
	PlanArgumentTrimmed      = "trimmed"
	PlanArgumentExact        = "exact"
	UnloadedHeaderFold       = "fold"
	UnloadedHeaderShown      = "shown"
	UnloadedHeaderSkipped    = "skipped"
	LoggedPendingKeep        = "keep"
	LoggedPendingClear       = "clear"
	FaultScopePlanMode       = "plan-mode"
	FaultScopeEveryAppend    = "every-append"
)

// Choices is the table of silent-point choices.
var Choices = []Choice{
	{ChoiceFoldEnd, "What `foldPlanMode(events, end)` does with `end` beyond the log or negative.", []Value{
		{FoldEndClamp, "`end` is clamped into [0, len(events)]: beyond the log folds the whole log, negative folds nothing."},
		{FoldEndError, "`end` outside [0, len(events)] is an error."},
		{FoldEndSlice, "As `events.slice(0, end)`: a negative `end` counts from the end of the log (then clamps at 0); beyond the log folds the whole log."},
	}, []string{"LOG-2"}, false, nil},
	{ChoiceCancelPending, "Whether `get` reports `pending` after a `cancelled` selection during an open turn.", []Value{
		{CancelPendingClear, "`cancelled` clears the pending selection: `get` shows no `pending`."},
		{CancelPendingKeepEqual, "`cancelled` keeps a pending entry equal to the logged state until the next pre-step (the published package)."},
	}, []string{"PEND-5", "PEND-7"}, false, nil},
	{ChoiceSectionSource, "Which state the `plan:policy` section of a step being assembled renders.", []Value{
		{SectionSourceLog, "The logged state: the request of an accepted step is derived after the append, from the log."},
		{SectionSourcePending, "The pending selection when there is one, else the logged state (the published package)."},
	}, []string{"CFG-2", "STEP-7", "LOG-3"}, false, nil},
	{ChoiceReloadPending, "Whether a reload of the plan-mode service keeps the pending selections.", []Value{
		{ReloadPendingDrop, "A reload drops pending selections, like a restart."},
		{ReloadPendingKeep, "A reload keeps pending selections; only a process exit loses them."},
	}, []string{"PEND-8"}, false, nil},
	{ChoiceIdleAppendFailure, "What a `set` with no open turn does when its append fails.", []Value{
		{IdleAppendFailureError, "`set` reports an error and nothing changes (the published package)."},
		{IdleAppendFailurePending, "`set` returns `queued` and the selection waits for the next accepted in-turn pre-step."},
	}, []string{"PEND-6", "STEP-5"}, false, nil},
	{ChoicePlanHeading, "What counts as a complete markdown plan starting with a `#` heading.", []Value{
		{PlanHeadingLevel1, "After trimming, the plan starts with a level-1 heading (`# Title`); `## Plan` is rejected (the published package)."},
	}, []string{"EXIT-3"}, false, nil},
	{ChoiceEmptyStep, "What a pre-step does with a pending selection when the downstream decision accepts with no messages and the runtime skips such a step (it does not continue after tool results): a notice in the decision would start a step the selection alone caused (PEND-2).", []Value{
		{EmptyStepKeepPending, "A step that will not run is not an accepted step: nothing is appended and the selection stays pending for the next step that runs, whose request then carries the notice."},
		{EmptyStepInject, "The selection is appended at once and its notice, when due, is injected (queued without waking the agent) for the next step that claims messages, as after an idle commit (under `idle-revert-notice=net` its narration waits for the next accepted pre-step of a step that runs, as an idle commit's does); the decision stays empty, so the step is still skipped."},
	}, []string{"PEND-1", "PEND-2", "STEP-6", "STEP-7"}, false, nil},
	{ChoicePlanModeData, "What the fold reads from a `plan/mode` event (another writer's) whose data has a boolean `active` and other fields besides.", []Value{
		{PlanModeDataFoldActive, "The fold takes its boolean `active` whatever other fields the data has (LOG-2: \"the `active` of the last `plan/mode`\")."},
		{PlanModeDataExact, "Only data that is exactly `{active: boolean}` folds; an event with other fields changes nothing."},
	}, []string{"LOG-1", "LOG-2", "LOG-3"}, false, nil},
	{ChoicePlanModeMalformed, "What the fold does with a `plan/mode` event (another writer's) whose data has no boolean `active`: `{}`, `{active: \"yes\"}`, `null`.", []Value{
		{PlanModeMalformedEither, "Not judged: no check fails an implementation for what such an event does to the state, and the generators do not draw such data (the reference behaves as `keep`)."},
		{PlanModeMalformedKeep, "The event changes nothing: the state stays the `active` of the last `plan/mode` whose data has a boolean `active`."},
		{PlanModeMalformedTruthy, "The state becomes the truthiness of `data.active`, as JavaScript reads it: missing, `null`, `false`, `0` and `\"\"` (and data that is not an object) are off, a non-empty string, a non-zero number, an object or an array is on (the published package)."},
	}, []string{"LOG-1", "LOG-2", "LOG-3"}, false, nil},
	{ChoiceIdleRevertNotice, "Whether the next request carries the notice of a change committed between turns (`set` with no open turn, after a header that showed the other state) when a second idle `set` reverted it before that request: STEP-6 records the first change's notice and none for the revert, while its last sentence tells the model exactly when its context changed.", []Value{
		{IdleRevertNoticeEither, "Not judged: an implementation whose next request carries that notice and one whose request carries none both pass, at the plugin and the runtime level (the reference behaves as `keep`)."},
		{IdleRevertNoticeKeep, "The notice recorded at the idle commit stays and reaches the next request, which then says plan mode was switched though the request shows the state the last header showed (the published package: it hands the notice to the runtime's inbox, `agent.inject`, at the commit)."},
		{IdleRevertNoticeNet, "The next request carries a notice only for the net change since the last header: the narration of an idle commit is deferred to the next accepted in-turn pre-step, which narrates it in that step's messages (STEP-7) only when the logged state then differs from the last header, so a change reverted before the next request is never narrated; the deferred narration is process-local: a restart and an unload lose it, a reload in place keeps it (as the runtime's inbox keeps a notice)."},
	}, []string{"STEP-6", "STEP-7"}, true, nil},
	{ChoicePlanArgument, "Whether the whitespace around `/plan`'s argument belongs to it: is `/plan  off ` the exact argument `off` (CMD-4), and is `/plan   ` bare (CMD-2)?", []Value{
		{Either, "Not judged: an implementation reading the argument trimmed and one reading it as typed both pass, at the plugin and the runtime level (the reference behaves as `trimmed`)."},
		{PlanArgumentTrimmed, "The argument is read without its surrounding whitespace: `/plan  off ` selects inactive, `/plan   ` is bare `/plan`, and a message is steered without its padding (the published package)."},
		{PlanArgumentExact, "The argument is the text after the command's name and the one space that ends it, as typed: `/plan  off ` is a message (` off `), which selects plan mode and is steered as typed; `/plan` and `/plan ` are bare."},
	}, []string{"CMD-2", "CMD-3", "CMD-4"}, true, nil},
	{ChoiceUnloadedHeader, "Which state a `request/header` logged while plan mode was unloaded (no `plan:policy`, no `exit_plan_mode`) described, for STEP-6's \"the last logged request/header described the other state\" once plan mode is loaded again.", []Value{
		{Either, "Not judged: each reading below passes, at the plugin and the runtime level (the reference behaves as `fold`)."},
		{UnloadedHeaderFold, "The state the log folded to when it was logged (LOG-3: the state in force is the fold)."},
		{UnloadedHeaderShown, "The state it showed the model: inactive, since it carried no plan guidance (CFG-2)."},
		{UnloadedHeaderSkipped, "None: plan mode judges by the last header logged while it was composed (one that showed `plan:policy` or offered `exit_plan_mode`)."},
	}, []string{"STEP-6", "SVC-2"}, true, nil},
	{ChoiceLoggedPending, "Whether `get` still reports `pending` for a selection that another writer's `plan/mode` has already logged (PEND-7: \"waiting to be appended\"; LOG-4: it will never be appended).", []Value{
		{Either, "Not judged: both readings pass, at the plugin and the runtime level (the reference behaves as `keep`)."},
		{LoggedPendingKeep, "The selection stays pending until the next accepted in-turn pre-step, which finds it equal to the log and appends nothing."},
		{LoggedPendingClear, "Once the log holds the selected state the selection is no longer waiting: `get` shows no `pending`."},
	}, []string{"PEND-7", "LOG-4"}, true, nil},
	{ChoiceFaultScope, "Whether the runtime protocol's armed append fault (\"the next n attempts to append a plan/mode event to this agent's log fail\") fails an outside writer's `plan/mode` append too, or only plan mode's own (the harness's point, not SPEC.md's).", []Value{
		{Either, "Not judged: both readings pass (the built-in runtime behaves as `plan-mode`)."},
		{FaultScopePlanMode, "Only plan mode's own appends fail; an outside writer's append is logged."},
		{FaultScopeEveryAppend, "Every `plan/mode` append of the agent's log fails while a fault is armed, an outside writer's too (nothing appended)."},
	}, []string{"STEP-5", "LOG-3"}, true, []string{LevelRuntime}},
}

// Readings returns the declarations a check follows for an implementation
// that declared declared, at level: one for each combination of the
// values (Either aside) of the followed choices left undeclared or
// declared Either whose readings part at level, each a whole declaration
// (the declared choices and those values). The first is the reference's
// reading of each (its value after Either); with no such choice it is
// declared itself (a copy).
func Readings(declared map[string]string, level string) []map[string]string {
	out := []map[string]string{maps.Clone(declared)}
	if out[0] == nil {
		out[0] = map[string]string{}
	}
	for _, c := range Choices {
		if !c.Followed || (len(c.Levels) > 0 && !slices.Contains(c.Levels, level)) {
			continue
		}
		if v := declared[c.Name]; v != "" && v != Either {
			continue
		}
		var next []map[string]string
		for _, r := range out {
			for _, v := range c.Values[1:] {
				d := maps.Clone(r)
				d[c.Name] = v.Name
				next = append(next, d)
			}
		}
		out = next
	}
	return out
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
