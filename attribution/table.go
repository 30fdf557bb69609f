// Package attribution declares which clause(s) an observation belongs to:
// the observation kinds every check compares, and the one table from an
// observation (and its situation) to clauses. Lockstep divergences, failing
// properties (replayed in lockstep) and failing scenarios (by the
// observation of their failing step) are all attributed by it, so a
// failure counts under the clauses of the observation that diverged rather
// than every clause its check is tagged with. It imports nothing of
// plankit's.
package attribution

import (
	"slices"
)

// Observation kinds: every thing lockstep compares after an action, in the
// order it compares them. The first kind whose values differ is the
// divergence.
const (
	ObsLoadError = "load error"
	ObsError     = "error"
	ObsOutcome   = "set outcome"
	ObsCommand   = "command result"
	ObsDecision  = "pre-step decision"
	ObsTool      = "tool result"
	ObsOrder     = "pre-step effect order"
	ObsSteer     = "steered text"
	ObsInject    = "injected text"
	ObsPlanMode  = "appended plan/mode"
	ObsAttempts  = "plan/mode append attempts"
	// ObsExitAppend is an appended plan/mode that came during an
	// exit_plan_mode call the reference approved: the exit appended at
	// once instead of left pending (a refinement of ObsPlanMode that names
	// only EXIT-5, so a scenario's plan/mode check is not read as EXIT-5).
	ObsExitAppend = "exit appended during the call"
	ObsNotices    = "notices"
	ObsEvents     = "appended events"
	ObsRequest    = "request"
	ObsGet        = "get"
	ObsFold       = "fold"
	// ObsListener is where the plugin's pre-step listener sits in the
	// chain, as a scenario checks it (what load registered, what the
	// listener saw in next()'s decision); lockstep sees its effect as the
	// order of appended events.
	ObsListener = "listener position"
	// ObsReply is the selection outcome a /plan reply announces, as a
	// scenario checks it; lockstep compares it within the command result.
	ObsReply = "announced outcome"
)

// The runtime level's observation kinds: what plankit diff --level runtime
// compares after each step of a runtime script, in order.
const (
	RtLoadError = "runtime load error"
	RtError     = "runtime step error"
	RtOutcome   = "runtime set outcome"
	RtCommand   = "runtime command result"
	RtPlanMode  = "runtime appended plan/mode"
	RtSkipped   = "runtime step skipped"
	RtNotices   = "runtime notices"
	RtActive    = "runtime get active"
	RtTool      = "runtime tool result"
	RtEvents    = "runtime appended events"
	RtRequest   = "runtime request"
	RtGet       = "runtime get"
)

// Rule is one line of the attribution table: its ID, an observation kind,
// the situation, and the clauses a divergence there names.
type Rule struct {
	ID          string
	Observation string
	When        string
	Clauses     []string
}

// Row IDs: each row of Table by name, so the code that picks a row (package
// lockstep implements the situations) names it instead of its clauses.
const (
	RowLoadConfig              = "load-config"
	RowErrorFold               = "error-fold"
	RowErrorIdleSet            = "error-idle-set"
	RowOutcomeNoop             = "outcome-noop"
	RowOutcomeQueued           = "outcome-queued"
	RowOutcomeCancelledInTurn  = "outcome-cancelled-in-turn"
	RowOutcomeCommitted        = "outcome-committed"
	RowCommandRegistered       = "command-registered"
	RowCommandAppendedInTurn   = "command-appended-in-turn"
	RowCommandAppendedIdle     = "command-appended-idle"
	RowCommandBare             = "command-bare"
	RowCommandMessage          = "command-message"
	RowCommandOff              = "command-off"
	RowReplyOutcome            = "reply-outcome"
	RowDecisionAppendFailed    = "decision-append-failed"
	RowDecisionChanged         = "decision-changed"
	RowOrder                   = "order"
	RowSteerCommand            = "steer-command"
	RowSteerOther              = "steer-other"
	RowInject                  = "inject"
	RowPlanData                = "plan-data"
	RowPlanRepeated            = "plan-repeated"
	RowPlanRejected            = "plan-rejected"
	RowPlanRetry               = "plan-retry"
	RowPlanFault               = "plan-fault"
	RowPlanSkippedRan          = "plan-skipped-ran"
	RowPlanBothSkipped         = "plan-both-skipped"
	RowPlanExitAtOnce          = "plan-exit-at-once"
	RowPlanStep                = "plan-step"
	RowPlanSetCommitted        = "plan-set-committed"
	RowPlanSetQueued           = "plan-set-queued"
	RowPlanCommandOther        = "plan-command-other"
	RowPlanCommandInTurn       = "plan-command-in-turn"
	RowPlanCommandIdle         = "plan-command-idle"
	RowPlanPrompt              = "plan-prompt"
	RowPlanOther               = "plan-other"
	RowAttempts                = "attempts"
	RowNoticesExit             = "notices-exit"
	RowNotices                 = "notices"
	RowGetActiveFold           = "get-active-fold"
	RowGetActive               = "get-active"
	RowGetActivePending        = "get-active-pending"
	RowToolHost                = "tool-host"
	RowToolOutside             = "tool-outside"
	RowToolHeading             = "tool-heading"
	RowToolRefused             = "tool-refused"
	RowToolSeamFails           = "tool-seam-fails"
	RowToolPresented           = "tool-presented"
	RowToolApproved            = "tool-approved"
	RowToolKeepPlanning        = "tool-keep-planning"
	RowEventsOrder             = "events-order"
	RowEventsSections          = "events-sections"
	RowEventsTools             = "events-tools"
	RowEventsSelection         = "events-selection"
	RowEventsOther             = "events-other"
	RowRequestSections         = "request-sections"
	RowRequestTools            = "request-tools"
	RowRequestMessages         = "request-messages"
	RowRequestCount            = "request-count"
	RowGetHidden               = "get-hidden"
	RowGetRestart              = "get-restart"
	RowGetAfterNoop            = "get-after-noop"
	RowGetAfterQueued          = "get-after-queued"
	RowGetAfterCancelled       = "get-after-cancelled"
	RowGetAfterCommitted       = "get-after-committed"
	RowGetCommandCancelled     = "get-command-cancelled"
	RowGetCommand              = "get-command"
	RowGetKeptPlanningUserExit = "get-kept-planning-user-exit"
	RowGetKeptPlanning         = "get-kept-planning"
	RowGetStep                 = "get-step"
	RowGetOther                = "get-other"
	RowFold                    = "fold"
	RowListener                = "listener"
	RowReply                   = "reply"
)

// Table is the declared attribution table, in the order lockstep consults
// it (package lockstep implements the situations); docs/lockstep.md prints
// it. Scenarios name the observation a failing step checks and take the
// clauses of its rows (ForScenario).
var Table = []Rule{
	{RowLoadConfig, ObsLoadError, "a config is accepted or refused differently", []string{"CFG-1"}},
	{RowErrorFold, ObsError, "foldPlanMode reports an error or not", []string{"LOG-2"}},
	{RowErrorIdleSet, ObsError, "an idle set reports an error or not (its append failed)", []string{"PEND-6", "STEP-5"}},
	{RowOutcomeNoop, ObsOutcome, "the reference returned noop", []string{"PEND-3"}},
	{RowOutcomeQueued, ObsOutcome, "the reference returned queued", []string{"PEND-4"}},
	{RowOutcomeCancelledInTurn, ObsOutcome, "the reference returned cancelled in an open turn", []string{"PEND-5"}},
	{RowOutcomeCommitted, ObsOutcome, "the reference returned committed, or cancelled between turns", []string{"PEND-6"}},
	{RowCommandRegistered, ObsCommand, "/plan is registered or not", []string{"CMD-1"}},
	{RowCommandAppendedInTurn, ObsCommand, "its selection was appended on one side only, in an open turn (as set; then the command's clause)", []string{"PEND-4"}},
	{RowCommandAppendedIdle, ObsCommand, "its selection was appended on one side only, between turns (as set; then the command's clause)", []string{"PEND-6"}},
	{RowCommandBare, ObsCommand, "bare /plan", []string{"CMD-2"}},
	{RowCommandMessage, ObsCommand, "/plan <message>", []string{"CMD-3"}},
	{RowCommandOff, ObsCommand, "/plan off", []string{"CMD-4"}},
	{RowReplyOutcome, ObsCommand, "the same result and appends, but the reply announces another selection outcome (both sides report outcomes): the outcomes, then the command's clause", []string{"SVC-1"}},
	{RowDecisionAppendFailed, ObsDecision, "the plugin's append failed in the step", []string{"STEP-5"}},
	{RowDecisionChanged, ObsDecision, "otherwise: the plugin changed the downstream decision", []string{"SVC-3", "STEP-3"}},
	{RowOrder, ObsOrder, "the plugin appended before or after calling next() (the same appends)", []string{"STEP-3"}},
	{RowSteerCommand, ObsSteer, "a /plan <message> command", []string{"CMD-3"}},
	{RowSteerOther, ObsSteer, "anything else", []string{"PEND-2"}},
	{RowInject, ObsInject, "an idle commit's notice", []string{"STEP-6"}},
	{RowPlanData, ObsPlanMode, "same values, different data", []string{"LOG-1"}},
	{RowPlanRepeated, ObsPlanMode, "the implementation repeats a value", []string{"LOG-4"}},
	{RowPlanRejected, ObsPlanMode, "a step the downstream listeners rejected or aborted", []string{"STEP-3"}},
	{RowPlanRetry, ObsPlanMode, "a request-recovery retry", []string{"STEP-2"}},
	{RowPlanFault, ObsPlanMode, "an accepted step with an armed append fault", []string{"STEP-5"}},
	{RowPlanSkippedRan, ObsPlanMode, "a step the reference skipped for want of messages, which the implementation ran", []string{"PEND-2"}},
	{RowPlanBothSkipped, ObsPlanMode, "a step both sides skipped for want of messages (choice empty-step)", []string{"PEND-2", "PEND-1"}},
	{RowPlanExitAtOnce, ObsExitAppend, "a step whose exit tool call the reference approved, where the implementation appended the exit during the call", []string{"EXIT-5"}},
	{RowPlanStep, ObsPlanMode, "an accepted step", []string{"PEND-1", "STEP-1"}},
	{RowPlanSetCommitted, ObsPlanMode, "set: the reference committed", []string{"PEND-6"}},
	{RowPlanSetQueued, ObsPlanMode, "set: the reference queued", []string{"PEND-4"}},
	{RowPlanCommandOther, ObsPlanMode, "a /plan command that appends a state other than the one it selects", []string{"CMD-2", "CMD-3", "CMD-4"}},
	{RowPlanCommandInTurn, ObsPlanMode, "a /plan command in an open turn that selects the right state: as set (then the command's clause)", []string{"PEND-4"}},
	{RowPlanCommandIdle, ObsPlanMode, "a /plan command between turns that selects the right state: as set (then the command's clause)", []string{"PEND-6"}},
	{RowPlanPrompt, ObsPlanMode, "a prompt", []string{"STEP-4"}},
	{RowPlanOther, ObsPlanMode, "anything else", []string{"LOG-4"}},
	{RowAttempts, ObsAttempts, "an append attempted on one side only, failed (the logs agree): named as the plan/mode append it would have been", []string{"STEP-3", "STEP-5", "PEND-1", "STEP-1", "STEP-2", "PEND-2", "EXIT-5", "PEND-4", "PEND-6", "CMD-2", "CMD-3", "CMD-4", "STEP-4", "LOG-4", "LOG-1"}},
	{RowNoticesExit, ObsNotices, "the step appends the exit tool's approved exit", []string{"EXIT-5"}},
	{RowNotices, ObsNotices, "otherwise", []string{"STEP-6"}},
	{RowGetActiveFold, ObsGet, "active (compared before the tool results, which follow from it), when foldPlanMode over the agent's log differs too (a probe after the action)", []string{"LOG-2", "LOG-3"}},
	{RowGetActivePending, ObsGet, "active is the selection the reference holds pending, not the logged state", []string{"PEND-7"}},
	{RowGetActive, ObsGet, "active (compared before the tool results)", []string{"LOG-3"}},
	{RowToolHost, ObsTool, "a call of a tool of the host's own", []string{"SVC-3"}},
	{RowToolOutside, ObsTool, "called outside plan mode", []string{"EXIT-2"}},
	{RowToolHeading, ObsTool, "the plan has no # heading", []string{"EXIT-3"}},
	{RowToolRefused, ObsTool, "the reference presented the plan, the implementation refused it unpresented", []string{"EXIT-2", "EXIT-3"}},
	{RowToolSeamFails, ObsTool, "no user-questions channel, a reload during review, or a seam that fails (throws, aborted, refused, unavailable)", []string{"EXIT-7"}},
	{RowToolPresented, ObsTool, "presented for review or not", []string{"EXIT-4"}},
	{RowToolApproved, ObsTool, "an approval without feedback", []string{"EXIT-5"}},
	{RowToolKeepPlanning, ObsTool, "keep planning, a dismissal or an approval with feedback", []string{"EXIT-6"}},
	{RowEventsOrder, ObsEvents, "the same events in another order around a notice", []string{"STEP-1"}},
	{RowEventsSections, ObsEvents, "a request/header's sections differ", []string{"CFG-2"}},
	{RowEventsTools, ObsEvents, "a request/header's tool catalog differs", []string{"EXIT-1"}},
	{RowEventsSelection, ObsEvents, "a set or idle action appends more than the reference", []string{"PEND-2"}},
	{RowEventsOther, ObsEvents, "anything else", []string{"STEP-7"}},
	{RowRequestSections, ObsRequest, "sections", []string{"CFG-2"}},
	{RowRequestTools, ObsRequest, "tool catalog", []string{"EXIT-1"}},
	{RowRequestMessages, ObsRequest, "messages", []string{"STEP-7"}},
	{RowRequestCount, ObsRequest, "the number of requests an action sends", []string{"STEP-7"}},
	{RowGetHidden, ObsGet, "pending hidden where the reference shows it (not after a restart or reload)", []string{"PEND-7"}},
	{RowGetRestart, ObsGet, "pending after a restart", []string{"PEND-8"}},
	{RowGetAfterNoop, ObsGet, "pending after set, the reference's outcome noop", []string{"PEND-3"}},
	{RowGetAfterQueued, ObsGet, "pending after set, the reference's outcome queued", []string{"PEND-4"}},
	{RowGetAfterCancelled, ObsGet, "pending after set, the reference's outcome cancelled in an open turn", []string{"PEND-5"}},
	{RowGetAfterCommitted, ObsGet, "pending after set, the reference's outcome committed, or cancelled between turns", []string{"PEND-6"}},
	{RowGetCommandCancelled, ObsGet, "pending left after /plan or /plan <message> cancelled the opposite selection in an open turn", []string{"PEND-5"}},
	{RowGetCommand, ObsGet, "pending after a /plan command", []string{"CMD-2", "CMD-3", "CMD-4"}},
	{RowGetKeptPlanningUserExit, ObsGet, "pending after a step where a review not approved followed an approval whose exit was pending, and a user's exit was pending before", []string{"EXIT-6", "EXIT-5"}},
	{RowGetKeptPlanning, ObsGet, "pending after a step where a review not approved followed an approval whose exit was pending", []string{"EXIT-6"}},
	{RowGetStep, ObsGet, "pending after a step", []string{"STEP-3", "PEND-1"}},
	{RowGetOther, ObsGet, "anything else", []string{"PEND-7"}},
	{RowFold, ObsFold, "foldPlanMode's value", []string{"LOG-2"}},
	{RowListener, ObsListener, "the plugin's pre-step listener is not prepended, or does not wrap the listeners registered before it (scenarios)", []string{"STEP-1"}},
	{RowReply, ObsReply, "a /plan reply announces another selection outcome than the one its selection had (scenarios)", []string{"SVC-1"}},
	// The runtime level (plankit diff --level runtime): what a whole
	// runtime shows of a step, compared with the built-in runtime around the
	// reference, in the order lockstep compares it. A clause list is
	// prefixed with LOG-3 when an outside writer's plan/mode is in the log,
	// and LOG-3 LOG-2 PEND-8 when plan mode was loaded again from the log.
	{"rt-load-error-1", RtLoadError, "the config is accepted or refused differently", []string{"CFG-1"}},
	{"rt-error-1", RtError, "a reload reports an error or not", []string{"EXIT-7", "PEND-8"}},
	{"rt-outcome-1", RtOutcome, "a set reports an error or not (its append failed)", []string{"PEND-6", "STEP-5"}},
	{"rt-outcome-2", RtOutcome, "set's outcome (a step's, or a host action's in a turn, in the order they happened), by the reference's: noop, queued, cancelled in a turn, otherwise; then PEND-5 after an earlier cancellation, PEND-5 CMD-4 after an earlier /plan off; LOG-3 LOG-2 first when get after the step shows another active state (a probe)", []string{"PEND-3", "PEND-4", "PEND-5", "PEND-6", "CMD-4", "LOG-3", "LOG-2"}},
	{"rt-command-1", RtCommand, "/plan is known on one side only (kind unknown, or an error where the runtime succeeds)", []string{"CMD-1"}},
	{"rt-command-2", RtCommand, "the command's result kind", []string{"CMD-2", "CMD-3", "CMD-4"}},
	{"rt-error-2", RtError, "the runtime refused a step the reference ran after a selection (a set or /plan step): a turn the selection started", []string{"PEND-2", "STEP-7"}},
	{"rt-error-3", RtError, "the runtime refused a step the reference ran", []string{"STEP-7"}},
	{"rt-plan-mode-1", RtPlanMode, "same values, different data", []string{"LOG-1"}},
	{"rt-plan-mode-2", RtPlanMode, "the runtime repeats a value", []string{"LOG-4"}},
	{"rt-plan-mode-3", RtPlanMode, "a set step: by the reference's outcome", []string{"PEND-3", "PEND-4", "PEND-5", "PEND-6"}},
	{"rt-plan-mode-4", RtPlanMode, "a /plan command: another state than it selects, else as set (then the command's clause)", []string{"PEND-6", "CMD-2", "CMD-3", "CMD-4"}},
	{"rt-plan-mode-5", RtPlanMode, "an outside writer's append", []string{"LOG-3"}},
	{"rt-plan-mode-6", RtPlanMode, "a restart, reload, unload or open", []string{"PEND-8", "LOG-3"}},
	{"rt-plan-mode-7", RtPlanMode, "a turn: after keep planning followed an approval or a review the seam replied to, an approved exit, a failed request's retry, a host listener's reject or abort, its taking the messages, an armed fault (each that the script has), then an accepted step", []string{"EXIT-6", "EXIT-5", "STEP-2", "STEP-3", "PEND-2", "STEP-5", "PEND-1", "STEP-1"}},
	{"rt-skipped-1", RtSkipped, "a step whose messages a host listener took: the runtime sent more requests than the reference", []string{"PEND-2"}},
	{"rt-notices-1", RtNotices, "the step approved an exit (EXIT-5), a host listener registered before plan mode acted (STEP-1), one rejected, aborted or took the messages (STEP-3); then", []string{"EXIT-5", "STEP-1", "STEP-3", "STEP-6"}},
	{"rt-active-1", RtActive, "get's active (before the tool results it decides), after a load from the log", []string{"LOG-3", "LOG-2"}},
	{"rt-active-2", RtActive, "get's active", []string{"LOG-3"}},
	{"rt-tool-1", RtTool, "a call of a tool of the host's own", []string{"SVC-3"}},
	{"rt-tool-2", RtTool, "the exit tool (compared with the host actions' results, in the order they happened): outside plan mode (the fold where its request was sent), a plan without a # heading, refused unpresented, no user-questions channel or a reload or a failing seam, presented or not, an approval without feedback, otherwise", []string{"EXIT-2", "EXIT-3", "EXIT-7", "EXIT-4", "EXIT-5", "EXIT-6"}},
	{"rt-events-1", RtEvents, "plan mode's events (plan/mode, request/header, notices; the runtime's own are not compared) in another order", []string{"STEP-1", "STEP-7"}},
	{"rt-events-2", RtEvents, "a /plan command's events (then the loop)", []string{"CMD-2", "CMD-3", "CMD-4", "STEP-7"}},
	{"rt-events-3", RtEvents, "a request/header on one side only", []string{"STEP-6", "STEP-7"}},
	{"rt-events-4", RtEvents, "a set, get or outside write appends more than the reference", []string{"PEND-2"}},
	{"rt-events-5", RtEvents, "anything else", []string{"STEP-7"}},
	{"rt-request-1", RtRequest, "a request sent, or a host action run, on one side only (compared before the events): the command's clause, an armed fault, plan mode in force (it only guides), then the loop or a step a selection started", []string{"CMD-2", "CMD-3", "CMD-4", "STEP-5", "SVC-3", "STEP-7", "PEND-2"}},
	{"rt-request-2", RtRequest, "sections (name, order, text)", []string{"CFG-2", "STEP-7"}},
	{"rt-request-3", RtRequest, "tool catalog", []string{"EXIT-1"}},
	{"rt-request-4", RtRequest, "messages: the notices they carry, else the rest", []string{"STEP-6", "STEP-7"}},
	{"rt-get-1", RtGet, "pending after a restart, reload or unload", []string{"PEND-8"}},
	{"rt-get-2", RtGet, "pending hidden where the reference shows it", []string{"PEND-7"}},
	{"rt-get-3", RtGet, "pending after a set (by its outcome), a /plan command, a turn", []string{"PEND-3", "PEND-4", "PEND-5", "PEND-6", "CMD-2", "CMD-3", "CMD-4", "STEP-3", "PEND-1", "EXIT-6"}},
	{"rt-get-4", RtGet, "anything else", []string{"PEND-7"}},
}

// Clauses is every clause an observation can name, in table order.
func Clauses() []string {
	var out []string
	for _, r := range Table {
		for _, c := range r.Clauses {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// Of is every clause the table's rows for an observation kind name, in
// table order.
func Of(observation string) []string {
	var out []string
	for _, r := range Table {
		if r.Observation != observation {
			continue
		}
		for _, c := range r.Clauses {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// ForScenario attributes a failing scenario step that checks an
// observation of this kind: the kind's one clause when it names one; else
// those of its clauses the scenario is tagged with; else (nothing in
// common, or an unknown kind) the scenario's tags.
func ForScenario(observation string, tags []string) []string {
	of := Of(observation)
	if len(of) == 1 {
		return of
	}
	var out []string
	for _, c := range of {
		if slices.Contains(tags, c) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return slices.Clone(tags)
	}
	return out
}

// Row is the clauses of the table's row with that ID (a fresh slice). An
// unknown ID is a programming error.
func Row(id string) []string {
	i := slices.IndexFunc(Table, func(r Rule) bool { return r.ID == id })
	if i < 0 {
		panic("attribution: unknown row " + id)
	}
	return slices.Clone(Table[i].Clauses)
}
