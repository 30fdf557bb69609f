package attribution

import (
	"fmt"
	"strings"

	"github.com/plankit/plankit/spec"
)

// Quote is the words of a SPEC.md sentence that a comparison rests on, and
// the clause they are in, as SPEC.md writes them (code quotes aside).
type Quote struct {
	Clause string
	Words  string
}

// Compared is one observation kind as every check compares it: what is
// compared, what is left to the implementation (its words, an order
// SPEC.md does not fix, the runtime's own things), and the SPEC.md
// sentences it rests on. Ledger holds one per observation kind; the
// scenario steps, the model's predictions (trace and loop expectations),
// lockstep at both levels and the runtime-level rules compare nothing
// that is not in it.
type Compared struct {
	Kind     string
	Compares string
	Leaves   string
	Rests    []Quote
}

// Ledger is what the checks compare, one entry per observation kind, and
// the SPEC.md sentences each rests on. docs/lockstep.md carries it as a
// generated table; TestEveryComparisonRestsOnSpecMD (cmd/plankit) holds
// every quote to SPEC.md's text, every observation kind of Table and every
// expectation field to an entry, and every rule of Checks to a quote.
var Ledger = []Compared{
	{ObsLoadError, "whether the config is accepted or refused", "the error's words",
		[]Quote{{"CFG-1", "A missing, blank or non-string section, and any unknown key, fail at plugin load; nothing is silently ignored."}}},
	{ObsError, "whether set, foldPlanMode or a command reports an error", "the error's words",
		[]Quote{{"LOG-2", "foldPlanMode(events, end?) returns the active of the last plan/mode among events[0:end)"}, {"STEP-5", "A failed append does not block the turn"}}},
	{ObsOutcome, "set's outcome", "",
		[]Quote{{"SVC-1", "set(agent, active): 'committed' | 'queued' | 'cancelled' | 'noop'"}}},
	{ObsCommand, "whether /plan is registered, its reply's kind (success or error) and, when both sides report it, the selection outcome the reply announces", "the reply's words",
		[]Quote{{"CMD-1", "/plan [off|message] is registered only when the commands service is composed."}}},
	{ObsDecision, "the chain's decision for a step: accept, reject or abort", "",
		[]Quote{{"STEP-5", "the step goes on with the downstream decision"}, {"SVC-3", "Plan mode is soft guidance"}}},
	{ObsTool, "each tool call's result: success or failure, an approval (a result whose approved is true), whether the plan was presented for review, whether a failure carries the user's feedback", "the words of a failure, fields of a result besides approved",
		[]Quote{{"EXIT-2", "Executing it outside plan mode fails."}, {"EXIT-5", "Approval returns { approved: true }"}, {"EXIT-6", "\"Keep planning\" fails the call, carrying the user's feedback"}}},
	{ObsOrder, "whether the plugin called the downstream listeners before its append", "",
		[]Quote{{"STEP-3", "It calls the downstream listeners first, and appends only when their decision accepts the step"}}},
	{ObsSteer, "the text /plan <message> steers", "",
		[]Quote{{"CMD-3", "then sends the text through agent.steer()"}}},
	{ObsPlanMode, "the plan/mode events appended, their values and data", "",
		[]Quote{{"LOG-1", "plan/mode is a session event with data { active: boolean }."}, {"LOG-4", "Every committed change is exactly one appended plan/mode event"}}},
	{ObsAttempts, "the plan/mode appends attempted, failed ones included, when the logs agree", "",
		[]Quote{{"STEP-5", "the selection stays pending for a later accepted in-turn pre-step"}}},
	{ObsExitAppend, "an approved exit appended during the exit tool's call", "",
		[]Quote{{"EXIT-5", "records a silent (never narrated) pending exit, appended at the next accepted in-turn pre-step"}}},
	{ObsNotices, "how many plan-mode notices (plugin-sourced user/messages of plan mode) an action logs", "their words, summary and form, and where they sit among their step's messages",
		[]Quote{{"STEP-6", "the plugin records exactly one plugin-sourced user/message notice"}}},
	{ObsEvents, "every event appended, in log order, each by type and data", "a notice's words and its place among its step's messages, the text of a tool result and of a command's reply, where exit_plan_mode sits among the host's tools in a request/header",
		[]Quote{{"STEP-7", "The append happens before request derivation"}}},
	{ObsRequest, "each request: its sections (name, order, text), its tool catalog (the host's tools in order, exit_plan_mode once), its messages (a notice counted, not read)", "where exit_plan_mode sits among the host's tools, a notice's words and its place among the step's messages",
		[]Quote{{"CFG-2", "the exact section text is rendered as the system-prompt section named plan:policy at order 50"}, {"EXIT-1", "never the request's tool catalog"}, {"STEP-7", "the notice is part of that step's messages"}}},
	{ObsGet, "get's active and pending", "",
		[]Quote{{"PEND-7", "get(agent) returns { active, pending? }"}}},
	{ObsFold, "foldPlanMode's value", "",
		[]Quote{{"LOG-2", "returns the active of the last plan/mode among events[0:end); false when there is none"}}},
	{ObsListener, "whether the plugin registers its pre-step listener prepended, and whether it runs at every step (a step a listener registered before it rejects too)", "",
		[]Quote{{"STEP-1", "which is prepended (it runs first and wraps all the others)"}}},
	{ObsUnload, "what the plugin still registers after an unload (a listener, tools, sections, commands: by name)", "",
		[]Quote{{"SVC-2", "no `plan/mode` event, section, tool or command exists"}}},
	{ObsReply, "the selection outcome a /plan reply announces, against what the selection did", "the reply's words",
		[]Quote{{"SVC-1", "set(agent, active): 'committed' | 'queued' | 'cancelled' | 'noop'"}}},

	{RtLoadError, "whether the config is accepted or refused", "the error's words",
		[]Quote{{"CFG-1", "A missing, blank or non-string section, and any unknown key, fail at plugin load; nothing is silently ignored."}}},
	{RtError, "whether a step (a reload during a review, a restart) reports an error", "the error's words",
		[]Quote{{"EXIT-7", "a reload of the service while the review is open, fails the call"}, {"PEND-8", "after restart the state is the log fold"}}},
	{RtOutcome, "set's outcome, a step's or a host action's", "",
		[]Quote{{"SVC-1", "set(agent, active): 'committed' | 'queued' | 'cancelled' | 'noop'"}}},
	{RtCommand, "a command's result kind (success, error, unknown) and, when both sides report it, the outcome it announces", "the reply's words",
		[]Quote{{"CMD-1", "/plan [off|message] is registered only when the commands service is composed."}}},
	{RtPlanMode, "the plan/mode events a step appends, their values and data", "",
		[]Quote{{"LOG-1", "plan/mode is a session event with data { active: boolean }."}, {"LOG-4", "Every committed change is exactly one appended plan/mode event"}}},
	{RtSkipped, "whether a step whose messages a host listener took sends a request", "",
		[]Quote{{"PEND-2", "A selection never forces continuation: no step or turn is started because of it."}}},
	{RtNotices, "how many plan-mode notices a step logs", "their words, summary and form, and where they sit among the step's messages",
		[]Quote{{"STEP-6", "the plugin records exactly one plugin-sourced user/message notice"}}},
	{RtActive, "get's active (the state in force)", "",
		[]Quote{{"PEND-7", "active is the logged state (the one the current step was assembled with)"}, {"LOG-3", "The state in force is always a pure function of the log (the fold): no live mirror."}}},
	{RtTool, "each tool call's result: success or failure, an approval (approved is true), whether the plan was presented, whether a failure carries the user's feedback", "the words of a failure, fields of a result besides approved",
		[]Quote{{"EXIT-4", "It presents the plan for review through the abstract user-questions seam."}, {"EXIT-5", "Approval returns { approved: true }"}, {"EXIT-6", "\"Keep planning\" fails the call, carrying the user's feedback"}}},
	{RtEvents, "plan mode's events in log order: plan/mode (value), request/header, plan-mode notices", "the runtime's own events, their data and names, whether it logs step events, a header's and a notice's words",
		[]Quote{{"STEP-7", "The append happens before request derivation"}}},
	{RtRequest, "each request as sent: plan mode's sections (name, order, text), the host's tools in order with exit_plan_mode once, how many plan-mode notices its messages carry", "the runtime's own sections, their words and where plan mode's sit among them, the runtime's own tools and where exit_plan_mode sits, how it renders the model's and tools' messages, a notice's words and its place",
		[]Quote{{"CFG-2", "the exact section text is rendered as the system-prompt section named plan:policy at order 50"}, {"EXIT-1", "never the request's tool catalog"}, {"STEP-7", "the notice is part of that step's messages"}}},
	{RtTurnEnd, "how a turn ended: completed, blocked (a step rejected), aborted", "",
		[]Quote{{"STEP-5", "A failed append does not block the turn"}, {"SVC-3", "Plan mode is soft guidance"}}},
	{RtGet, "get's pending", "",
		[]Quote{{"PEND-7", "pending is present exactly when a selection is waiting to be appended, and is that selection"}}},
}

// LedgerOf returns the ledger entry of an observation kind.
func LedgerOf(kind string) (Compared, bool) {
	for _, c := range Ledger {
		if c.Kind == kind {
			return c, true
		}
	}
	return Compared{}, false
}

// LedgerMarkdown renders the ledger as the table docs/lockstep.md carries.
func LedgerMarkdown() string {
	var b strings.Builder
	b.WriteString("| observation | compared | left to the implementation | SPEC.md |\n|---|---|---|---|\n")
	for _, c := range Ledger {
		var rests []string
		for _, q := range c.Rests {
			rests = append(rests, fmt.Sprintf("%s: %q", q.Clause, q.Words))
		}
		leaves := c.Leaves
		if leaves == "" {
			leaves = "—"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", c.Kind, c.Compares, leaves, strings.Join(rests, "; "))
	}
	return b.String()
}

// LedgerProblems names every comparison that does not rest on SPEC.md's
// text as listed gives it (spec.ListedIn of SPEC.md): an entry of ledger with no
// quote, a quote whose words its clause does not have, a rule of checks
// with none, an observation kind in kinds with no entry.
func LedgerProblems(listed []spec.Listed, ledger []Compared, checks []Check, kinds []string) []string {
	clauses := map[string]string{}
	for _, c := range listed {
		clauses[c.ID] = c.Text
	}
	var out []string
	holds := func(where string, q Quote) {
		text, ok := clauses[q.Clause]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s: clause %s is not in SPEC.md", where, q.Clause))
		case q.Words == "":
			out = append(out, fmt.Sprintf("%s: a quote of %s with no words", where, q.Clause))
		case !strings.Contains(text, spec.Plain(q.Words)):
			out = append(out, fmt.Sprintf("%s: %s does not say %q", where, q.Clause, q.Words))
		}
	}
	in := map[string]bool{}
	for _, c := range ledger {
		in[c.Kind] = true
		if len(c.Rests) == 0 {
			out = append(out, fmt.Sprintf("observation %q rests on no SPEC.md sentence", c.Kind))
		}
		for _, q := range c.Rests {
			holds("observation "+c.Kind, q)
		}
	}
	for _, k := range kinds {
		if !in[k] {
			out = append(out, fmt.Sprintf("observation %q is compared but not in the ledger", k))
		}
	}
	for _, c := range checks {
		if c.Rests.Clause == "" {
			out = append(out, fmt.Sprintf("rule %s rests on no SPEC.md sentence", c.ID))
			continue
		}
		holds("rule "+c.ID, c.Rests)
	}
	return out
}

// Kinds is every observation kind Table's rows name (RtAny aside).
func Kinds() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range Table {
		if !seen[r.Observation] && r.Observation != RtAny {
			seen[r.Observation] = true
			out = append(out, r.Observation)
		}
	}
	return out
}
