package loop

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// Expect is what one step must show. Every member is optional; Clause
// names the clause a failure breaks ("trace" when none is given).
type Expect struct {
	Clause   string `json:"clause,omitempty"`
	PlanMode []bool `json:"planMode,omitempty"`
	Notices  *int   `json:"notices,omitempty"`
	Outcome  string `json:"outcome,omitempty"`
	Error    *bool  `json:"error,omitempty"`
	// Active, Pending and NoPending (nothing pending) are what a get step
	// returned, written state: {active, pending: true|false|none} as in a
	// plugin-level trace (MarshalJSON, UnmarshalJSON).
	Active    *bool             `json:"-"`
	Pending   *bool             `json:"-"`
	NoPending bool              `json:"-"`
	Results   map[string]string `json:"results,omitempty"`
	TurnEnd   string            `json:"turnEnd,omitempty"`
	Section   []bool            `json:"section,omitempty"`
	Requests  *int              `json:"requests,omitempty"`
	// Events are the step's events of some types, in log order.
	Events *EventsExpect `json:"events,omitempty"`
	// SectionText is the exact plan:policy text of requests by number.
	SectionText []RequestSection `json:"sectionText,omitempty"`
	// NoticeIn are the requests (by number, from 1) whose messages carry a
	// plan-mode notice.
	NoticeIn []int `json:"noticeIn,omitempty"`
	// Offers is a tool every request of the step offers (it sent one).
	Offers string `json:"offers,omitempty"`
	// Asked are the tool calls, by id, that asked the user.
	Asked []string `json:"asked,omitempty"`
	// Carries is, by tool call id, text its result or error carries.
	Carries map[string]string `json:"carries,omitempty"`
	// Command is the kind the step's command reported.
	Command string `json:"command,omitempty"`
	// Announces is the selection outcome the step's command result
	// announces (capability commandOutcomes).
	Announces string `json:"announces,omitempty"`
}

// Observes names, for each field of Expect (by its JSON name; state is
// Active, Pending and NoPending), the observation kind it compares
// (attribution.Ledger): what it compares and the SPEC.md sentences that
// rest on are there.
var Observes = map[string]string{
	"planMode": attribution.RtPlanMode, "notices": attribution.RtNotices, "outcome": attribution.RtOutcome,
	"error": attribution.RtOutcome, "state": attribution.RtGet, "results": attribution.RtTool,
	"turnEnd": attribution.RtTurnEnd, "section": attribution.RtRequest, "requests": attribution.RtRequest,
	"events": attribution.RtEvents, "sectionText": attribution.RtRequest, "noticeIn": attribution.RtRequest,
	"offers": attribution.RtRequest, "asked": attribution.RtTool, "carries": attribution.RtTool,
	"command": attribution.RtCommand, "announces": attribution.RtCommand,
}

// EventsExpect is the step's events of the given types, in log order, by
// type; a plan/mode event may be named with its value ("plan/mode true").
type EventsExpect struct {
	Types []string `json:"types"`
	Are   []string `json:"are"`
}

// RequestSection is the plan:policy text request Request (from 1) renders,
// at order 50 when it gives an order.
type RequestSection struct {
	Request int    `json:"request"`
	Text    string `json:"text"`
}

// MarshalJSON keeps an empty PlanMode or Section list: "appends nothing"
// is an expectation, and omitempty would drop it from a written trace, so
// the replay would no longer check it. A nil list (no expectation) is
// still left out.
func (x Expect) MarshalJSON() ([]byte, error) {
	type plain Expect
	out := struct {
		plain
		PlanMode *[]bool    `json:"planMode,omitempty"`
		Section  *[]bool    `json:"section,omitempty"`
		State    *stateJSON `json:"state,omitempty"`
	}{plain: plain(x), State: x.state()}
	if x.PlanMode != nil {
		out.PlanMode = &x.PlanMode
	}
	if x.Section != nil {
		out.Section = &x.Section
	}
	return json.Marshal(out)
}

// stateJSON is a get step's result as a trace writes it, the shape of a
// plugin-level trace's state: pending is true, false or "none".
type stateJSON struct {
	Active  *bool           `json:"active,omitempty"`
	Pending json.RawMessage `json:"pending,omitempty"`
}

// state is x's get expectation as written, nil when it has none.
func (x Expect) state() *stateJSON {
	if x.Active == nil && x.Pending == nil && !x.NoPending {
		return nil
	}
	st := &stateJSON{Active: x.Active}
	switch {
	case x.Pending != nil:
		st.Pending = json.RawMessage(strconv.FormatBool(*x.Pending))
	case x.NoPending:
		st.Pending = json.RawMessage(`"none"`)
	}
	return st
}

// UnmarshalJSON reads state: {active, pending} into Active, Pending and
// NoPending.
func (x *Expect) UnmarshalJSON(b []byte) error {
	type plain Expect
	var in struct {
		plain
		State *stateJSON `json:"state"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*x = Expect(in.plain)
	if in.State == nil {
		return nil
	}
	x.Active = in.State.Active
	switch p := string(in.State.Pending); p {
	case "":
	case `"none"`:
		x.NoPending = true
	case "true", "false":
		v := p == "true"
		x.Pending = &v
	default:
		return fmt.Errorf("state.pending: %s is not true, false or \"none\"", p)
	}
	return nil
}

// over returns x with the members it does not set taken from base; the
// lists of requests and tool calls (SectionText, NoticeIn, Asked) and the
// maps by tool call id add to base's instead.
func (x Expect) over(base *Expect) Expect {
	if base == nil {
		return x
	}
	out := *base
	replace(&out.Clause, x.Clause)
	replaceList(&out.PlanMode, x.PlanMode)
	replace(&out.Notices, x.Notices)
	replace(&out.Outcome, x.Outcome)
	replace(&out.Error, x.Error)
	replace(&out.Active, x.Active)
	if x.Pending != nil || x.NoPending {
		out.Pending, out.NoPending = x.Pending, x.NoPending
	}
	addEntries(&out.Results, x.Results)
	replace(&out.TurnEnd, x.TurnEnd)
	replaceList(&out.Section, x.Section)
	replace(&out.Requests, x.Requests)
	replace(&out.Events, x.Events)
	out.SectionText = append(slices.Clip(out.SectionText), x.SectionText...)
	out.NoticeIn = append(slices.Clip(out.NoticeIn), x.NoticeIn...)
	replace(&out.Offers, x.Offers)
	out.Asked = append(slices.Clip(out.Asked), x.Asked...)
	addEntries(&out.Carries, x.Carries)
	replace(&out.Command, x.Command)
	replace(&out.Announces, x.Announces)
	return out
}

// replace sets *dst to v when v is set (not its zero value).
func replace[T comparable](dst *T, v T) {
	var zero T
	if v != zero {
		*dst = v
	}
}

// replaceList sets *dst to v when v is set (not nil: an empty list is an
// expectation).
func replaceList[T any](dst *[]T, v []T) {
	if v != nil {
		*dst = v
	}
}

// addEntries adds the entries of v to *dst, replacing those of the same key.
func addEntries(dst *map[string]string, v map[string]string) {
	if len(v) == 0 {
		return
	}
	// A copy: *dst may still be the map of the expectation it was merged from.
	*dst = maps.Clone(*dst)
	if *dst == nil {
		*dst = map[string]string{}
	}
	maps.Copy(*dst, v)
}

// PlanModeEvents are the active values of the plan/mode events a step
// appended.
func PlanModeEvents(d StepDone) []bool {
	out := []bool{}
	for _, e := range d.Obs.Events {
		if e.Type == spec.TypePlanMode {
			v, _ := spec.PlanModeOf(e.Data)
			out = append(out, v)
		}
	}
	return out
}

// Notices counts the plan-mode notices a step logged.
func Notices(d StepDone) int {
	n := 0
	for _, e := range d.Obs.Events {
		if e.Type != spec.TypeUserMessage {
			continue
		}
		if m, err := sim.MessageOf(e.Data); err == nil && m.IsPlanNotice() {
			n++
		}
	}
	return n
}

// blockedByPlanMode reports whether the step's turn ended blocked, a step
// rejected by the agent/pre-step chain, while no host listener of the
// step's script rejects: plan mode's listener rejected it.
func blockedByPlanMode(d StepDone) bool {
	if TurnEnd(d) != "blocked" {
		return false
	}
	sc := d.Step.ScriptOf()
	return sc == nil || !slices.ContainsFunc(sc.PreSteps, func(p PreStep) bool { return p.Behaviour == sim.Reject })
}

// TurnEnd is the reason kind of the last turn/end a step logged, or "".
func TurnEnd(d StepDone) string {
	reason := ""
	for _, e := range d.Obs.Events {
		if e.Type == spec.TypeTurnEnd {
			reason = sim.TurnEndReason(e.Data)
		}
	}
	return reason
}

// Result is the value a step's result with that id shows: a set outcome
// (or "error"), a command kind, "ok" or "failed" for a tool call, "" when
// there is none.
func Result(d StepDone, id string) string {
	for _, r := range d.Obs.Results {
		if r.ID != id {
			continue
		}
		switch {
		case r.Set != nil && r.Set.Error != "":
			return "error"
		case r.Set != nil:
			return r.Set.Outcome
		case r.Command != nil:
			return r.Command.Kind
		case r.Tool != nil && r.Tool.OK:
			return "ok"
		case r.Tool != nil:
			return "failed"
		case r.Get != nil:
			return fmt.Sprintf("active=%t pending=%s", r.Get.Active, pendingText(r.Get.Pending))
		case r.Append != nil, r.Fault != nil:
			return "done"
		}
	}
	return ""
}

// failureText is the implementation's own text of a failed result with
// that id — a set's error, a command's error reply, a tool call's error —
// quoted after a space, or "" for a result that did not fail.
func failureText(d StepDone, id string) string {
	for _, r := range d.Obs.Results {
		if r.ID != id {
			continue
		}
		text := ""
		switch {
		case r.Set != nil:
			text = r.Set.Error
		case r.Command != nil && r.Command.Kind == "error":
			text = r.Command.Text
		case r.Tool != nil && !r.Tool.OK:
			text = r.Tool.Error
		}
		if text != "" {
			return fmt.Sprintf(" (%q)", text)
		}
	}
	return ""
}

func pendingText(p *bool) string {
	if p == nil {
		return "none"
	}
	return fmt.Sprint(*p)
}

// SectionRendered says, for each request a step sent, whether plan:policy was
// rendered.
func SectionRendered(d StepDone) []bool {
	out := []bool{}
	for _, q := range d.Obs.Requests {
		s, ok := q.Section(spec.SectionName)
		out = append(out, ok && s.Text != "")
	}
	return out
}

// Check compares a step with what it expects; nil when it holds.
func (x Expect) Check(d StepDone) []Finding {
	var out []Finding
	clause := x.Clause
	if clause == "" {
		clause = "trace"
	}
	// fail reports a comparison that failed, naming what it compared: a
	// rule of attribution.Checks or an observation kind, which reports
	// narrow to clauses (attribution.Attribute); the finding is listed
	// under the expectation's own clause.
	// A step the agent/pre-step chain rejected though no host listener of
	// its script rejects was rejected by plan mode's listener, which never
	// does (attribution.ExpNotBlocked): that decision is the step's first
	// observation, so whatever the trace wanted of the step and did not get
	// is named by it (unless the trace wants the turn blocked).
	blocked := blockedByPlanMode(d) && x.TurnEnd != "blocked"
	fail := func(rule, format string, args ...any) {
		if blocked {
			rule = attribution.ExpNotBlocked
		}
		out = append(out, Finding{Clause: clause, Rule: rule, Agent: d.Step.Agent(), Message: fmt.Sprintf(format, args...)})
	}
	if x.PlanMode != nil {
		if got := PlanModeEvents(d); !slices.Equal(got, x.PlanMode) {
			fail(attribution.ObsPlanMode, "plan/mode events appended: got %v, want %v", got, x.PlanMode)
		}
	}
	if x.Notices != nil {
		if got := Notices(d); got != *x.Notices {
			fail(attribution.ObsNotices, "plan-mode notices logged: got %d, want %d", got, *x.Notices)
		}
	}
	if x.Outcome != "" {
		got := ""
		if d.Set != nil {
			got = d.Set.Outcome
		}
		if got != x.Outcome {
			fail(outcomeRule(x.Outcome), "set outcome: got %q, want %q", got, x.Outcome)
		}
	}
	if x.Error != nil {
		got := (d.Set != nil && d.Set.Error != "") || d.Error != ""
		if got != *x.Error {
			fail(attribution.ObsError, "reported an error: got %t, want %t", got, *x.Error)
		}
	}
	if x.Active != nil || x.Pending != nil || x.NoPending {
		if d.Get == nil {
			fail(attribution.ObsGet, "expects get's result, but the step is %s", d.Step.Name())
		} else {
			if x.Active != nil && d.Get.Active != *x.Active {
				fail(attribution.ObsGet, "get active: got %t, want %t", d.Get.Active, *x.Active)
			}
			if x.Pending != nil || x.NoPending {
				if pendingText(d.Get.Pending) != pendingText(x.Pending) {
					fail(pendingRule(d.Get.Pending, x.Pending), "get pending: got %s, want %s", pendingText(d.Get.Pending), pendingText(x.Pending))
				}
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(x.Results)) {
		if got := Result(d, id); got != x.Results[id] {
			fail(resultRule(d, id, got, x.Results[id]), "result %s: got %q%s, want %q", id, orNone(got), failureText(d, id), x.Results[id])
		}
	}
	if x.TurnEnd != "" {
		if got := TurnEnd(d); got != x.TurnEnd {
			fail(attribution.ObsEvents, "turn ended %q, want %q", orNone(got), x.TurnEnd)
		}
	}
	if x.Section != nil {
		if got := SectionRendered(d); !slices.Equal(got, x.Section) {
			fail(sectionRule(d, got, x.Section), "plan:policy rendered per request: got %v, want %v", got, x.Section)
		}
	}
	if x.Requests != nil && len(d.Obs.Requests) != *x.Requests {
		fail(attribution.ObsEvents, "requests sent: got %d, want %d", len(d.Obs.Requests), *x.Requests)
	}
	if x.Events != nil {
		if got := eventsOf(d, x.Events.Types); !namesMatch(got, x.Events.Are) {
			fail(attribution.ObsEvents, "events of types %s: got %s, want %s", strings.Join(x.Events.Types, ", "), strings.Join(got, ", "), strings.Join(x.Events.Are, ", "))
		}
	}
	request := func(n int) (ModelRequest, bool) {
		if n < 1 || n > len(d.Obs.Requests) {
			fail(attribution.ObsRequest, "request %d: the step sent %d requests", n, len(d.Obs.Requests))
			return ModelRequest{}, false
		}
		return d.Obs.Requests[n-1], true
	}
	for _, w := range x.SectionText {
		q, ok := request(w.Request)
		if !ok {
			continue
		}
		switch s, has := q.Section(spec.SectionName); {
		case !has:
			fail(attribution.ObsRequest, "request %d: plan:policy: got none, want %q", w.Request, w.Text)
		case s.Text != w.Text:
			fail(attribution.ObsRequest, "request %d: plan:policy: got %q, want %q", w.Request, s.Text, w.Text)
		case s.Order != nil && *s.Order != spec.SectionOrder:
			fail(attribution.ObsRequest, "request %d: plan:policy order: got %d, want %d", w.Request, *s.Order, spec.SectionOrder)
		}
	}
	for _, n := range x.NoticeIn {
		if q, ok := request(n); ok && !slices.ContainsFunc(q.Messages, Message.IsPlanNotice) {
			fail(attribution.ExpNoticeInReq, "request %d: plan-mode notice: got none among %d messages, want one", n, len(q.Messages))
		}
	}
	if x.Offers != "" {
		if len(d.Obs.Requests) == 0 {
			fail(attribution.ExpToolsOffered, "requests offering %s: got no request, want every request", x.Offers)
		}
		for i, q := range d.Obs.Requests {
			if !slices.Contains(q.Tools, x.Offers) {
				fail(attribution.ExpToolsOffered, "request %d tools: got %v, want %s among them", i+1, q.Tools, x.Offers)
			}
		}
	}
	for _, id := range x.Asked {
		switch t := toolResult(d, id); {
		case t == nil:
			fail(attribution.ObsTool, "tool call %s asked the user: got no result, want asked", id)
		case !t.Asked:
			fail(attribution.ExpPresented, "tool call %s asked the user: got not asked, want asked", id)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(x.Carries)) {
		switch t := toolResult(d, id); {
		case t == nil:
			fail(attribution.ObsTool, "tool call %s carries %q: got no result", id, x.Carries[id])
		case !strings.Contains(t.Error+string(t.Value), x.Carries[id]):
			fail(attribution.ObsTool, "tool call %s: got %q, want it to carry %q", id, t.Error+string(t.Value), x.Carries[id])
		}
	}
	if x.Command != "" && (d.Command == nil || d.Command.Kind != x.Command) {
		got := "(none)"
		if d.Command != nil {
			got = d.Command.Kind
			if d.Command.Text != "" {
				got += fmt.Sprintf(" (%q)", d.Command.Text)
			}
		}
		fail(attribution.ObsCommand, "command reported: got %s, want %s", got, x.Command)
	}
	if x.Announces != "" && (d.Command == nil || d.Command.Outcome != x.Announces) {
		got := "(no command)"
		if d.Command != nil {
			got = orNone(d.Command.Outcome)
		}
		fail(attribution.ObsReply, "command reply announces: got %s, want %s", got, x.Announces)
	}
	return out
}

// sectionRule is what requests whose plan:policy is not the wanted one
// break: when the step appended a plan/mode with the wanted state before a
// request that does not show it, the request was derived before the append
// (STEP-7); otherwise what the requests show follows from the state, whose
// clause the scenario's tags narrow.
func sectionRule(d StepDone, got, want []bool) string {
	for i, q := range d.Obs.Requests {
		if i >= len(got) || i >= len(want) || got[i] == want[i] {
			continue
		}
		last, seen := false, false
		for _, e := range d.Obs.Events {
			if e.Seq < q.At && e.Type == spec.TypePlanMode {
				if v, ok := spec.PlanModeOf(e.Data); ok {
					last, seen = v, true
				}
			}
		}
		if seen && last == want[i] {
			return attribution.ExpRequestAfterAppend
		}
	}
	return attribution.ObsRequest
}

// outcomeRule is what a set outcome that is not the wanted one breaks:
// the clause that gives the wanted outcome.
func outcomeRule(want string) string {
	switch want {
	case spec.Noop:
		return attribution.ExpNoop
	case spec.Queued:
		return attribution.ExpQueued
	case spec.Cancelled:
		return attribution.ExpCancelled
	case spec.Committed:
		return attribution.ExpCommitted
	}
	return attribution.ObsOutcome
}

// pendingRule is what a get's pending that is not the wanted one breaks:
// a selection waiting that get does not show is PEND-7 whatever made it
// wait; any other difference is in what waits (the get observation).
func pendingRule(got, want *bool) string {
	if got == nil && want != nil {
		return attribution.ExpPendingHidden
	}
	return attribution.ObsGet
}

// resultRule is what a host action's or tool call's result that is not the
// wanted one breaks, by the kind of result.
func resultRule(d StepDone, id, got, want string) string {
	for _, r := range d.Obs.Results {
		if r.ID != id {
			continue
		}
		switch {
		case want == "error":
			return attribution.ObsError
		case r.Set != nil:
			// an error or another outcome where this one was due
			return outcomeRule(want)
		case r.Command != nil:
			return attribution.ObsCommand
		case r.Tool != nil && r.Tool.Name == spec.ExitTool && !r.Tool.Asked:
			// The plan was never presented: approved without review, or
			// failed without asking (no seam). One cause, the review seam.
			return attribution.ExpPresented
		case r.Tool != nil && r.Tool.Name != spec.ExitTool:
			// a call of a tool of the host's own: plan mode only guides
			return attribution.ExpHostToolRuns
		case r.Tool != nil:
			return attribution.ObsTool
		case r.Get != nil:
			if strings.Contains(want, "pending=") && !strings.HasSuffix(want, "pending=none") && strings.HasSuffix(got, "pending=none") {
				return attribution.ExpPendingHidden
			}
			return attribution.ObsGet
		}
	}
	// Host code that did not run inside a call of a host tool that failed:
	// the call's failure is what diverged.
	if sc := d.Step.ScriptOf(); sc != nil {
		for _, resp := range sc.Responses {
			for _, c := range resp.Calls {
				if c.Name == spec.ExitTool || !slices.ContainsFunc(c.During, func(h HostAction) bool { return h.ID == id }) {
					continue
				}
				if Result(d, c.ID) == "failed" {
					return attribution.ExpHostToolRuns
				}
			}
		}
	}
	return attribution.ObsEvents
}

// eventsOf names a step's events of the given types in log order, a
// plan/mode event with its value.
func eventsOf(d StepDone, types []string) []string {
	got := []string{}
	for _, e := range d.Obs.Events {
		if slices.Contains(types, e.Type) {
			name := e.Type
			if e.Type == spec.TypePlanMode {
				v, _ := spec.PlanModeOf(e.Data)
				name += " " + strconv.FormatBool(v)
			}
			got = append(got, name)
		}
	}
	return got
}

// namesMatch compares event names with wanted ones, which may leave out a
// plan/mode event's value.
func namesMatch(got, want []string) bool {
	match := len(got) == len(want)
	for i := 0; match && i < len(got); i++ {
		match = got[i] == want[i] || strings.HasPrefix(got[i], want[i]+" ")
	}
	return match
}

// toolResult is the result of the step's tool call id, nil when none.
func toolResult(d StepDone, id string) *ToolResult {
	for _, r := range d.Obs.Results {
		if r.ID == id && r.Tool != nil {
			return r.Tool
		}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// Expectations checks every step's Expect against the record.
func Expectations(rec Record) []Finding {
	var out []Finding
	for i, d := range rec.Steps {
		if d.Step.Expect == nil {
			continue
		}
		for _, f := range d.Step.Expect.Check(d) {
			f.Message = fmt.Sprintf("step %d (%s): %s", i+1, d.Step.Name(), f.Message)
			out = append(out, f)
		}
	}
	return out
}

// Verdict is every finding of a record: expectations, then invariants.
func Verdict(t Trace, rec Record) []Finding {
	return append(Expectations(rec), Invariants(t, rec)...)
}

// Findings is an error made of findings, the first being the observation
// that diverged first.
type Findings []Finding

func (fs Findings) Error() string { return Describe(fs) }

// AttributedClauses is the clause of the first finding: reports count a
// failure under the clause of the observation that diverged.
func (fs Findings) AttributedClauses() []string {
	if len(fs) == 0 || fs[0].Clause == "" {
		return nil
	}
	return []string{fs[0].Clause}
}

// Describe renders findings one per line.
func Describe(fs []Finding) string {
	lines := make([]string, len(fs))
	for i, f := range fs {
		lines[i] = f.String()
	}
	return strings.Join(lines, "\n")
}
