package attribution

import (
	"fmt"
	"slices"
	"strings"
)

// Check is one rule that judges a recording by itself — a lint rule over a
// session log, an invariant every runtime-level session keeps, or what a
// runtime-level expectation compares — with its ID (reports carry it) and
// the clauses a failure of it names, most specific first. Table's rows are
// the observations lockstep compares against the reference; Checks are the
// rules that need no reference. Both are the one place a failure finds
// its clauses.
type Check struct {
	ID      string
	Clauses []string
	// What the rule holds, in SPEC.md's terms.
	What string
}

// Lint rules (package lint), one per finding it reports.
const (
	LintHeaderMissing     = "lint/header-missing"
	LintRejectedAppends   = "lint/rejected-step-appends"
	LintAppendNotPending  = "lint/append-after-last-step"
	LintPlanModeShape     = "lint/plan-mode-shape"
	LintAppendBeforeStart = "lint/append-inside-step-start"
	LintExitAtOnce        = "lint/approved-exit-at-once"
	LintAppendMidStep     = "lint/append-mid-step"
	LintRepeatedValue     = "lint/repeated-value"
	LintSectionOrder      = "lint/section-order"
	LintHeaderBeforeApply = "lint/header-before-append"
	LintSectionVsLog      = "lint/section-disagrees-with-log"
	LintCatalogFlips      = "lint/catalog-changes-with-state"
	LintNotSteered        = "lint/message-not-steered"
	LintSecondNotice      = "lint/second-notice"
	LintNoticeNoChange    = "lint/notice-without-change"
	LintRetryUnshown      = "lint/retry-append-unshown"
	LintExitOutsidePlan   = "lint/exit-outside-plan-mode"
	LintExitNoHeading     = "lint/exit-plan-without-heading"
	LintPlanInTranscript  = "lint/plan-mode-in-transcript"
)

// Runtime-level invariants (package loop), which every observed session
// keeps whatever its script.
const (
	InvGetIsFold             = "invariant/get-is-the-fold"
	InvHostTools             = "invariant/host-tools-kept"
	InvUnloadedSection       = "invariant/unloaded-no-section"
	InvUnloadedTool          = "invariant/unloaded-no-tool"
	InvUnloadedAppend        = "invariant/unloaded-no-append"
	InvUnloadedNotice        = "invariant/unloaded-no-notice"
	InvUnloadedCommand       = "invariant/unloaded-no-command"
	InvSectionIsLog          = "invariant/section-is-the-log"
	InvSectionText           = "invariant/section-text"
	InvSectionOrder          = "invariant/section-order"
	InvExitToolOnce          = "invariant/exit-tool-once"
	InvCatalogFixed          = "invariant/catalog-fixed-across-flips"
	InvNoticeInRequest       = "invariant/notice-in-next-request"
	InvPlanModeNotInMessages = "invariant/plan-mode-not-in-messages"
	InvLogUnreadable         = "invariant/log-readable"
	InvSelectionNoStep       = "invariant/selection-starts-nothing"
	// The rules of loop/rules.go: sets between turns, gets after a fresh
	// start, exit tool calls, selections within one run of host code.
	InvIdleSetEqualCommitted = "invariant/idle-set-committed-equal"
	InvIdleSetAppendsOnce    = "invariant/idle-set-appends-once"
	InvIdleSetCancelWrong    = "invariant/idle-set-cancelled-wrong-state"
	InvIdleSetNoAppend       = "invariant/idle-set-appends-nothing"
	InvIdleSetQueued         = "invariant/idle-set-queued"
	InvSetOutcomeKnown       = "invariant/set-outcome-known"
	InvFreshNothingPending   = "invariant/nothing-pending-after-restart"
	InvExitUnpresented       = "invariant/exit-refused-unpresented"
	InvExitApprovedResult    = "invariant/exit-approved-result"
	InvExitAsked             = "invariant/exit-asked-the-user"
	InvExitFeedback          = "invariant/exit-keeps-planning-with-feedback"
	InvStreamGetActive       = "invariant/stream-get-active"
	InvStreamGetPending      = "invariant/stream-get-pending"
	InvStreamSetQueued       = "invariant/stream-set-queued"
	InvStreamSetNoop         = "invariant/stream-set-noop"
	InvStreamSetCancelled    = "invariant/stream-set-cancelled"
	InvExitOutside           = "invariant/exit-outside-plan-mode"
	InvExitHeading           = "invariant/exit-plan-heading"
	InvExitNoChannel         = "invariant/exit-no-channel"
	InvExitReload            = "invariant/exit-reload-during-review"
	InvExitDismissed         = "invariant/exit-dismissed"
	InvExitApproved          = "invariant/exit-approved"
	InvExitNotApproved       = "invariant/exit-not-approved"
)

// What a runtime-level expectation compares, where the comparison itself
// names the clause (the other comparisons name an observation kind, whose
// clauses the scenario's tags narrow: ForScenario).
const (
	ExpNoop               = "expect/outcome-noop"
	ExpQueued             = "expect/outcome-queued"
	ExpCancelled          = "expect/outcome-cancelled"
	ExpCommitted          = "expect/outcome-committed"
	ExpPendingHidden      = "expect/pending-hidden"
	ExpNoticeInReq        = "expect/notice-in-request"
	ExpRequestAfterAppend = "expect/request-after-append"
	ExpToolsOffered       = "expect/tool-offered"
	ExpPresented          = "expect/plan-presented"
	ExpNoChannel          = "expect/no-channel"
	// ExpNotBlocked: what a trace scripts did not happen because a step was
	// rejected that no host listener of the script rejects.
	ExpNotBlocked = "expect/step-not-blocked"
	// ExpHostToolRuns: a call of a host tool, and the host code it runs.
	ExpHostToolRuns = "expect/host-tool-runs"
)

// Checks is the table of rules, in the order their IDs are declared.
var Checks = []Check{
	{LintHeaderMissing, []string{"STEP-6"}, "a step that appended plan/mode and sent its request logs its request header, which notices are judged by"},
	{LintRejectedAppends, []string{"STEP-3"}, "a pre-step whose step sent no request (rejected, aborted) appended nothing"},
	{LintAppendNotPending, []string{"PEND-1"}, "a selection made after a turn's last step stays pending: no plan/mode is appended with no accepted pre-step after it"},
	{LintPlanModeShape, []string{"LOG-1"}, "plan/mode data is exactly {active: boolean}"},
	{LintAppendBeforeStart, []string{"STEP-1"}, "inside a turn only the pre-step listener appends, before its step starts"},
	{LintExitAtOnce, []string{"EXIT-5"}, "an approved exit is recorded pending and appended at the next accepted in-turn pre-step, not during the exit tool's call"},
	{LintAppendMidStep, []string{"PEND-1"}, "during an open turn a selection stays pending until the next accepted in-turn pre-step appends it, not while a step runs"},
	{LintRepeatedValue, []string{"LOG-4"}, "every committed change is exactly one plan/mode; nothing else is appended"},
	{LintSectionOrder, []string{"CFG-2"}, "plan:policy renders at order 50"},
	{LintHeaderBeforeApply, []string{"STEP-7"}, "the request of the step whose pre-step appended reflects the append"},
	{LintSectionVsLog, []string{"CFG-2"}, "plan:policy renders exactly while the log says plan mode is active"},
	{LintCatalogFlips, []string{"EXIT-1"}, "exit_plan_mode is listed whether or not plan mode is active"},
	{LintNotSteered, []string{"CMD-3"}, "/plan <message> steers its message into the next request"},
	{LintSecondNotice, []string{"STEP-6"}, "at most one notice per change"},
	{LintNoticeNoChange, []string{"STEP-6"}, "a notice narrates a change the last request header did not show"},
	{LintRetryUnshown, []string{"STEP-7"}, "a retry's pre-step append is reflected by the request the retry sends"},
	{LintExitOutsidePlan, []string{"EXIT-2"}, "exit_plan_mode fails outside plan mode"},
	{LintExitNoHeading, []string{"EXIT-3"}, "exit_plan_mode fails for a plan without a # heading"},
	{LintPlanInTranscript, []string{"LOG-1"}, "plan/mode never appears in the model's messages"},

	{InvGetIsFold, []string{"LOG-3"}, "get's active is the fold of the log"},
	{InvHostTools, []string{"EXIT-1", "SVC-3"}, "the catalog carries the host's tools in the host's order"},
	{InvUnloadedSection, []string{"SVC-2"}, "without plan mode no plan:policy is rendered"},
	{InvUnloadedTool, []string{"SVC-2"}, "without plan mode no exit_plan_mode is offered"},
	{InvUnloadedAppend, []string{"SVC-2"}, "without plan mode no plan/mode is appended"},
	{InvUnloadedNotice, []string{"SVC-2"}, "without plan mode no plan-mode notice is logged"},
	{InvUnloadedCommand, []string{"SVC-2"}, "without plan mode /plan is an unknown command"},
	{InvSectionIsLog, []string{"STEP-7"}, "each request's plan:policy agrees with the log when it was sent"},
	{InvSectionText, []string{"CFG-2"}, "plan:policy is the configured section text"},
	{InvSectionOrder, []string{"CFG-2"}, "plan:policy renders at order 50"},
	{InvExitToolOnce, []string{"EXIT-1"}, "every request offers exit_plan_mode exactly once"},
	{InvCatalogFixed, []string{"EXIT-1"}, "entering or leaving plan mode never changes the catalog"},
	{InvNoticeInRequest, []string{"STEP-7"}, "a logged notice is one of the next request's messages"},
	{InvPlanModeNotInMessages, []string{"LOG-1"}, "no plan/mode is rendered into a request's messages"},
	{InvLogUnreadable, []string{"LOG-1"}, "the observed log is readable as session events"},
	{InvSelectionNoStep, []string{"PEND-2"}, "a selection starts no step and no turn"},
	{InvIdleSetEqualCommitted, []string{"PEND-3"}, "a set between turns that selects the logged state (or cancels) does not commit"},
	{InvIdleSetAppendsOnce, []string{"LOG-4"}, "a committed set between turns appends exactly one plan/mode with the selected value"},
	{InvIdleSetCancelWrong, []string{"PEND-5"}, "only a set back to the logged state cancels"},
	{InvIdleSetNoAppend, []string{"PEND-3"}, "a set that is a noop or cancels appends nothing"},
	{InvIdleSetQueued, []string{"PEND-6"}, "a set with no open turn commits at once (queues only under idle-append-failure=pending, appending nothing)"},
	{InvSetOutcomeKnown, []string{"SVC-1"}, "set returns committed, queued, cancelled or noop"},
	{InvFreshNothingPending, []string{"PEND-8"}, "right after a restart (or a reload that drops pending selections) nothing is pending"},
	{InvExitUnpresented, []string{"EXIT-2"}, "in plan mode exit_plan_mode with a valid plan is presented for review, not refused"},
	{InvExitApprovedResult, []string{"EXIT-5"}, "an approved exit's result reports approved"},
	{InvExitAsked, []string{"EXIT-4"}, "exit_plan_mode asks the user exactly when it presents a plan for review"},
	{InvExitFeedback, []string{"EXIT-6"}, "keep planning fails the call carrying the user's feedback"},
	{InvStreamGetActive, []string{"PEND-7"}, "get's active is the logged state while no step ran since it was shown"},
	{InvStreamGetPending, []string{"PEND-7"}, "get's pending is the selection the sets before it leave pending"},
	{InvStreamSetQueued, []string{"PEND-4"}, "during an open turn a set to another state than the logged one queues"},
	{InvStreamSetNoop, []string{"PEND-3"}, "a set to the pending state, or the logged one with none pending, is a noop"},
	{InvStreamSetCancelled, []string{"PEND-5"}, "during an open turn a set back to the logged state with the opposite pending cancels"},
	{InvExitOutside, []string{"EXIT-2"}, "exit_plan_mode fails outside plan mode"},
	{InvExitHeading, []string{"EXIT-3"}, "exit_plan_mode fails on a plan that does not open with a # heading"},
	{InvExitNoChannel, []string{"EXIT-7"}, "exit_plan_mode fails with no interaction channel"},
	{InvExitReload, []string{"EXIT-7"}, "a reload while the review is open fails the call"},
	{InvExitDismissed, []string{"EXIT-7"}, "a dismissed review fails the call; plan mode is never left implicitly"},
	{InvExitApproved, []string{"EXIT-5"}, "an approval alone succeeds"},
	{InvExitNotApproved, []string{"EXIT-6"}, "keep planning (or feedback with the approval) fails the call"},

	{ExpNoop, []string{"PEND-3"}, "set returns noop when it selects the current or pending state"},
	{ExpQueued, []string{"PEND-4"}, "set during an open turn queues a change"},
	{ExpCancelled, []string{"PEND-5", "PEND-6"}, "set back to the logged state cancels the opposite pending selection"},
	{ExpCommitted, []string{"PEND-6"}, "set with no open turn commits at once"},
	{ExpPendingHidden, []string{"PEND-7"}, "get reports pending exactly when a selection waits"},
	{ExpNoticeInReq, []string{"STEP-7"}, "the notice is part of the messages of the step that appended"},
	{ExpRequestAfterAppend, []string{"STEP-7"}, "the request of the step whose pre-step appended is derived after the append, so it shows the new state"},
	{ExpToolsOffered, []string{"EXIT-1"}, "exit_plan_mode is offered whether or not plan mode is active"},
	{ExpPresented, []string{"EXIT-4"}, "exit_plan_mode presents the plan for review through the user-questions seam"},
	{ExpNoChannel, []string{"EXIT-7"}, "with no interaction channel the exit tool fails"},
	{ExpHostToolRuns, []string{"SVC-3"}, "a call of a tool of the host's own runs as the host runs it, in plan mode or not: plan mode only guides"},
	{ExpNotBlocked, []string{"SVC-3", "STEP-5"}, "plan mode never rejects a step: it only guides (SVC-3), and a failed append does not block the turn (STEP-5); a step the script's host listeners accept is not blocked"},
}

// CheckOf returns the rule with the given ID.
func CheckOf(id string) (Check, bool) {
	i := slices.IndexFunc(Checks, func(c Check) bool { return c.ID == id })
	if i < 0 {
		return Check{}, false
	}
	return Checks[i], true
}

// Clause is the first clause of a rule: the one a finding of it is listed
// under. An unknown ID is a programming error.
func Clause(id string) string {
	c, ok := CheckOf(id)
	if !ok {
		panic("attribution: unknown check " + id)
	}
	return c.Clauses[0]
}

// Attribute names the clauses of a failure that a rule or an observation
// kind found, in a check tagged with tags: a rule's clauses narrowed to
// those the check is tagged with (all of them when none is, since the
// rule names what broke); an observation kind's as ForScenario says; the
// tags for anything else.
func Attribute(id string, tags []string) []string {
	if c, ok := CheckOf(id); ok {
		if len(c.Clauses) == 1 {
			return slices.Clone(c.Clauses)
		}
		var out []string
		for _, cl := range c.Clauses {
			if slices.Contains(tags, cl) {
				out = append(out, cl)
			}
		}
		if len(out) == 0 {
			return []string{c.Clauses[0]}
		}
		return out
	}
	if len(Of(id)) > 0 {
		return ForScenario(id, tags)
	}
	return slices.Clone(tags)
}

// ChecksMarkdown is the table of the rules whose IDs start with prefix
// ("lint/", "invariant/", "expect/"): each rule's ID, its clauses and what
// it holds, in declaration order. Pages paste it between generated markers.
func ChecksMarkdown(prefix string) string {
	var b strings.Builder
	b.WriteString("| rule | clauses | what it holds |\n|---|---|---|\n")
	for _, c := range Checks {
		if strings.HasPrefix(c.ID, prefix) {
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.ID, strings.Join(c.Clauses, ", "), c.What)
		}
	}
	return b.String()
}
