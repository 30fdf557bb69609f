package loop

import (
	"github.com/plankit/plankit/spec"
)

// How much the runtime-level checks need an event type logged.
const (
	// Must: the checks read it; a runtime that does not log it fails
	// them or leaves them unjudged.
	Must = "must"
	// MustWhen: must, whenever the runtime does what the event records
	// (EventUse.When).
	MustWhen = "must, when"
	// May: the checks read it when it is there, or do not read it at all.
	May = "may"
)

// EventUse is what the runtime-level checks (the invariants, the lint rules
// they run on each observed log, and the expectations of the runtime
// suite) need of one event type of the session log a runtime reports.
// TestEventUsesAreWhatTheChecksRead holds Reads to the code: an event type
// the checks' source names has Reads, and one it does not name has none.
type EventUse struct {
	Type string
	// Need is Must, MustWhen or May; When says when, for MustWhen.
	Need string
	When string
	// Reads are the data fields the checks read ("" entries never);
	// empty with For set: only the event's place in the log is read.
	Reads []string
	// For says what the checks do with it; empty when they do not read
	// the event at all.
	For string
}

// EventUses lists every event type of the event catalog, in its order.
var EventUses = []EventUse{
	{Type: spec.TypeTurnStart, Need: Must, Reads: []string{"turn"},
		For: "opens a turn: from here to `turn/end` a `plan/mode` may come only at a step boundary, before that step's request header (STEP-1, STEP-7), not while a step runs (PEND-1); `set` sees an open turn (PEND-1)"},
	{Type: spec.TypeTurnEnd, Need: Must, Reads: []string{"reason.kind"},
		For: "closes the turn; a `plan/mode` appended for a step that then sent no request fails STEP-3 (or STEP-6 when the request was sent without its header); `interrupted` is a restart and drops a `/plan <message>` steer (PEND-8); expectations compare the reason (`aborted`, `blocked`, ...)"},
	{Type: spec.TypeStepStart, Need: May, Reads: []string{"step"},
		For: "when logged, a step starts: a `plan/mode` between it and the step's request header fails STEP-1. Steps are delimited by their requests and request headers (SPEC.md), so a runtime that logs no step events is judged the same way"},
	{Type: spec.TypeStepEnd, Need: May,
		For: "when logged, the step is over: the next `plan/mode` is at a step boundary again"},
	{Type: spec.TypeRequestHeader, Need: Must, Reads: []string{"header.system[].name", "header.system[].order", "header.tools[].name", "reason"},
		For: "one per request sent, before it: the plan state a request showed (notices are judged against the last header, STEP-6, EXIT-5), `plan:policy` at order 50 exactly when the log folds to active (CFG-2, STEP-7), `exit_plan_mode` listed whatever the state (EXIT-1), a `/plan <message>` steered before it (CMD-3)"},
	{Type: spec.TypeRetry, Need: MustWhen, When: "the runtime retries a failed request",
		For: "marks a request-recovery retry inside the step: the pre-step may run again, and a `plan/mode` it appends must be followed by a new request header before the model's output (STEP-2, STEP-7)"},
	{Type: spec.TypeUserMessage, Need: Must, Reads: []string{"source.kind", "source.plugin", "content[].text"},
		For: "the transcript: a plan-mode notice (source `plugin`, plugin `plan-mode`) at most once per change the last header did not show (STEP-6, EXIT-5) and among the next request's messages; a `/plan <message>` steer (CMD-3); no `plan/mode` inside (LOG-1)"},
	{Type: spec.TypeAssistant, Need: Must, Reads: []string{"message.content[].type", "message.content[].id", "message.content[].name", "message.content[].arguments"},
		For: "the model's output: its request was sent (a `plan/mode` at a retry with no new header fails STEP-7); its tool-call parts name the calls that `tool/result` answers (EXIT-2, EXIT-3); no `plan/mode` inside (LOG-1)"},
	{Type: spec.TypeToolCall, Need: May, Reads: []string{"callId", "name", "arguments"},
		For: "the call a `tool/result` answers, when the `assistant/message` does not carry it as a tool-call part (EXIT-2, EXIT-3); model output, as `assistant/message`"},
	{Type: spec.TypeToolResult, Need: MustWhen, When: "the model calls a tool",
		Reads: []string{"message.source.callId", "message.content[].toolCallId", "message.content[].isError"},
		For:   "a successful `exit_plan_mode` needs plan mode active in the log (EXIT-2) and a plan opening with a level-1 heading (EXIT-3); no `plan/mode` inside (LOG-1)"},
	{Type: spec.TypePlanMode, Need: Must, Reads: []string{"active"},
		For: "appended by plan mode through the runtime's session store: its fold is the state in force (LOG-2, LOG-3), data exactly `{active: boolean}` (LOG-1), each a change (LOG-4), placed at a step boundary before the step's request header (STEP-1, STEP-7), never while a step runs (PEND-1), and only for a step that sends its request (STEP-3); the requests are compared with the fold at their `at`"},
	{Type: spec.TypeCommandRun, Need: MustWhen, When: "the runtime runs a slash command", Reads: []string{"name", "args"},
		For: "a `/plan <message>` must steer its message into the next request (CMD-3)"},
	{Type: spec.TypeCommandDone, Need: MustWhen, When: "the runtime runs a slash command", Reads: []string{"kind"},
		For: "a command that failed or is unknown steers nothing (CMD-3)"},
	{Type: spec.TypeCompactStart, Need: May},
	{Type: spec.TypeCompactSummary, Need: May},
	{Type: spec.TypeCompactEnd, Need: May},
}
