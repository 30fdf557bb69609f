// Package attribution declares which clause(s) an observation belongs to:
// the observation kinds every check compares, and the one table from an
// observation (and its situation) to clauses. Lockstep divergences, failing
// properties (replayed in lockstep) and failing scenarios (by the
// observation of their failing step) are all attributed by it, so a
// failure counts under the clauses of the observation that diverged rather
// than every clause its check is tagged with. It imports only spec.
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
	// ObsUnload is what the plugin still registers after an unload.
	ObsUnload = "registered after unload"
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
	// RtTurnEnd is how a turn ended (completed, blocked, aborted), as a
	// runtime-level expectation compares it.
	RtTurnEnd = "runtime turn end"
	// RtAny marks rows that qualify the row of any runtime observation.
	RtAny = "runtime (any)"
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
	RowSteerNearOff            = "steer-near-off"
	RowSteerCommand            = "steer-command"
	RowSteerOther              = "steer-other"
	RowPlanData                = "plan-data"
	RowPlanRepeated            = "plan-repeated"
	RowPlanBeforeDownstream    = "plan-before-downstream"
	RowPlanRejected            = "plan-rejected"
	RowPlanRetry               = "plan-retry"
	RowPlanFault               = "plan-fault"
	RowPlanSkippedRan          = "plan-skipped-ran"
	RowPlanBothSkipped         = "plan-both-skipped"
	RowPlanExitAtOnce          = "plan-exit-at-once"
	RowPlanExitLate            = "plan-mode-exit-late"
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
	RowNoticesLate             = "notices-late"
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
	RowGetStepFault            = "get-step-fault"
	RowGetStepRejected         = "get-step-rejected"
	RowGetOther                = "get-other"
	RowFold                    = "fold"
	RowListener                = "listener"
	RowUnloadKeeps             = "unload-keeps"
	RowReply                   = "reply"
)

// The runtime level's rows (package lockstep's rtobserve.go picks them).
const (
	RowRtLoadConfig                 = "rt-load-config"
	RowRtOutside                    = "rt-outside-writer"
	RowRtReloaded                   = "rt-reloaded"
	RowRtErrorStep                  = "rt-error-step"
	RowRtErrorRefusedAfterSelection = "rt-error-refused-after-selection"
	RowRtErrorRefused               = "rt-error-refused"
	RowRtOutcomeError               = "rt-outcome-error"
	RowRtProbe                      = "rt-outcome-probe"
	RowRtAfterApproval              = "rt-outcome-after-approval"
	RowRtOutcomeNoop                = "rt-outcome-noop"
	RowRtOutcomeQueued              = "rt-outcome-queued"
	RowRtOutcomeCancelledInTurn     = "rt-outcome-cancelled-in-turn"
	RowRtOutcomeCommitted           = "rt-outcome-committed"
	RowRtAfterCancellation          = "rt-outcome-after-cancellation"
	RowRtAfterOff                   = "rt-outcome-after-off"
	RowRtCommandRegistered          = "rt-command-registered"
	RowRtCommandBare                = "rt-command-bare"
	RowRtCommandMessage             = "rt-command-message"
	RowRtCommandOff                 = "rt-command-off"
	RowRtReplyOutcome               = "rt-reply-outcome"
	RowRtPlanData                   = "rt-plan-mode-data"
	RowRtPlanRepeated               = "rt-plan-mode-repeated"
	RowRtPlanCommand                = "rt-plan-mode-command"
	RowRtPlanOutside                = "rt-plan-mode-outside"
	RowRtPlanLoad                   = "rt-plan-mode-load"
	RowRtPlanKeptPlanning           = "rt-plan-mode-kept-planning"
	RowRtPlanApproved               = "rt-plan-mode-approved"
	RowRtPlanRetry                  = "rt-plan-mode-retry"
	RowRtPlanRejected               = "rt-plan-mode-rejected"
	RowRtPlanTaken                  = "rt-plan-mode-taken"
	RowRtPlanFault                  = "rt-plan-mode-fault"
	RowRtPlanStep                   = "rt-plan-mode-step"
	RowRtPlanOther                  = "rt-plan-mode-other"
	RowRtSkipped                    = "rt-skipped"
	RowRtNoticesLate                = "rt-notices-late"
	RowRtNoticesApproved            = "rt-notices-approved"
	RowRtNoticesGuard               = "rt-notices-guard"
	RowRtNoticesListener            = "rt-notices-listener"
	RowRtNotices                    = "rt-notices"
	RowRtStateApproved              = "rt-state-approved"
	RowRtStateReloaded              = "rt-state-reloaded"
	RowRtState                      = "rt-state"
	RowRtToolHost                   = "rt-tool-host"
	RowRtToolOutside                = "rt-tool-outside"
	RowRtToolHeading                = "rt-tool-heading"
	RowRtToolAfterApproval          = "rt-tool-after-approval"
	RowRtToolRefused                = "rt-tool-refused"
	RowRtToolSeamFails              = "rt-tool-seam-fails"
	RowRtToolPresented              = "rt-tool-presented"
	RowRtToolApproved               = "rt-tool-approved"
	RowRtToolKeepPlanning           = "rt-tool-keep-planning"
	RowRtRequestFault               = "rt-request-fault"
	RowRtRequestPlanMode            = "rt-request-plan-mode"
	RowRtRequestCount               = "rt-request-count"
	RowRtEventsOrder                = "rt-events-order"
	RowRtEventsCommand              = "rt-events-command"
	RowRtEventsHeader               = "rt-events-header"
	RowRtEventsSelection            = "rt-events-selection"
	RowRtEventsOther                = "rt-events-other"
	RowRtRequestStale               = "rt-request-stale"
	RowRtRequestSections            = "rt-request-sections"
	RowRtRequestTools               = "rt-request-tools"
	RowRtRequestNotices             = "rt-request-notices"
	RowRtGetLoad                    = "rt-get-load"
	RowRtGetHidden                  = "rt-get-hidden"
	RowRtGetTurn                    = "rt-get-turn"
	RowRtGetTurnFault               = "rt-get-turn-fault"
	RowRtGetTurnCancelled           = "rt-get-turn-cancelled"
	RowRtPlanGuard                  = "rt-plan-mode-guard"
	RowRtPlanForced                 = "rt-plan-mode-forced"
	RowRtSelectionStarted           = "rt-selection-started"
	RowRtRequestUnloaded            = "rt-request-unloaded"
	RowRtPlanCancelled              = "rt-plan-mode-cancelled"
	RowRtOutcomeKeptEntry           = "rt-outcome-kept-entry"
	RowRtRequestRetry               = "rt-request-retry"
	RowRtRequestNoticesMoved        = "rt-request-notices-moved"
	RowRtStateFoldFirst             = "rt-state-fold-first"
	RowRtGetTurnRejected            = "rt-get-turn-rejected"
	RowRtGetTurnKeptPlanning        = "rt-get-turn-kept-planning"
	RowRtGetOther                   = "rt-get-other"
)

// Table is the declared attribution table, in the order lockstep consults
// it (package lockstep implements the situations); docs/lockstep.md prints
// it. Scenarios name the observation a failing step checks and take the
// clauses of its rows (ForScenario).
var Table = []Rule{
	{RowLoadConfig, ObsLoadError, "a config is accepted or refused differently (by a load or a reload)", []string{"CFG-1"}},
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
	{RowCommandOff, ObsCommand, "/plan off (or off in another case or padded: only the exact argument is off)", []string{"CMD-4"}},
	{RowReplyOutcome, ObsCommand, "the same result and appends, but the reply announces another selection outcome (both sides report outcomes): the outcomes, then the command's clause; when get then shows another state, the command's clause first (the command selected another state); when the same actions with set in the command's place depart at that set too, set's outcome rows first (the selection, not the reply, is wrong)", []string{"SVC-1"}},
	{RowDecisionAppendFailed, ObsDecision, "the plugin's append failed in the step", []string{"STEP-5"}},
	{RowDecisionChanged, ObsDecision, "otherwise: the plugin changed the downstream decision", []string{"SVC-3", "STEP-3"}},
	{RowOrder, ObsOrder, "the plugin appended before or after calling next() (the same appends)", []string{"STEP-3"}},
	{RowSteerNearOff, ObsSteer, "a /plan command whose argument is off in another case or with other spacing, and get shows another state after it (one side read it as off)", []string{"CMD-4"}},
	{RowSteerCommand, ObsSteer, "a /plan <message> command", []string{"CMD-3"}},
	{RowSteerOther, ObsSteer, "anything else", []string{"PEND-2"}},
	{RowPlanData, ObsPlanMode, "same values, different data", []string{"LOG-1"}},
	{RowPlanRepeated, ObsPlanMode, "the implementation repeats a value", []string{"LOG-4"}},
	{RowPlanBeforeDownstream, ObsPlanMode, "a step where the implementation appended before calling next(), before the downstream decision (before the rows below)", []string{"STEP-3"}},
	{RowPlanRejected, ObsPlanMode, "a step the downstream listeners rejected or aborted", []string{"STEP-3"}},
	{RowPlanRetry, ObsPlanMode, "a request-recovery retry", []string{"STEP-2"}},
	{RowPlanFault, ObsPlanMode, "an accepted step with an armed append fault", []string{"STEP-5"}},
	{RowPlanSkippedRan, ObsPlanMode, "a step the reference skipped for want of messages, which the implementation ran", []string{"PEND-2"}},
	{RowPlanBothSkipped, ObsPlanMode, "a step both sides skipped for want of messages (choice empty-step)", []string{"PEND-2", "PEND-1"}},
	{RowPlanExitAtOnce, ObsExitAppend, "a step whose exit tool call the reference approved, where the implementation appended the exit during the call", []string{"EXIT-5"}},
	{RowPlanExitLate, ObsPlanMode, "an accepted step where an approved exit was pending: the reference appends it, the implementation does not", []string{"EXIT-5"}},
	{RowPlanStep, ObsPlanMode, "an accepted step", []string{"PEND-1", "STEP-1"}},
	{RowPlanSetCommitted, ObsPlanMode, "set: the reference committed", []string{"PEND-6"}},
	{RowPlanSetQueued, ObsPlanMode, "set: the reference queued", []string{"PEND-4"}},
	{RowPlanCommandOther, ObsPlanMode, "a /plan command that appends a state other than the one it selects", []string{"CMD-2", "CMD-3", "CMD-4"}},
	{RowPlanCommandInTurn, ObsPlanMode, "a /plan command in an open turn that selects the right state: as set (then the command's clause)", []string{"PEND-4"}},
	{RowPlanCommandIdle, ObsPlanMode, "a /plan command between turns that selects the right state: as set (then the command's clause)", []string{"PEND-6"}},
	{RowPlanPrompt, ObsPlanMode, "a prompt", []string{"STEP-4"}},
	{RowPlanOther, ObsPlanMode, "anything else", []string{"LOG-4"}},
	{RowAttempts, ObsAttempts, "an append attempted on one side only, failed (the logs agree): named as the plan/mode append it would have been", []string{"STEP-3", "STEP-5", "PEND-1", "STEP-1", "STEP-2", "PEND-2", "EXIT-5", "PEND-4", "PEND-6", "CMD-2", "CMD-3", "CMD-4", "STEP-4", "LOG-4", "LOG-1"}},
	{RowNoticesLate, ObsNotices, "the step shows fewer notices than the reference's, and one more accepted step of the agent shows more: the notice was handed to a later step (found by playing that step; replaces the rows below)", []string{"STEP-7"}},
	{RowNoticesExit, ObsNotices, "the step appends the exit tool's approved exit, which the reference does not narrate, and the implementation narrates", []string{"EXIT-5"}},
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
	{RowGetStepFault, ObsGet, "pending after a step with an append fault armed: a failed append keeps the selection pending (before the rows below)", []string{"STEP-5"}},
	{RowGetStepRejected, ObsGet, "pending after a step the chain rejected or aborted: it appends nothing and the selection stays pending", []string{"STEP-3"}},
	{RowGetHidden, ObsGet, "pending hidden where the reference shows it (not after a restart or reload)", []string{"PEND-7"}},
	{RowGetRestart, ObsGet, "pending after a restart, a load or a reload", []string{"PEND-8"}},
	{RowGetAfterNoop, ObsGet, "pending after set, the reference's outcome noop", []string{"PEND-3"}},
	{RowGetAfterQueued, ObsGet, "pending after set, the reference's outcome queued", []string{"PEND-4"}},
	{RowGetAfterCancelled, ObsGet, "pending after set, the reference's outcome cancelled in an open turn", []string{"PEND-5"}},
	{RowGetAfterCommitted, ObsGet, "pending after set, the reference's outcome committed, or cancelled between turns", []string{"PEND-6"}},
	{RowGetCommandCancelled, ObsGet, "pending left after /plan or /plan <message> cancelled the opposite selection in an open turn", []string{"PEND-5"}},
	{RowGetCommand, ObsGet, "pending after a /plan command", []string{"CMD-2", "CMD-3", "CMD-4"}},
	{RowGetKeptPlanningUserExit, ObsGet, "pending after a step where a review not approved followed an approval whose exit was pending, and a user's exit was pending before", []string{"EXIT-6", "EXIT-5"}},
	{RowGetKeptPlanning, ObsGet, "pending after a step where a review not approved followed an approval whose exit was pending", []string{"EXIT-6"}},
	{RowGetStep, ObsGet, "pending after an accepted step: the next accepted in-turn pre-step appends a selection", []string{"PEND-1", "STEP-3"}},
	{RowGetOther, ObsGet, "anything else", []string{"PEND-7"}},
	{RowFold, ObsFold, "foldPlanMode's value", []string{"LOG-2"}},
	{RowUnloadKeeps, ObsUnload, "an unload after which the implementation still registers a listener, tool, section or command the reference does not", []string{"SVC-2"}},
	{RowListener, ObsListener, "the plugin's pre-step listener is not prepended, or does not wrap the listeners registered before it (scenarios)", []string{"STEP-1"}},
	{RowReply, ObsReply, "a /plan reply announces another selection outcome than the one its selection had (scenarios)", []string{"SVC-1"}},
	// The runtime level (plankit diff --level runtime): what a whole
	// runtime shows of a step, compared with the built-in runtime around the
	// reference, in the order lockstep compares it. A diff takes the rows
	// its situation picks, in table order; a row marked prefixed is
	// preceded by rt-outside-writer and rt-reloaded when they apply.
	{RowRtLoadConfig, RtLoadError, "the config is accepted or refused differently", []string{"CFG-1"}},
	{RowRtOutside, RtAny, "prefixed (where a row says so) when an outside writer's plan/mode is in the log: the state must follow it", []string{"LOG-3"}},
	{RowRtReloaded, RtAny, "prefixed (where a row says so) when plan mode was loaded again from the log (a restart, a reload, an unload then either)", []string{"LOG-3", "LOG-2", "PEND-8"}},
	{RowRtErrorStep, RtError, "a step (a reload during a review, a restart) reports an error on one side only", []string{"EXIT-7", "PEND-8"}},
	{RowRtErrorRefusedAfterSelection, RtError, "the runtime refused a step the reference ran, right after a selection (a set or /plan step): a turn the selection started", []string{"PEND-2", "STEP-7"}},
	{RowRtErrorRefused, RtError, "the runtime refused a step the reference ran", []string{"STEP-7"}},
	{RowRtOutcomeError, RtOutcome, "a set reports an error or not (its append failed); where the reference queued it, the queued outcome's rows first", []string{"PEND-6", "STEP-5"}},
	{RowRtProbe, RtOutcome, "get after the step (a probe) shows another active state too, and not the fold of the runtime's own log: the state is not the fold of the log (before the outcome's rows)", []string{"LOG-3", "LOG-2"}},
	{RowRtAfterApproval, RtOutcome, "an approval's exit is pending (approved in the step before, or earlier in this one): it decides what a set meets (before the outcome's row)", []string{"EXIT-5"}},
	{RowRtOutcomeNoop, RtOutcome, "set's outcome (a step's, or a host action's in a turn, in the order they happened; also a set step's plan/mode and the pending a set leaves), by the reference's: noop", []string{"PEND-3"}},
	{RowRtOutcomeQueued, RtOutcome, "the reference's outcome queued", []string{"PEND-4"}},
	{RowRtOutcomeCancelledInTurn, RtOutcome, "the reference's outcome cancelled, by a host action in a turn", []string{"PEND-5"}},
	{RowRtOutcomeCommitted, RtOutcome, "the reference's outcome committed, or cancelled between turns", []string{"PEND-6"}},
	{RowRtOutcomeKeptEntry, RtOutcome, "the runtime returns cancelled where the reference returns noop, after a cancellation earlier in the turn: the cancellation left the opposite entry (before the outcome's row)", []string{"PEND-5"}},
	{RowRtAfterCancellation, RtOutcome, "after the outcome's row, when a set was cancelled earlier: that cancellation decides what is pending now", []string{"PEND-5"}},
	{RowRtAfterOff, RtOutcome, "after the outcome's row, when /plan off was typed earlier: it cancels a pending entry as a set does", []string{"PEND-5", "CMD-4"}},
	{RowRtCommandRegistered, RtCommand, "/plan is known on one side only (kind unknown, or an error where the runtime succeeds); then the command's clause (bare /plan CMD-2, /plan <message> CMD-3, /plan off CMD-4), which alone names a differing result kind otherwise (prefixed)", []string{"CMD-1"}},
	{RowRtCommandBare, RtCommand, "bare /plan", []string{"CMD-2"}},
	{RowRtCommandMessage, RtCommand, "/plan <message>", []string{"CMD-3"}},
	{RowRtCommandOff, RtCommand, "/plan off (or off in another case or padded: only the exact argument is off)", []string{"CMD-4"}},
	{RowRtReplyOutcome, RtCommand, "everything else the step shows is the same, but a command result (the step's, then its host actions' in the order they happened) announces another selection outcome (both sides report outcomes: capability commandOutcomes): the outcomes, then the command's clause (prefixed)", []string{"SVC-1"}},
	{RowRtPlanData, RtPlanMode, "same values, different data", []string{"LOG-1"}},
	{RowRtPlanRepeated, RtPlanMode, "the runtime repeats a value", []string{"LOG-4"}},
	{RowRtPlanCommand, RtPlanMode, "a /plan command that appends the state it selects: as an idle set, then the command's clause (only the command's clause when it appends another state) (prefixed); a set step takes its outcome's rows", []string{"PEND-6"}},
	{RowRtPlanOutside, RtPlanMode, "an outside writer's append", []string{"LOG-3"}},
	{RowRtPlanLoad, RtPlanMode, "a restart, reload, unload or open", []string{"PEND-8", "LOG-3"}},
	{RowRtPlanGuard, RtPlanMode, "a turn: a host listener registered before plan mode acts in it (plan mode's must run first and wrap it; before the rows below)", []string{"STEP-1"}},
	{RowRtPlanForced, RtPlanMode, "a turn: the runtime appends in a step it sent that the reference did not (a step a pending selection forced; before the rows below)", []string{"PEND-2"}},
	{RowRtPlanCancelled, RtPlanMode, "a turn: the runtime appends a selection a set or /plan cancelled earlier in it (before the rows below; before the two rows above too when the runtime's own reply said cancelled)", []string{"PEND-5"}},
	{RowRtPlanKeptPlanning, RtPlanMode, "a turn (each row its script has, in this order, then rt-plan-mode-step; prefixed): keep planning followed an approval, or a review the seam replied to (unless both sides approved it)", []string{"EXIT-6"}},
	{RowRtPlanApproved, RtPlanMode, "a turn: an approved exit", []string{"EXIT-5"}},
	{RowRtPlanRetry, RtPlanMode, "a turn: a failed request's retry", []string{"STEP-2"}},
	{RowRtPlanRejected, RtPlanMode, "a turn: a host listener rejects or aborts a step", []string{"STEP-3"}},
	{RowRtPlanTaken, RtPlanMode, "a turn: a host listener takes a step's messages", []string{"PEND-2"}},
	{RowRtPlanFault, RtPlanMode, "a turn: an append fault is armed", []string{"STEP-5"}},
	{RowRtPlanStep, RtPlanMode, "a turn: its accepted steps", []string{"PEND-1", "STEP-1"}},
	{RowRtPlanOther, RtPlanMode, "anything else (prefixed)", []string{"LOG-4"}},
	{RowRtSkipped, RtSkipped, "a step whose messages a host listener took: the runtime sent more requests than the reference", []string{"PEND-2"}},
	{RowRtNoticesLate, RtNotices, "the runtime logs fewer notices in a turn than the reference, and a turn played after it logs the missing one in its request (found by playing one more turn; replaces the rows below)", []string{"STEP-7"}},
	{RowRtNoticesApproved, RtNotices, "the step approved an exit (each row the step has, in this order, then rt-notices; prefixed)", []string{"EXIT-5"}},
	{RowRtNoticesGuard, RtNotices, "a host listener registered before plan mode acts in the step", []string{"STEP-1"}},
	{RowRtNoticesListener, RtNotices, "a host listener rejects, aborts or takes the messages", []string{"STEP-3"}},
	{RowRtNotices, RtNotices, "the notices a step logs", []string{"STEP-6"}},
	{RowRtStateApproved, RtActive, "get's active (before the tool results it decides; also get's active after the step, and a host action's get): after an exit approved in the step or the one before (then the next row)", []string{"EXIT-5"}},
	{RowRtStateFoldFirst, RtActive, "the runtime's state is the first plan/mode of the log, not the last (before the rows below)", []string{"LOG-2", "LOG-3"}},
	{RowRtStateReloaded, RtActive, "after a load from the log", []string{"LOG-3", "LOG-2"}},
	{RowRtState, RtActive, "otherwise", []string{"LOG-3"}},
	{RowRtToolHost, RtTool, "a call of a tool of the host's own (tool results are compared with the host actions' results, in the order they happened; prefixed)", []string{"SVC-3"}},
	{RowRtToolOutside, RtTool, "the exit tool outside plan mode (the fold where its request was sent)", []string{"EXIT-2"}},
	{RowRtToolHeading, RtTool, "the plan does not open with a level-1 # heading", []string{"EXIT-3"}},
	{RowRtToolAfterApproval, RtTool, "the reference presented the plan, the runtime refused it unpresented, after an approval earlier in the same tool batch (plan guidance stays for the rest of the batch)", []string{"EXIT-5"}},
	{RowRtToolRefused, RtTool, "the reference presented the plan, the runtime refused it unpresented", []string{"EXIT-2", "EXIT-3"}},
	{RowRtToolSeamFails, RtTool, "no user-questions channel, a reload during the review, or a failing seam", []string{"EXIT-7"}},
	{RowRtToolPresented, RtTool, "presented for review or not", []string{"EXIT-4", "EXIT-7"}},
	{RowRtToolApproved, RtTool, "an approval without feedback", []string{"EXIT-5"}},
	{RowRtToolKeepPlanning, RtTool, "otherwise (keep planning, a dismissal, an approval with feedback)", []string{"EXIT-6"}},
	{RowRtRequestFault, RtRequest, "a request sent, or a host action run, on one side only (compared before the events; also a host action that ran on one side only, as a step error): the command's clause, then each row that applies, in this order: an armed fault", []string{"STEP-5"}},
	{RowRtRequestPlanMode, RtRequest, "plan mode in force in a request the reference sent (it only guides)", []string{"SVC-3"}},
	{RowRtSelectionStarted, RtRequest, "a set or a /plan with nothing to steer, between turns, made the runtime send requests (before every other observation of the step)", []string{"PEND-2"}},
	{RowRtRequestUnloaded, RtRequest, "the tool catalog of a request sent while plan mode is unloaded", []string{"SVC-2"}},
	{RowRtRequestRetry, RtRequest, "a request sent on one side only in a turn with a failed request: the retry is a proposed step of its own (before the count's row)", []string{"STEP-2"}},
	{RowRtRequestCount, RtRequest, "then: the loop, or a step a selection started", []string{"STEP-7", "PEND-2"}},
	{RowRtEventsOrder, RtEvents, "plan mode's events (plan/mode, request/header, notices; the runtime's own are not compared) in another order", []string{"STEP-1", "STEP-7"}},
	{RowRtEventsCommand, RtEvents, "a /plan command's events: the command's clause, then", []string{"STEP-7"}},
	{RowRtEventsHeader, RtEvents, "a request/header on one side only (each request has its header, STEP-7; notices are decided by the last one logged, STEP-6)", []string{"STEP-7", "STEP-6"}},
	{RowRtEventsSelection, RtEvents, "a set, get or outside write appends more than the reference", []string{"PEND-2"}},
	{RowRtEventsOther, RtEvents, "anything else", []string{"STEP-7"}},
	{RowRtRequestStale, RtRequest, "a request's plan:policy shows the state from before a plan/mode the step appended ahead of it, not the fold of the runtime's own log when it was sent (derived before the step's append; before the sections' row)", []string{"STEP-7"}},
	{RowRtRequestSections, RtRequest, "each request as sent: sections (name, order, text)", []string{"CFG-2", "STEP-7"}},
	{RowRtRequestTools, RtRequest, "tool catalog", []string{"EXIT-1"}},
	{RowRtRequestNoticesMoved, RtRequest, "the step logs as many notices, but a request carries one another request of the step carries on the other side: the notice is part of its own step's messages", []string{"STEP-7"}},
	{RowRtRequestNotices, RtRequest, "messages: the notices they carry", []string{"STEP-6", "STEP-7"}},
	{RowRtGetLoad, RtGet, "pending after a restart, reload or unload (an active state that differs: rt-state rows)", []string{"PEND-8"}},
	{RowRtGetHidden, RtGet, "pending hidden where the reference shows it", []string{"PEND-7"}},
	{RowRtGetTurnCancelled, RtGet, "pending after a turn in which a set or /plan cancelled the opposite selection: the cancellation clears it (before the rows below)", []string{"PEND-5"}},
	{RowRtGetTurnFault, RtGet, "pending after a turn with an append fault armed: a failed append keeps the selection pending (before the rows below; after a set: its outcome's rows; after a /plan command: the command's clause; the turn's end shares it)", []string{"STEP-5", "PEND-1"}},
	{RowRtGetTurnRejected, RtGet, "pending after a turn whose host listener rejected or aborted a step: it appends nothing and the selection stays pending (the turn's end shares it)", []string{"STEP-3", "PEND-1"}},
	{RowRtGetTurnKeptPlanning, RtGet, "pending after a turn where keep planning followed an approval", []string{"EXIT-6"}},
	{RowRtGetTurn, RtGet, "pending after any other turn: the next accepted in-turn pre-step appends a selection", []string{"PEND-1", "STEP-3"}},
	{RowRtGetOther, RtGet, "anything else", []string{"PEND-7"}},
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
// those of its clauses the scenario is tagged with, in the scenario's order
// (its own clause, tagged first, before the clauses it touches); else
// (nothing in common, or an unknown kind) the scenario's tags.
func ForScenario(observation string, tags []string) []string {
	of := Of(observation)
	if len(of) == 1 {
		return of
	}
	var out []string
	for _, c := range tags {
		if slices.Contains(of, c) && !slices.Contains(out, c) {
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
