package lint

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// assistantChk is dsh's streamed assistant output, which the simulator
// does not write.
const assistantChk = "assistant/chunk"

// Where a session is relative to turns and steps. Steps are delimited by
// what SPEC.md names: a step's request (its request/header) starts its
// body, and the step is over once its model output has come and every
// tool call it made has its result. step/start and step/end are optional
// events (SPEC.md names neither): a log that has them is read with them,
// one that has none is read without.
type phase int

const (
	idle     phase = iota // no open turn
	boundary              // open turn, before a step's request: where its pre-step runs
	started               // after step/start, before its request/header
	inStep                // after the step's request/header, before its model output and tool results are all in
	retrying              // after llm/retry inside a step: the pre-step may run again (STEP-2)
)

// change is a plan/mode that changed the folded state since the last header.
type change struct {
	line int
	to   bool
	// eligible: the last header showed the other state, so one notice may
	// narrate the change. A change that follows an approved exit_plan_mode
	// is eligible too: set calls are not logged, and a user who cancels the
	// approval (set back to the logged state, PEND-5) and then leaves plan
	// mode makes the same plan/mode, which is narrated (STEP-6). So a log
	// cannot show the approval's exit narrated (EXIT-5).
	eligible bool
	noticed  int
}

// session is the fold of one session's log so far.
type session struct {
	id      string
	seqMode int // 0 unknown, 1 with seq, 2 without
	nextSeq int

	active   bool
	seenPlan bool
	phase    phase
	turn     int
	step     int
	// pendingAt is the line of a plan/mode appended at a pre-step boundary
	// whose step has not yet sent its request header; ranAfter says a step
	// started or produced model output after it (the step ran).
	pendingAt int
	ranAfter  bool
	// header is the state at the last request header; nil before the first.
	header     *bool
	headerLine int
	// uncomposed: the last header showed plan mode not composed (no
	// plan:policy, no exit_plan_mode, no plan/mode appended at its
	// pre-step); composed is the state at the last header that showed it
	// composed (nil before one). What an uncomposed header described is
	// choice unloaded-header (described).
	uncomposed bool
	composed   *bool
	// prevTools is whether the last header that listed its tools listed
	// exit_plan_mode, and the state then; nil before such a header.
	prevTools *[2]bool
	changes   []change
	calls     map[string]call
	// malformed: a plan/mode the fold ignores came since the last header; a
	// notice may narrate it, so notices are not judged until the next header.
	malformed bool
	// unknown: under plan-mode-malformed=either (not judged) a plan/mode
	// with no boolean active came and no plan/mode with one since, so the
	// state in force is not known: nothing is inferred from it until a
	// header's section shows it or a plan/mode sets it.
	unknown bool
	// steer is the message a /plan <message> command must steer into the
	// next request (CMD-3), and the command's line.
	steer     string
	steerLine int
	// answered: the step's assistant message has come; waiting are its
	// tool calls (by id) with no result yet, exitCalls those of them that
	// call exit_plan_mode.
	answered bool
	waiting  map[string]bool
	exitCall bool
}

type call struct {
	name string
	args string
	// active is the state when the model made the call: what the exit
	// tool's gate reads (a change appended during the call is not);
	// unknown says it is not known (see session.unknown).
	active, unknown bool
}

type checker struct {
	rep  *Report
	opts Options
	s    *session
}

func (c *checker) add(e Entry) {
	if c.s != nil && e.Session == "" {
		e.Session = c.s.id
	}
	if len(c.rep.Entries) >= c.opts.maxEntries() {
		if c.rep.Omitted == nil {
			c.rep.Omitted = map[string]int{}
		}
		c.rep.Omitted[e.Level]++
		return
	}
	c.rep.Entries = append(c.rep.Entries, e)
}

func (c *checker) errorf(line int, format string, args ...any) {
	c.add(Entry{Line: line, Level: LevelError, Message: fmt.Sprintf(format, args...)})
}

// findf reports a finding of a rule (attribution.Checks), listed under the
// rule's clause.
func (c *checker) findf(line int, rule, format string, args ...any) {
	c.add(Entry{Line: line, Level: LevelFinding, Clause: attribution.Clause(rule), Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// sentBetween returns the first line in [from, to) after which a request
// was seen sent, when the caller observed the requests.
func (c *checker) sentBetween(from, to int) (int, bool) {
	for _, l := range c.opts.SentAfter {
		if l >= from && l < to {
			return l, true
		}
	}
	return 0, false
}

// startSession begins the fold of a new session. Whatever the previous
// session left open is not a finding: a log may stop mid-turn or mid-step.
func (c *checker) startSession(id string) {
	c.rep.Sessions++
	c.s = &session{id: id, calls: map[string]call{}}
}

func sortEntries(es []Entry) {
	slices.SortStableFunc(es, func(a, b Entry) int { return cmp.Compare(a.Line, b.Line) })
}

// event applies one event to the session's fold and checks the rules.
func (c *checker) event(r row) {
	s := c.s
	switch r.typ {
	case spec.TypePlanMode:
		c.planMode(r)
	case spec.TypeTurnStart:
		s.phase = boundary
		s.turn++
		if t, ok := intField(r.data, "turn"); ok {
			s.turn = t
		}
		s.step = 0
		s.pendingAt = 0
		s.endStep()
	case spec.TypeTurnEnd:
		// An interrupted turn is the process dying (resume closes it): the
		// step may have been accepted.
		reason := sim.TurnEndReason(r.data)
		if s.pendingAt != 0 && reason != "interrupted" {
			if sent, ok := c.sentBetween(s.pendingAt, r.line); ok {
				c.findf(s.pendingAt, attribution.LintHeaderMissing, "the step that appended plan/mode sent its request (after line %d) but logged no request/header for it: the runtime logs a request header for each request it sends, and notices are judged by the last one logged", sent)
			} else if s.ranAfter || reason == "blocked" || reason == "aborted" {
				c.findf(s.pendingAt, attribution.LintRejectedAppends, "plan/mode appended at a pre-step whose step never sent a request: the turn ended instead (turn/end %s at line %d); a rejected or aborted step appends nothing", orUnknown(reason), r.line)
			} else {
				c.findf(s.pendingAt, attribution.LintAppendNotPending, "plan/mode appended after the turn's last step, and no accepted pre-step followed it (turn/end %s at line %d): during an open turn a selection stays pending until the next accepted in-turn pre-step appends it, in whichever turn that happens", orUnknown(reason), r.line)
			}
		}
		// A message steered after the turn's last step waits in the
		// runtime's queue for the next turn: a restart between turns, which
		// no log records, loses it (PEND-8 keeps only the log), so from
		// here on its absence proves nothing.
		s.steer = ""
		s.pendingAt = 0
		s.phase = idle
		s.endStep()
	case spec.TypeStepStart:
		s.ranAfter = s.pendingAt != 0
		s.phase = started
		s.step++
		if t, ok := intField(r.data, "step"); ok {
			s.step = t
		}
	case spec.TypeStepEnd:
		if s.phase != idle {
			s.phase = boundary
		}
		s.endStep()
	case spec.TypeRetry:
		if s.phase == inStep || s.phase == started {
			s.phase = retrying
		}
	case spec.TypeRequestHeader:
		c.header(r)
	case spec.TypeUserMessage:
		c.transcript(r)
		c.userMessage(r)
	case spec.TypeAssistant:
		c.transcript(r)
		c.modelOutput(r)
		c.assistantCalls(r)
		s.answered = true
		c.stepDone()
	case spec.TypeToolCall:
		c.modelOutput(r)
		var d struct {
			CallID    string `json:"callId"`
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		}
		if json.Unmarshal(r.data, &d) == nil && d.CallID != "" {
			s.calls[d.CallID] = call{name: d.Name, args: d.Arguments, active: s.active, unknown: s.unknown}
			s.wait(d.CallID, d.Name)
		}
	case spec.TypeToolResult:
		c.transcript(r)
		c.modelOutput(r)
		c.toolResult(r)
		c.stepDone()
	case assistantChk, "text-chunks", "reasoning-chunks", "tool-call-chunks":
		c.modelOutput(r)
	case spec.TypeCommandRun:
		var d struct {
			Name string `json:"name"`
			Args string `json:"args"`
		}
		if json.Unmarshal(r.data, &d) == nil {
			if cmd := spec.CommandOf(d.Name, d.Args); cmd.IsPlan() && cmd.Message() != "" {
				s.steer, s.steerLine = cmd.Message(), r.line
			}
		}
	case spec.TypeCommandDone:
		var d struct {
			Kind string `json:"kind"`
		}
		if json.Unmarshal(r.data, &d) == nil && d.Kind != "success" {
			s.steer = "" // a failed or unknown command steers nothing
		}
	}
}

// wait records a tool call of the step that has no result yet.
func (s *session) wait(id, name string) {
	if s.phase != inStep {
		return
	}
	if s.waiting == nil {
		s.waiting = map[string]bool{}
	}
	s.waiting[id] = true
	s.exitCall = s.exitCall || name == spec.ExitTool
}

// endStep forgets what the step in progress waited for.
func (s *session) endStep() {
	s.answered, s.waiting, s.exitCall = false, nil, false
}

// stepDone ends the step in progress once its model output has come and
// every tool call it made has its result: what follows runs at the next
// step's pre-step, whether or not the log has step events.
func (c *checker) stepDone() {
	s := c.s
	if s.phase == inStep && s.answered && len(s.waiting) == 0 {
		s.phase = boundary
		s.endStep()
	}
}

// planMode checks a plan/mode event and folds it.
func (c *checker) planMode(r row) {
	s := c.s
	e := sim.Event{Type: spec.TypePlanMode, Data: r.data}
	exact := spec.PlanModeExact(e.Data)
	reading := spec.PlanModeReading{Data: c.opts.PlanModeData, Malformed: c.opts.PlanModeMalformed}
	active, folds := reading.Read(e.Data)
	notJudged := !folds && !spec.HasBooleanActive(e.Data) && c.opts.malformedNotJudged()
	if !exact {
		how := "the fold ignores it"
		switch {
		case notJudged:
			how = "what the fold makes of it is not judged: choice plan-mode-malformed"
		case folds:
			how = "the fold reads its active"
		}
		c.findf(r.line, attribution.LintPlanModeShape, "plan/mode data must be exactly {active: boolean}, got %s (%s)", compact(r.data), how)
	}
	if s.phase != idle {
		switch s.phase {
		case started:
			c.findf(r.line, attribution.LintAppendBeforeStart, "plan/mode appended between step/start and that step's request/header (turn %d step %d): inside a turn only the pre-step listener appends, before the step starts", s.turn, s.step)
		case inStep:
			if s.exitCall {
				c.findf(r.line, attribution.LintExitAtOnce, "plan/mode appended while turn %d step %d was running its exit_plan_mode call (request header at line %d): an approval records a pending exit, appended at the next accepted in-turn pre-step, so plan guidance stays in force for the rest of the tool batch", s.turn, s.step, s.headerLine)
			} else {
				c.findf(r.line, attribution.LintAppendMidStep, "plan/mode appended while turn %d step %d was running (request header at line %d, its model output or tool results still to come): during an open turn a selection stays pending until the next accepted in-turn pre-step appends it, before that step's request is derived", s.turn, s.step, s.headerLine)
			}
		default:
			s.pendingAt, s.ranAfter = r.line, false
		}
	}
	if !folds {
		s.malformed = true
		// The fold ignores a malformed plan/mode (LOG-2 as the reference
		// folds), so it neither changes the state nor repeats it; under
		// plan-mode-malformed=either the state is not known from here.
		s.unknown = s.unknown || notJudged
		return
	}
	if s.unknown {
		s.unknown = false // this plan/mode sets the state, whatever it was
		s.changes = append(s.changes, change{line: r.line, to: active, eligible: c.described(active)})
	} else if active == s.active {
		was := "the fold is already"
		if !s.seenPlan {
			was = "with no plan/mode before it the fold is"
		}
		c.findf(r.line, attribution.LintRepeatedValue, "plan/mode {active:%v} changes nothing (%s %v): every committed change is exactly one appended plan/mode, and nothing else is appended", active, was, s.active)
	} else {
		s.changes = append(s.changes, change{line: r.line, to: active, eligible: c.described(active)})
	}
	s.active = active
	s.seenPlan = true
}

// header reports the state at a request header and checks what the header
// shows when it carries sections and tools.
func (c *checker) header(r row) {
	s := c.s
	c.rep.Headers++
	applied := s.pendingAt
	s.pendingAt = 0
	s.phase = inStep
	s.endStep()
	v := s.active
	msg := fmt.Sprintf("plan mode %s at request/header (turn %d, step %d)", onOff(v), s.turn, s.step)
	var d struct {
		Header struct {
			System json.RawMessage `json:"system"`
			Tools  json.RawMessage `json:"tools"`
		} `json:"header"`
		Reason string `json:"reason"`
	}
	_ = json.Unmarshal(r.data, &d)
	if d.Reason != "" {
		msg += ", reason " + d.Reason
	}
	var sections []sim.Section
	var tools []sim.Tool
	hasSections := json.Unmarshal(d.Header.System, &sections) == nil && d.Header.System != nil && string(d.Header.System) != "null"
	hasTools := json.Unmarshal(d.Header.Tools, &tools) == nil && d.Header.Tools != nil && string(d.Header.Tools) != "null"
	if hasSections {
		policy, found := sectionOf(sections, true)
		listed := hasTools && containsTool(tools, spec.ExitTool)
		if s.unknown && (found || listed) && c.opts.SectionSource != spec.SectionSourcePending {
			// The state not known (plan-mode-malformed=either) is the one
			// the section shows.
			msg = strings.Replace(msg, "plan mode "+onOff(v), "plan mode "+onOff(found), 1)
			v, s.active, s.unknown = found, found, false
		}
		if found {
			msg += "; plan:policy rendered"
			if policy.Order != spec.SectionOrder {
				c.findf(r.line, attribution.LintSectionOrder, "plan:policy rendered at order %d, not %d", policy.Order, spec.SectionOrder)
			}
		} else {
			msg += "; plan:policy absent"
		}
		// Without the section and the tool the plugin is not composed
		// (SVC-2, or a config that failed to load): nothing to compare.
		if found != v && (found || listed) && c.opts.SectionSource != spec.SectionSourcePending && !s.unknown {
			switch {
			case applied != 0 && found == !v:
				c.findf(r.line, attribution.LintHeaderBeforeApply, "the request header shows plan mode %s, the state before the plan/mode at line %d: the step's request must be derived after the append", onOff(!v), applied)
			case found:
				c.findf(r.line, attribution.LintSectionVsLog, "plan:policy rendered while the log says plan mode is inactive")
			default:
				c.findf(r.line, attribution.LintSectionVsLog, "plan:policy absent while the log says plan mode is active")
			}
		}
	}
	if hasTools {
		listed := containsTool(tools, spec.ExitTool)
		_, found := sectionOf(sections, hasSections)
		// A header shows plan mode composed when it renders plan:policy,
		// lists exit_plan_mode, or follows a plan/mode this step's
		// pre-step appended (only plan mode appends there, STEP-1). One
		// that shows none of these may have been logged while plan mode
		// was unloaded (SVC-2), which the log does not record, so only
		// composed headers are compared.
		if found || listed || applied != 0 {
			if p := s.prevTools; p != nil && p[0] != listed && p[1] != v && !s.unknown {
				c.findf(r.line, attribution.LintCatalogFlips, "exit_plan_mode is listed while plan mode is %s and not while %s: the tool catalog must not change with the state", onOff(whenListed(listed, v, p[1])), onOff(!whenListed(listed, v, p[1])))
			}
			s.prevTools = &[2]bool{listed, v}
		}
	}
	c.add(Entry{Line: r.line, Level: LevelInfo, Message: msg, Active: &v})
	if s.steer != "" {
		c.findf(r.line, attribution.LintNotSteered, "/plan <message> at line %d did not steer its message into the next request: no user/message %s before this header", s.steerLine, quoteStart(s.steer))
		s.steer = ""
	}
	s.header = &v
	s.headerLine = r.line
	_, found := sectionOf(sections, hasSections)
	s.uncomposed = !found && !(hasTools && containsTool(tools, spec.ExitTool)) && applied == 0
	if !s.uncomposed {
		s.composed = &v
	}
	s.changes = nil
	s.malformed = s.unknown // notices are not judged while the state is not known
}

// described reports whether a change to active is one a notice may
// narrate: the last header described the other state (STEP-6). After a
// header logged while plan mode was not composed, what it described is
// choice unloaded-header: the fold (fold), inactive (shown, no plan
// guidance), or what the last composed header described (skipped); under
// either, a change any reading makes due is eligible.
func (c *checker) described(active bool) bool {
	s := c.s
	other := func(h *bool) bool { return h != nil && *h != active }
	if !s.uncomposed {
		return other(s.header)
	}
	inactive := false
	switch c.opts.UnloadedHeader {
	case spec.UnloadedHeaderFold:
		return other(s.header)
	case spec.UnloadedHeaderShown:
		return other(&inactive)
	case spec.UnloadedHeaderSkipped:
		return other(s.composed)
	}
	return other(s.header) || other(&inactive) || other(s.composed)
}

// sectionOf returns the plan:policy section among a header's sections, and
// whether it is there.
func sectionOf(sections []sim.Section, has bool) (sim.Section, bool) {
	if !has {
		return sim.Section{}, false
	}
	for _, sec := range sections {
		if sec.Name == spec.SectionName {
			return sec, true
		}
	}
	return sim.Section{}, false
}

func whenListed(listed, v, prev bool) bool {
	if listed {
		return v
	}
	return prev
}

func containsTool(ts []sim.Tool, name string) bool {
	for _, t := range ts {
		if t.Name == name {
			return true
		}
	}
	return false
}

// userMessage checks a plan-mode notice against the changes since the last
// header (STEP-6, EXIT-5).
func (c *checker) userMessage(r row) {
	var d struct {
		Source sim.Source `json:"source"`
	}
	if json.Unmarshal(r.data, &d) != nil {
		return
	}
	s := c.s
	if d.Source.Kind != "plugin" || d.Source.Plugin != spec.PluginName {
		if s.steer != "" {
			if m, err := sim.MessageOf(r.data); err == nil && strings.TrimSpace(m.Text) == s.steer {
				s.steer = ""
			}
		}
		return
	}
	if s.malformed {
		return
	}
	for i := range s.changes {
		if s.changes[i].eligible && s.changes[i].noticed == 0 {
			s.changes[i].noticed++
			return
		}
	}
	for _, ch := range s.changes {
		if ch.eligible {
			c.findf(r.line, attribution.LintSecondNotice, "a second plan-mode notice for the change at line %d: at most one notice per change", ch.line)
			return
		}
	}
	switch {
	case len(s.changes) == 0 && s.header == nil:
		c.findf(r.line, attribution.LintNoticeNoChange, "a plan-mode notice with no plan-mode change and no request header before it")
	case len(s.changes) == 0:
		c.findf(r.line, attribution.LintNoticeNoChange, "a plan-mode notice, but the plan state has not changed since the last request header (line %d)", s.headerLine)
	case s.header == nil:
		c.findf(r.line, attribution.LintNoticeNoChange, "a plan-mode notice for the change at line %d, but no request header came before it: with no header yet there is no notice", s.changes[0].line)
	default:
		c.findf(r.line, attribution.LintNoticeNoChange, "a plan-mode notice for the change at line %d, but the last request header (line %d) already showed plan mode %s", s.changes[len(s.changes)-1].line, s.headerLine, onOff(*s.header))
	}
}

// modelOutput: model output in a step means the step's request was sent;
// a plan/mode still waiting for a header at a retry was never shown.
func (c *checker) modelOutput(r row) {
	s := c.s
	s.ranAfter = s.ranAfter || s.pendingAt != 0
	if s.pendingAt != 0 && s.phase == retrying {
		c.findf(s.pendingAt, attribution.LintRetryUnshown, "plan/mode appended at a request-recovery retry that sent no new request header (model output at line %d): the retried request did not reflect it", r.line)
		s.pendingAt = 0
	}
	if s.phase == retrying {
		s.phase = inStep
	}
}

// assistantCalls records the tool calls an assistant message carries.
func (c *checker) assistantCalls(r row) {
	var d struct {
		Message struct {
			Content []struct {
				Type      string `json:"type"`
				ID        string `json:"id"`
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(r.data, &d) != nil {
		return
	}
	for _, p := range d.Message.Content {
		if p.Type == "tool-call" && p.ID != "" {
			c.s.calls[p.ID] = call{name: p.Name, args: p.Arguments, active: c.s.active, unknown: c.s.unknown}
			c.s.wait(p.ID, p.Name)
		}
	}
}

// toolResult checks a tool result of exit_plan_mode (EXIT-2, EXIT-3).
func (c *checker) toolResult(r row) {
	var d struct {
		Message struct {
			Source struct {
				CallID string `json:"callId"`
			} `json:"source"`
			Content []struct {
				ToolCallID string `json:"toolCallId"`
				IsError    bool   `json:"isError"`
			} `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(r.data, &d) != nil {
		return
	}
	id := d.Message.Source.CallID
	failed := false
	for _, p := range d.Message.Content {
		if id == "" {
			id = p.ToolCallID
		}
		failed = failed || p.IsError
	}
	s := c.s
	delete(s.waiting, id)
	cl, ok := s.calls[id]
	if !ok || cl.name != spec.ExitTool || failed {
		return
	}
	if !cl.active && !cl.unknown {
		c.findf(r.line, attribution.LintExitOutsidePlan, "exit_plan_mode succeeded for a call the model made while the log said plan mode is inactive: outside plan mode it fails")
		return
	}
	var args struct {
		Plan *string `json:"plan"`
	}
	if json.Unmarshal([]byte(cl.args), &args) == nil && args.Plan != nil && !spec.PlanOpensWithLevel1Heading(*args.Plan) {
		c.findf(r.line, attribution.LintExitNoHeading, "exit_plan_mode succeeded for a plan that does not open with a level-1 # heading (%s)", quoteStart(*args.Plan))
	}
}

// transcript checks that a transcript message carries no plan/mode (LOG-1).
func (c *checker) transcript(r row) {
	var v any
	if json.Unmarshal(r.data, &v) != nil {
		return
	}
	if hasPlanMode(v) {
		c.findf(r.line, attribution.LintPlanInTranscript, "%s carries a plan/mode in the transcript: plan/mode is log-only and never part of the model's messages", r.typ)
	}
}

func hasPlanMode(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		if t, ok := x["type"].(string); ok && t == spec.TypePlanMode {
			return true
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if hasPlanMode(x[k]) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasPlanMode(e) {
				return true
			}
		}
	}
	return false
}

func intField(data json.RawMessage, name string) (int, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return 0, false
	}
	var v int
	if err := json.Unmarshal(m[name], &v); err != nil {
		return 0, false
	}
	return v, true
}

func orUnknown(s string) string {
	if s == "" {
		return "with no reason"
	}
	return s
}

func onOff(active bool) string {
	if active {
		return "active"
	}
	return "inactive"
}

func compact(data json.RawMessage) string {
	s := string(sim.Canonical(data))
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return s
}

func quoteStart(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return fmt.Sprintf("%q", s)
}
