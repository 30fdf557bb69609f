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
	ObsNotices   = "notices"
	ObsEvents    = "appended events"
	ObsRequest   = "request"
	ObsGet       = "get"
	ObsFold      = "fold"
	// ObsListener is where the plugin's pre-step listener sits in the
	// chain, as a scenario checks it (what load registered, what the
	// listener saw in next()'s decision); lockstep sees its effect as the
	// order of appended events.
	ObsListener = "listener position"
	// ObsReply is the selection outcome a /plan reply announces, as a
	// scenario checks it; lockstep compares it within the command result.
	ObsReply = "announced outcome"
)

// Rule is one line of the attribution table: an observation kind, the
// situation, and the clauses a divergence there names.
type Rule struct {
	Observation string
	When        string
	Clauses     []string
}

// Table is the declared attribution table, in the order lockstep consults
// it (package lockstep implements the situations); docs/lockstep.md prints
// it. Scenarios name the observation a failing step checks and take the
// clauses of its rows (ForScenario).
var Table = []Rule{
	{ObsLoadError, "a config is accepted or refused differently", []string{"CFG-1"}},
	{ObsError, "foldPlanMode reports an error or not", []string{"LOG-2"}},
	{ObsError, "an idle set reports an error or not (its append failed)", []string{"PEND-6", "STEP-5"}},
	{ObsOutcome, "the reference returned noop", []string{"PEND-3"}},
	{ObsOutcome, "the reference returned queued", []string{"PEND-4"}},
	{ObsOutcome, "the reference returned cancelled in an open turn", []string{"PEND-5"}},
	{ObsOutcome, "the reference returned committed, or cancelled between turns", []string{"PEND-6"}},
	{ObsCommand, "/plan is registered or not", []string{"CMD-1"}},
	{ObsCommand, "its selection was appended on one side only: as set in an open turn, or between turns (then the command's clause)", []string{"PEND-4", "PEND-6"}},
	{ObsCommand, "bare /plan", []string{"CMD-2"}},
	{ObsCommand, "/plan <message>", []string{"CMD-3"}},
	{ObsCommand, "/plan off", []string{"CMD-4"}},
	{ObsCommand, "the same result and appends, but the reply announces another selection outcome (both sides report outcomes): the outcomes, then the command's clause", []string{"SVC-1"}},
	{ObsDecision, "the plugin's append failed in the step", []string{"STEP-5"}},
	{ObsDecision, "otherwise: the plugin changed the downstream decision", []string{"SVC-3", "STEP-3"}},
	{ObsOrder, "the plugin appended before or after calling next() (the same appends)", []string{"STEP-3"}},
	{ObsSteer, "a /plan <message> command", []string{"CMD-3"}},
	{ObsSteer, "anything else", []string{"PEND-2"}},
	{ObsInject, "an idle commit's notice", []string{"STEP-6"}},
	{ObsPlanMode, "same values, different data", []string{"LOG-1"}},
	{ObsPlanMode, "the implementation repeats a value", []string{"LOG-4"}},
	{ObsPlanMode, "a step the downstream listeners rejected or aborted", []string{"STEP-3"}},
	{ObsPlanMode, "a request-recovery retry", []string{"STEP-2"}},
	{ObsPlanMode, "an accepted step with an armed append fault", []string{"STEP-5"}},
	{ObsPlanMode, "a step the reference skipped for want of messages, which the implementation ran", []string{"PEND-2"}},
	{ObsPlanMode, "a step both sides skipped for want of messages (choice empty-step)", []string{"PEND-2", "PEND-1"}},
	{ObsPlanMode, "a step whose exit tool call the reference approved, where the implementation appended the exit during the call", []string{"EXIT-5"}},
	{ObsPlanMode, "an accepted step", []string{"PEND-1", "STEP-1"}},
	{ObsPlanMode, "set: the reference committed", []string{"PEND-6"}},
	{ObsPlanMode, "set: the reference queued", []string{"PEND-4"}},
	{ObsPlanMode, "a /plan command that appends a state other than the one it selects", []string{"CMD-2", "CMD-3", "CMD-4"}},
	{ObsPlanMode, "a /plan command that selects the right state: as set (then the command's clause)", []string{"PEND-4", "PEND-6"}},
	{ObsPlanMode, "a prompt", []string{"STEP-4"}},
	{ObsPlanMode, "anything else", []string{"LOG-4"}},
	{ObsAttempts, "an append attempted on one side only, failed (the logs agree): as a plan/mode append", []string{"STEP-3", "STEP-5", "PEND-1"}},
	{ObsNotices, "the step appends the exit tool's approved exit", []string{"EXIT-5"}},
	{ObsNotices, "otherwise", []string{"STEP-6"}},
	{ObsGet, "active (compared before the tool results, which follow from it), when foldPlanMode over the agent's log differs too (a probe after the action)", []string{"LOG-2", "LOG-3"}},
	{ObsGet, "active (compared before the tool results)", []string{"LOG-3"}},
	{ObsTool, "a call of a tool of the host's own", []string{"SVC-3"}},
	{ObsTool, "called outside plan mode", []string{"EXIT-2"}},
	{ObsTool, "the plan has no # heading", []string{"EXIT-3"}},
	{ObsTool, "the reference presented the plan, the implementation refused it unpresented", []string{"EXIT-2", "EXIT-3"}},
	{ObsTool, "no user-questions channel, a reload during review, or a seam that fails (throws, aborted, refused, unavailable)", []string{"EXIT-7"}},
	{ObsTool, "presented for review or not", []string{"EXIT-4"}},
	{ObsTool, "an approval without feedback", []string{"EXIT-5"}},
	{ObsTool, "keep planning, a dismissal or an approval with feedback", []string{"EXIT-6"}},
	{ObsEvents, "the same events in another order around a notice", []string{"STEP-1"}},
	{ObsEvents, "a request/header's sections differ", []string{"CFG-2"}},
	{ObsEvents, "a request/header's tool catalog differs", []string{"EXIT-1"}},
	{ObsEvents, "a set or idle action appends more than the reference", []string{"PEND-2"}},
	{ObsEvents, "anything else", []string{"STEP-7"}},
	{ObsRequest, "sections", []string{"CFG-2"}},
	{ObsRequest, "tool catalog", []string{"EXIT-1"}},
	{ObsRequest, "messages", []string{"STEP-7"}},
	{ObsGet, "pending hidden where the reference shows it (not after a restart or reload)", []string{"PEND-7"}},
	{ObsGet, "pending after a restart", []string{"PEND-8"}},
	{ObsGet, "pending after set, by the reference's outcome", []string{"PEND-3", "PEND-4", "PEND-5", "PEND-6"}},
	{ObsGet, "pending left after /plan or /plan <message> cancelled the opposite selection in an open turn", []string{"PEND-5"}},
	{ObsGet, "pending after a /plan command", []string{"CMD-2", "CMD-3", "CMD-4"}},
	{ObsGet, "pending after a step where a review not approved followed an approval whose exit was pending, and a user's exit was pending before", []string{"EXIT-6", "EXIT-5"}},
	{ObsGet, "pending after a step where a review not approved followed an approval whose exit was pending", []string{"EXIT-6"}},
	{ObsGet, "pending after a step", []string{"STEP-3", "PEND-1"}},
	{ObsGet, "anything else", []string{"PEND-7"}},
	{ObsFold, "foldPlanMode's value", []string{"LOG-2"}},
	{ObsListener, "the plugin's pre-step listener is not prepended, or does not wrap the listeners registered before it (scenarios)", []string{"STEP-1"}},
	{ObsReply, "a /plan reply announces another selection outcome than the one its selection had (scenarios)", []string{"SVC-1"}},
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
