package spec

import (
	"regexp"
	"slices"
	"strings"
)

// SuiteVersion is the version of the conformance suite: the clause set and
// the checks that state it. A clause records the suite version it entered.
const SuiteVersion = "1.0.0"

// Clause IDs, each as a constant: code that tags a check, a mutant or an
// event with a clause names it here, and attribution names failures by
// them (package attribution), so no other package spells a clause ID.
const (
	LOG1  = "LOG-1"
	LOG2  = "LOG-2"
	LOG3  = "LOG-3"
	LOG4  = "LOG-4"
	PEND1 = "PEND-1"
	PEND2 = "PEND-2"
	PEND3 = "PEND-3"
	PEND4 = "PEND-4"
	PEND5 = "PEND-5"
	PEND6 = "PEND-6"
	PEND7 = "PEND-7"
	PEND8 = "PEND-8"
	STEP1 = "STEP-1"
	STEP2 = "STEP-2"
	STEP3 = "STEP-3"
	STEP4 = "STEP-4"
	STEP5 = "STEP-5"
	STEP6 = "STEP-6"
	STEP7 = "STEP-7"
	CFG1  = "CFG-1"
	CFG2  = "CFG-2"
	EXIT1 = "EXIT-1"
	EXIT2 = "EXIT-2"
	EXIT3 = "EXIT-3"
	EXIT4 = "EXIT-4"
	EXIT5 = "EXIT-5"
	EXIT6 = "EXIT-6"
	EXIT7 = "EXIT-7"
	CMD1  = "CMD-1"
	CMD2  = "CMD-2"
	CMD3  = "CMD-3"
	CMD4  = "CMD-4"
	SVC1  = "SVC-1"
	SVC2  = "SVC-2"
	SVC3  = "SVC-3"
	SVC4  = "SVC-4"
)

// Group is a clause group of SPEC.md (LOG, PEND, ...).
type Group struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// Clause is one numbered clause of SPEC.md, restated in plankit's words.
type Clause struct {
	// ID is the stable clause ID, GROUP-N; IDs are never renumbered.
	ID    string `json:"id"`
	Group string `json:"group"`
	// Statement is the normative statement the checks hold an
	// implementation to.
	Statement string `json:"statement"`
	// Since is the suite version the clause entered.
	Since string `json:"since"`
	// Choices names the silent-point choices that refine the clause (those
	// of Choices that list it): checks of the clause that depend on one are
	// tagged with it.
	Choices []string `json:"choices,omitempty"`
}

// Groups lists the clause groups in SPEC.md order.
var Groups = []Group{
	{"LOG", "Logged state and recovery"},
	{"PEND", "Pending selections"},
	{"STEP", "The pre-step append"},
	{"CFG", "Configuration and the prompt section"},
	{"EXIT", "The exit tool"},
	{"CMD", "The /plan command"},
	{"SVC", "The service"},
}

// clauseShape is the shape of a clause ID: an upper-case group, a dash and
// a number. It is declared here only; every reader of clause IDs (tags,
// SPEC.md's list) matches it through ClausePattern or Listed.
const clauseShape = `[A-Z]+-[0-9]+`

// ClausePattern matches anything shaped like a clause ID. Whether such an
// ID names a clause is Lookup's answer, so citations of an unknown clause
// can be reported as unknown rather than passed over.
var ClausePattern = regexp.MustCompile(`^` + clauseShape + `$`)

// specBullet is how SPEC.md lists a clause: a bullet that starts "- **ID**".
var specBullet = regexp.MustCompile(`(?m)^- \*\*(` + clauseShape + `)\*\*`)

// Listed is a clause as SPEC.md lists it: its ID and its text, the bullet
// up to the next clause or heading in Plain form.
type Listed struct {
	ID, Text string
}

// ListedIn returns the clauses SPEC.md's text lists, in its order (none
// when it lists none).
func ListedIn(specMD string) []Listed {
	var out []Listed
	idx := specBullet.FindAllStringSubmatchIndex(specMD, -1)
	for i, m := range idx {
		end := len(specMD)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		body := specMD[m[1]:end]
		if h := strings.Index(body, "\n#"); h >= 0 {
			body = body[:h]
		}
		out = append(out, Listed{ID: specMD[m[2]:m[3]], Text: Plain(body)})
	}
	return out
}

// Plain is SPEC.md text as it is compared with quotes of it: code quotes
// taken out and whitespace run together.
func Plain(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "`", "")), " ")
}

// ClauseTag returns the clause ID a Gherkin tag such as @PEND-5 cites, and
// whether the tag is shaped like a clause ID at all.
func ClauseTag(tag string) (string, bool) {
	id, ok := strings.CutPrefix(tag, "@")
	return id, ok && ClausePattern.MatchString(id)
}

const v1 = "1.0.0"

// Clauses lists every clause of SPEC.md in document order. Their Choices
// are filled from the choice table (Choices).
var Clauses = withChoices([]Clause{
	{ID: LOG1, Group: "LOG", Since: v1, Statement: "`plan/mode` is a session event whose data is exactly `{active: boolean}`. It lives only in the log, never in the model's transcript, and each one replaces the whole value."},
	{ID: LOG2, Group: "LOG", Since: v1, Statement: "`foldPlanMode(events, end?)` is the `active` of the last `plan/mode` among `events[0:end)`, `false` when there is none; `end` defaults to the whole log."},
	{ID: LOG3, Group: "LOG", Since: v1, Statement: "The state in force is a pure function of the log, with no live mirror: resume in a new process, fork from a copy of the log and compaction all recover it from the log alone."},
	{ID: LOG4, Group: "LOG", Since: v1, Statement: "Every committed change is exactly one appended `plan/mode`, so a watcher of appended events sees every committed flip, and nothing else flips the state."},

	{ID: PEND1, Group: "PEND", Since: v1, Statement: "During an open turn a selection (`set`) appends nothing: it stays pending until the next accepted in-turn pre-step appends it before the request is derived, in whichever turn that happens."},
	{ID: PEND2, Group: "PEND", Since: v1, Statement: "A selection never starts a step or a turn. One made after a turn's last accepted pre-step is appended in a later turn."},
	{ID: PEND3, Group: "PEND", Since: v1, Statement: "`set(agent, active)` returns `noop` and changes nothing when `active` equals the pending selection or, with none pending, the logged state."},
	{ID: PEND4, Group: "PEND", Since: v1, Statement: "During an open turn, `set` to the state opposite the logged one records the selection and returns `queued`."},
	{ID: PEND5, Group: "PEND", Since: v1, Statement: "During an open turn, `set` back to the logged state while the opposite is pending clears the pending selection and returns `cancelled`."},
	{ID: PEND6, Group: "PEND", Since: v1, Statement: "With no open turn (between turns, post-turn checkpointing included), `set` to a new state appends `plan/mode` at once and returns `committed`; `set` back to the logged state while a leftover opposite selection is pending clears it, appends nothing and returns `cancelled`."},
	{ID: PEND7, Group: "PEND", Since: v1, Statement: "`get(agent)` returns `{active, pending?}`: `active` is the logged state the current step was assembled with; `pending` is present exactly when a selection waits to be appended, and is that selection."},
	{ID: PEND8, Group: "PEND", Since: v1, Statement: "Pending selections are process-local: one made after the last accepted pre-step is lost if the process exits first, and after a restart the state is the log fold. Nothing else is lost."},

	{ID: STEP1, Group: "STEP", Since: v1, Statement: "While an agent runs, only the plugin's `agent/pre-step` listener appends `plan/mode`, and it is registered with prepend: it runs first and wraps every other listener."},
	{ID: STEP2, Group: "STEP", Since: v1, Statement: "The listener sees every proposed request step: the first step of a turn, continuation steps and request-recovery retries."},
	{ID: STEP3, Group: "STEP", Since: v1, Statement: "The listener calls the downstream listeners first and appends only when their decision accepts the step; a rejected or aborted step appends nothing and the selection stays pending."},
	{ID: STEP4, Group: "STEP", Since: v1, Statement: "Prompt admission never appends `plan/mode`: a selection made at the prompt is appended by the first accepted in-turn pre-step of the turn that prompt starts (before admission, with no turn open, it commits at once by PEND-6)."},
	{ID: STEP5, Group: "STEP", Since: v1, Statement: "A failed append does not block the turn: the step proceeds with the downstream decision and the selection stays pending for a later accepted in-turn pre-step."},
	{ID: STEP6, Group: "STEP", Since: v1, Statement: "When a user's selection is appended (at a pre-step or by an idle `set`) the plugin records exactly one plugin-sourced `user/message` notice, and only when the last logged `request/header` showed the other state; with no header yet, or one already showing the new state, there is no notice."},
	{ID: STEP7, Group: "STEP", Since: v1, Statement: "The append happens before request derivation, so that step's request header and system prompt already reflect the new state and the notice is among that step's messages."},

	{ID: CFG1, Group: "CFG", Since: v1, Statement: "The config is exactly `{section: string}`: a missing, blank or non-string `section`, or any unknown key, fails the plugin load; nothing is ignored."},
	{ID: CFG2, Group: "CFG", Since: v1, Statement: "While plan mode is active the exact `section` text is rendered as the system-prompt section `plan:policy` at order 50; while inactive the plugin contributes no section text."},

	{ID: EXIT1, Group: "EXIT", Since: v1, Statement: "`exit_plan_mode` is registered whether or not plan mode is active: changing the state changes only the prompt section, never the request's tool catalog."},
	{ID: EXIT2, Group: "EXIT", Since: v1, Statement: "Executing `exit_plan_mode` outside plan mode fails."},
	{ID: EXIT3, Group: "EXIT", Since: v1, Statement: "In plan mode `exit_plan_mode` requires a complete markdown plan starting with a `#` heading; anything else fails."},
	{ID: EXIT4, Group: "EXIT", Since: v1, Statement: "`exit_plan_mode` presents the plan for review through the abstract user-questions seam."},
	{ID: EXIT5, Group: "EXIT", Since: v1, Statement: "Approval returns `{approved: true}` and records a silent, never narrated, pending exit that the next accepted in-turn pre-step appends; plan guidance stays for the rest of the current tool batch."},
	{ID: EXIT6, Group: "EXIT", Since: v1, Statement: "\"Keep planning\" fails the call carrying the user's feedback, and plan mode stays on so the model can revise and present again."},
	{ID: EXIT7, Group: "EXIT", Since: v1, Statement: "With no interaction channel, or when the service is reloaded while the review is open, the call fails; plan mode is never left implicitly."},

	{ID: CMD1, Group: "CMD", Since: v1, Statement: "`/plan [off|message]` is registered only when the commands service is composed."},
	{ID: CMD2, Group: "CMD", Since: v1, Statement: "Bare `/plan` selects plan mode."},
	{ID: CMD3, Group: "CMD", Since: v1, Statement: "`/plan <message>` (any other non-empty argument) selects plan mode, then sends the text through `agent.steer()`, so it becomes the next step's ordinary logged user message under plan guidance."},
	{ID: CMD4, Group: "CMD", Since: v1, Statement: "The exact argument `off` selects inactive and cancels a pending entry before it is appended, so no request ever sees it."},

	{ID: SVC1, Group: "SVC", Since: v1, Statement: "The service exposes `get(agent): {active, pending?}` and `set(agent, active): committed | queued | cancelled | noop`, and owns the logged state, the step-start application and narration of selections, the `plan:policy` section, the `/plan` command and the stable exit tool."},
	{ID: SVC2, Group: "SVC", Since: v1, Statement: "The package is optional: the agent loop runs without it, and then no `plan/mode` event, section, tool or command exists."},
	{ID: SVC3, Group: "SVC", Since: v1, Statement: "Plan mode is soft guidance: sandbox mode and approval policy neither read nor write plan state."},
	{ID: SVC4, Group: "SVC", Since: v1, Statement: "The service catalog (the `get`/`set` signatures with their doc comments) is generated from source and verified fresh; the generated block is byte-identical wherever it is shown."},
})

// withChoices fills each clause's Choices from the choice table, in the
// table's order.
func withChoices(clauses []Clause) []Clause {
	for i := range clauses {
		for _, ch := range Choices {
			if slices.Contains(ch.Clauses, clauses[i].ID) {
				clauses[i].Choices = append(clauses[i].Choices, ch.Name)
			}
		}
	}
	return clauses
}

// Lookup returns the clause with the given ID.
func Lookup(id string) (Clause, bool) {
	i := slices.IndexFunc(Clauses, func(c Clause) bool { return c.ID == id })
	if i < 0 {
		return Clause{}, false
	}
	return Clauses[i], true
}

// ClauseIDs returns every clause ID in document order.
func ClauseIDs() []string {
	ids := make([]string, len(Clauses))
	for i, c := range Clauses {
		ids[i] = c.ID
	}
	return ids
}
