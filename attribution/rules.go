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
	// Rests is the SPEC.md sentence it rests on (the ledger: Ledger).
	Rests Quote
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
	{LintHeaderMissing, []string{"STEP-6"}, "a step that appended plan/mode and sent its request logs its request header, which notices are judged by", Quote{"STEP-6", "only when the last logged request/header described the other state"}},
	{LintRejectedAppends, []string{"STEP-3"}, "a pre-step whose step sent no request (rejected, aborted) appended nothing", Quote{"STEP-3", "A rejected or aborted step appends nothing"}},
	{LintAppendNotPending, []string{"PEND-1"}, "a selection made after a turn's last step stays pending: no plan/mode is appended with no accepted pre-step after it", Quote{"PEND-1", "it stays pending until the next accepted in-turn pre-step appends it"}},
	{LintPlanModeShape, []string{"LOG-1"}, "plan/mode data is exactly {active: boolean}", Quote{"LOG-1", "plan/mode is a session event with data { active: boolean }"}},
	{LintAppendBeforeStart, []string{"STEP-1"}, "inside a turn only the pre-step listener appends, before its step starts", Quote{"STEP-1", "the only place that appends plan/mode is the plugin's agent/pre-step listener"}},
	{LintExitAtOnce, []string{"EXIT-5"}, "an approved exit is recorded pending and appended at the next accepted in-turn pre-step, not during the exit tool's call", Quote{"EXIT-5", "records a silent (never narrated) pending exit, appended at the next accepted in-turn pre-step"}},
	{LintAppendMidStep, []string{"PEND-1"}, "during an open turn a selection stays pending until the next accepted in-turn pre-step appends it, not while a step runs", Quote{"PEND-1", "it stays pending until the next accepted in-turn pre-step appends it, before the request is derived"}},
	{LintRepeatedValue, []string{"LOG-4"}, "every committed change is exactly one plan/mode; nothing else is appended", Quote{"LOG-4", "Every committed change is exactly one appended plan/mode event"}},
	{LintSectionOrder, []string{"CFG-2"}, "plan:policy renders at order 50", Quote{"CFG-2", "the system-prompt section named plan:policy at order 50"}},
	{LintHeaderBeforeApply, []string{"STEP-7"}, "the request of the step whose pre-step appended reflects the append", Quote{"STEP-7", "the request of that step (its header and its system prompt) already reflects the new state"}},
	{LintSectionVsLog, []string{"CFG-2"}, "plan:policy renders exactly while the log says plan mode is active", Quote{"CFG-2", "While plan mode is active, the exact section text is rendered"}},
	{LintCatalogFlips, []string{"EXIT-1"}, "exit_plan_mode is listed whether or not plan mode is active", Quote{"EXIT-1", "exit_plan_mode is registered whether or not plan mode is active"}},
	{LintNotSteered, []string{"CMD-3"}, "/plan <message> steers its message into the next request", Quote{"CMD-3", "then sends the text through agent.steer(), so it becomes the next step's ordinary logged user message"}},
	{LintSecondNotice, []string{"STEP-6"}, "at most one notice per change", Quote{"STEP-6", "records exactly one plugin-sourced user/message notice"}},
	{LintNoticeNoChange, []string{"STEP-6"}, "a notice narrates a change the last request header did not show", Quote{"STEP-6", "only when the last logged request/header described the other state"}},
	{LintRetryUnshown, []string{"STEP-7"}, "a retry's pre-step append is reflected by the request the retry sends", Quote{"STEP-7", "the request of that step (its header and its system prompt) already reflects the new state"}},
	{LintExitOutsidePlan, []string{"EXIT-2"}, "exit_plan_mode fails outside plan mode", Quote{"EXIT-2", "Executing it outside plan mode fails"}},
	{LintExitNoHeading, []string{"EXIT-3"}, "exit_plan_mode fails for a plan without a # heading", Quote{"EXIT-3", "it requires a complete markdown plan that starts with a # heading; anything else fails"}},
	{LintPlanInTranscript, []string{"LOG-1"}, "plan/mode never appears in the model's messages", Quote{"LOG-1", "it never appears in the model transcript (request messages)"}},

	{InvGetIsFold, []string{"LOG-3"}, "get's active is the fold of the log", Quote{"LOG-3", "The state in force is always a pure function of the log (the fold): no live mirror"}},
	{InvHostTools, []string{"EXIT-1", "SVC-3"}, "the catalog carries the host's tools in the host's order", Quote{"EXIT-1", "entering or leaving plan mode changes only the prompt section, never the request's tool catalog"}},
	{InvUnloadedSection, []string{"SVC-2"}, "without plan mode no plan:policy is rendered", Quote{"SVC-2", "then no plan/mode event, section, tool or command exists"}},
	{InvUnloadedTool, []string{"SVC-2"}, "without plan mode no exit_plan_mode is offered", Quote{"SVC-2", "then no plan/mode event, section, tool or command exists"}},
	{InvUnloadedAppend, []string{"SVC-2"}, "without plan mode no plan/mode is appended", Quote{"SVC-2", "then no plan/mode event, section, tool or command exists"}},
	{InvUnloadedNotice, []string{"SVC-2"}, "without plan mode no plan-mode notice is logged", Quote{"SVC-2", "The package is optional"}},
	{InvUnloadedCommand, []string{"SVC-2"}, "without plan mode /plan is an unknown command", Quote{"SVC-2", "then no plan/mode event, section, tool or command exists"}},
	{InvSectionIsLog, []string{"STEP-7"}, "each request's plan:policy agrees with the log when it was sent", Quote{"STEP-7", "the request of that step (its header and its system prompt) already reflects the new state"}},
	{InvSectionText, []string{"CFG-2"}, "plan:policy is the configured section text", Quote{"CFG-2", "the exact section text is rendered as the system-prompt section named plan:policy"}},
	{InvSectionOrder, []string{"CFG-2"}, "plan:policy renders at order 50", Quote{"CFG-2", "the system-prompt section named plan:policy at order 50"}},
	{InvExitToolOnce, []string{"EXIT-1"}, "every request offers exit_plan_mode exactly once", Quote{"EXIT-1", "exit_plan_mode is registered whether or not plan mode is active"}},
	{InvCatalogFixed, []string{"EXIT-1"}, "entering or leaving plan mode never changes the catalog", Quote{"EXIT-1", "never the request's tool catalog"}},
	{InvNoticeInRequest, []string{"STEP-7"}, "a logged notice is one of the next request's messages", Quote{"STEP-7", "the notice is part of that step's messages"}},
	{InvPlanModeNotInMessages, []string{"LOG-1"}, "no plan/mode is rendered into a request's messages", Quote{"LOG-1", "it never appears in the model transcript (request messages)"}},
	{InvLogUnreadable, []string{"LOG-1"}, "the observed log is readable as session events", Quote{"LOG-1", "plan/mode is a session event"}},
	{InvSelectionNoStep, []string{"PEND-2"}, "a selection starts no step and no turn", Quote{"PEND-2", "no step or turn is started because of it"}},
	{InvIdleSetEqualCommitted, []string{"PEND-3"}, "a set between turns that selects the logged state (or cancels) does not commit", Quote{"PEND-3", "returns noop and changes nothing when active equals the pending selection, or, with none pending, the logged state"}},
	{InvIdleSetAppendsOnce, []string{"LOG-4"}, "a committed set between turns appends exactly one plan/mode with the selected value", Quote{"LOG-4", "Every committed change is exactly one appended plan/mode event"}},
	{InvIdleSetCancelWrong, []string{"PEND-5"}, "only a set back to the logged state cancels", Quote{"PEND-5", "set back to the logged state while the opposite is pending clears the pending selection"}},
	{InvIdleSetNoAppend, []string{"PEND-3"}, "a set that is a noop or cancels appends nothing", Quote{"PEND-3", "returns noop and changes nothing"}},
	{InvIdleSetQueued, []string{"PEND-6"}, "a set with no open turn commits at once (queues only under idle-append-failure=pending, appending nothing)", Quote{"PEND-6", "set appends plan/mode at once and returns committed"}},
	{InvSetOutcomeKnown, []string{"SVC-1"}, "set returns committed, queued, cancelled or noop", Quote{"SVC-1", "set(agent, active): 'committed' | 'queued' | 'cancelled' | 'noop'"}},
	{InvFreshNothingPending, []string{"PEND-8"}, "right after a restart (or a reload that drops pending selections) nothing is pending", Quote{"PEND-8", "after restart the state is the log fold"}},
	{InvExitUnpresented, []string{"EXIT-2"}, "in plan mode exit_plan_mode with a valid plan is presented for review, not refused", Quote{"EXIT-4", "It presents the plan for review through the abstract user-questions seam"}},
	{InvExitApprovedResult, []string{"EXIT-5"}, "an approved exit's result reports approved", Quote{"EXIT-5", "Approval returns { approved: true }"}},
	{InvExitAsked, []string{"EXIT-4"}, "exit_plan_mode asks the user exactly when it presents a plan for review", Quote{"EXIT-4", "It presents the plan for review through the abstract user-questions seam"}},
	{InvExitFeedback, []string{"EXIT-6"}, "keep planning fails the call carrying the user's feedback", Quote{"EXIT-6", "\"Keep planning\" fails the call, carrying the user's feedback"}},
	{InvStreamGetActive, []string{"PEND-7"}, "get's active is the logged state while no step ran since it was shown", Quote{"PEND-7", "active is the logged state (the one the current step was assembled with)"}},
	{InvStreamGetPending, []string{"PEND-7"}, "get's pending is the selection the sets before it leave pending", Quote{"PEND-7", "pending is present exactly when a selection is waiting to be appended, and is that selection"}},
	{InvStreamSetQueued, []string{"PEND-4"}, "during an open turn a set to another state than the logged one queues", Quote{"PEND-4", "set to a state other than the logged one records the selection and returns queued"}},
	{InvStreamSetNoop, []string{"PEND-3"}, "a set to the pending state, or the logged one with none pending, is a noop", Quote{"PEND-3", "returns noop and changes nothing when active equals the pending selection, or, with none pending, the logged state"}},
	{InvStreamSetCancelled, []string{"PEND-5"}, "during an open turn a set back to the logged state with the opposite pending cancels", Quote{"PEND-5", "clears the pending selection and returns cancelled"}},
	{InvExitOutside, []string{"EXIT-2"}, "exit_plan_mode fails outside plan mode", Quote{"EXIT-2", "Executing it outside plan mode fails"}},
	{InvExitHeading, []string{"EXIT-3"}, "exit_plan_mode fails on a plan that does not open with a # heading", Quote{"EXIT-3", "it requires a complete markdown plan that starts with a # heading; anything else fails"}},
	{InvExitNoChannel, []string{"EXIT-7"}, "exit_plan_mode fails with no interaction channel", Quote{"EXIT-7", "No interaction channel"}},
	{InvExitReload, []string{"EXIT-7"}, "a reload while the review is open fails the call", Quote{"EXIT-7", "a reload of the service while the review is open, fails the call"}},
	{InvExitDismissed, []string{"EXIT-7"}, "a dismissed review fails the call; plan mode is never left implicitly", Quote{"EXIT-7", "plan mode is never left implicitly"}},
	{InvExitApproved, []string{"EXIT-5"}, "an approval alone succeeds", Quote{"EXIT-5", "Approval returns { approved: true }"}},
	{InvExitNotApproved, []string{"EXIT-6"}, "keep planning (or feedback with the approval) fails the call", Quote{"EXIT-6", "\"Keep planning\" fails the call"}},

	{ExpNoop, []string{"PEND-3"}, "set returns noop when it selects the current or pending state", Quote{"PEND-3", "returns noop and changes nothing"}},
	{ExpQueued, []string{"PEND-4"}, "set during an open turn queues a change", Quote{"PEND-4", "records the selection and returns queued"}},
	{ExpCancelled, []string{"PEND-5", "PEND-6"}, "set back to the logged state cancels the opposite pending selection", Quote{"PEND-5", "clears the pending selection and returns cancelled"}},
	{ExpCommitted, []string{"PEND-6"}, "set with no open turn commits at once", Quote{"PEND-6", "set appends plan/mode at once and returns committed"}},
	{ExpPendingHidden, []string{"PEND-7"}, "get reports pending exactly when a selection waits", Quote{"PEND-7", "pending is present exactly when a selection is waiting to be appended"}},
	{ExpNoticeInReq, []string{"STEP-7"}, "the notice is part of the messages of the step that appended", Quote{"STEP-7", "the notice is part of that step's messages"}},
	{ExpRequestAfterAppend, []string{"STEP-7"}, "the request of the step whose pre-step appended is derived after the append, so it shows the new state", Quote{"STEP-7", "The append happens before request derivation"}},
	{ExpToolsOffered, []string{"EXIT-1"}, "exit_plan_mode is offered whether or not plan mode is active", Quote{"EXIT-1", "exit_plan_mode is registered whether or not plan mode is active"}},
	{ExpPresented, []string{"EXIT-4"}, "exit_plan_mode presents the plan for review through the user-questions seam", Quote{"EXIT-4", "It presents the plan for review through the abstract user-questions seam"}},
	{ExpNoChannel, []string{"EXIT-7"}, "with no interaction channel the exit tool fails", Quote{"EXIT-7", "No interaction channel"}},
	{ExpHostToolRuns, []string{"SVC-3"}, "a call of a tool of the host's own runs as the host runs it, in plan mode or not: plan mode only guides", Quote{"SVC-3", "Plan mode is soft guidance"}},
	{ExpNotBlocked, []string{"SVC-3", "STEP-5"}, "plan mode never rejects a step: it only guides (SVC-3), and a failed append does not block the turn (STEP-5); a step the script's host listeners accept is not blocked", Quote{"SVC-3", "Plan mode is soft guidance"}},
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
