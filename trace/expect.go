package trace

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// Expect is what must hold after an action. Every field is optional.
type Expect struct {
	// Agent is the agent the expectation reads; default the action's.
	Agent    string        `json:"agent,omitempty"`
	Outcome  string        `json:"outcome,omitempty"`
	Error    *bool         `json:"error,omitempty"`
	State    *StateExpect  `json:"state,omitempty"`
	PlanMode []bool        `json:"planMode,omitempty"`
	Appended []EventExpect `json:"appended,omitempty"`
	// Started is whether the action started a turn or a step.
	Started *bool `json:"started,omitempty"`
	// UserMessages are texts of user messages (from the user) the action
	// logged, each among them.
	UserMessages []string `json:"userMessages,omitempty"`
	// Order lists event types whose first appended events come in this
	// order, each present (other events may come between).
	Order    []string `json:"order,omitempty"`
	Notices  *int     `json:"notices,omitempty"`
	Decision string   `json:"decision,omitempty"`
	// Requests is how many model requests the action sent.
	Requests *int  `json:"requests,omitempty"`
	Section  *bool `json:"section,omitempty"`
	// SectionText is the exact text the last request's plan:policy
	// section renders, at the section's order.
	SectionText *string  `json:"sectionText,omitempty"`
	Sections    []string `json:"sections,omitempty"`
	Tools       []string `json:"tools,omitempty"`
	// Reviews is how many times the action presented a plan for review.
	Reviews *int           `json:"reviews,omitempty"`
	Tool    *ToolExpect    `json:"tool,omitempty"`
	Command *CommandExpect `json:"command,omitempty"`
	// Registered is what the plugin registered at a load or reload.
	Registered *RegisteredExpect `json:"registered,omitempty"`
	// Listener is what the plugin's pre-step listener did in a step.
	Listener *ListenerExpect `json:"listener,omitempty"`
	Fold     *bool           `json:"fold,omitempty"`
}

// Observes names, for each field of Expect (by its JSON name), the
// observation kind it compares (attribution.Ledger): what it compares and
// the SPEC.md sentences that rest on are there.
var Observes = map[string]string{
	"outcome": attribution.ObsOutcome, "error": attribution.ObsError, "state": attribution.ObsGet,
	"planMode": attribution.ObsPlanMode, "appended": attribution.ObsEvents, "started": attribution.ObsEvents,
	"userMessages": attribution.ObsSteer, "order": attribution.ObsEvents, "notices": attribution.ObsNotices,
	"decision": attribution.ObsDecision, "requests": attribution.ObsRequest, "section": attribution.ObsRequest,
	"sectionText": attribution.ObsRequest, "sections": attribution.ObsRequest, "tools": attribution.ObsRequest,
	"reviews": attribution.ObsTool, "tool": attribution.ObsTool, "command": attribution.ObsCommand,
	"registered": attribution.ObsListener, "listener": attribution.ObsListener, "fold": attribution.ObsFold,
}

// StateExpect is get() after the action. Pending is true, false, or "none"
// for no pending selection.
type StateExpect struct {
	Active  *bool           `json:"active,omitempty"`
	Pending json.RawMessage `json:"pending,omitempty"`
}

// EventExpect is an expected appended event: a type, or a type and data.
type EventExpect struct {
	Type string
	Data json.RawMessage
}

// UnmarshalJSON accepts "type" or {type, data}.
func (e *EventExpect) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &e.Type)
	}
	var v struct {
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if err := strictUnmarshal(b, &v); err != nil {
		return err
	}
	e.Type, e.Data = v.Type, v.Data
	return nil
}

// MarshalJSON writes the short form when there is no data.
func (e EventExpect) MarshalJSON() ([]byte, error) {
	if len(e.Data) == 0 {
		return json.Marshal(e.Type)
	}
	return json.Marshal(map[string]any{"type": e.Type, "data": e.Data})
}

// ToolExpect is the result of one of the action's tool calls: Call, from
// 1, or the last.
type ToolExpect struct {
	Call     int    `json:"call,omitempty"`
	OK       *bool  `json:"ok,omitempty"`
	Approved *bool  `json:"approved,omitempty"`
	Asked    *bool  `json:"asked,omitempty"`
	Feedback string `json:"feedback,omitempty"`
}

// RegisteredExpect is what the plugin registered at a load or reload: its
// pre-step listener's position, tools and sections among those it
// registered, and whether it registered /plan.
type RegisteredExpect struct {
	Listener string   `json:"listener,omitempty"`
	Tools    []string `json:"tools,omitempty"`
	Sections []string `json:"sections,omitempty"`
	Command  *bool    `json:"command,omitempty"`
}

// ListenerExpect is what the plugin's pre-step listener did in a step:
// whether it ran, messages it saw in the downstream decision next()
// returned, whether it passed that decision on (adding only plan-mode
// notices), whether it called next() before appending plan/mode.
type ListenerExpect struct {
	Ran             *bool    `json:"ran,omitempty"`
	Saw             []string `json:"saw,omitempty"`
	Passed          *bool    `json:"passed,omitempty"`
	DownstreamFirst *bool    `json:"downstreamFirst,omitempty"`
}

// CommandExpect is a command's result.
type CommandExpect struct {
	Registered *bool  `json:"registered,omitempty"`
	Kind       string `json:"kind,omitempty"`
	// Outcome is the selection outcome the reply announces (what its text
	// means). Checked when the implementation reports announced outcomes.
	Outcome string `json:"outcome,omitempty"`
	// Steered is the text of every message the command steered, in order;
	// [] for none.
	Steered []string `json:"steered,omitempty"`
}

// Steered is the text of every message the action steered, in order.
func Steered(r sim.Result) []string {
	out := []string{}
	for _, e := range r.Effects {
		if e.Effect.Kind == sim.EffectSteer && e.Effect.Message != nil {
			out = append(out, e.Effect.Message.Text)
		}
	}
	return out
}

// Check compares a result with the expectation and returns every mismatch
// as "field: expected X, got Y".
func (x *Expect) Check(agent string, r sim.Result) []string {
	if x == nil {
		return nil
	}
	if x.Agent != "" {
		agent = x.Agent
	}
	var out []string
	fail := func(field string, want, got any) {
		out = append(out, fmt.Sprintf("%s: expected %s, got %s", field, show(want), show(got)))
	}
	if x.Outcome != "" && x.Outcome != r.Outcome {
		fail("outcome", x.Outcome, orNone(r.Outcome))
	}
	if x.Error != nil && *x.Error != (r.Error != "") {
		if *x.Error {
			out = append(out, "error: expected the implementation to report an error, it reported none")
		} else {
			out = append(out, fmt.Sprintf("error: expected no error, got %q", r.Error))
		}
	}
	if x.State != nil {
		g, ok := r.StateOf(agent)
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("state: no get() recorded for agent %q", agent))
		default:
			if x.State.Active != nil && *x.State.Active != g.Active {
				fail("state.active", *x.State.Active, g.Active)
			}
			if len(x.State.Pending) > 0 {
				want := strings.Trim(string(x.State.Pending), `"`)
				got := "none"
				if g.Pending != nil {
					got = fmt.Sprint(*g.Pending)
				}
				if want != got {
					fail("state.pending", want, got)
				}
			}
		}
	}
	if x.PlanMode != nil {
		got, shown := planValues(r, agent)
		if fmt.Sprint(got) != fmt.Sprint(x.PlanMode) || shown != "" {
			fail("planMode", x.PlanMode, cmp.Or(shown, show(got)))
		}
	}
	if x.Appended != nil {
		out = append(out, checkAppended(x.Appended, agent, r)...)
	}
	if x.Order != nil {
		out = append(out, checkOrder(x.Order, agent, r)...)
	}
	if x.Started != nil || x.UserMessages != nil {
		out = append(out, checkStarts(x.Started, x.UserMessages, agent, r)...)
	}
	if x.Notices != nil {
		if got := len(r.Notices(agent)); got != *x.Notices {
			fail("notices", *x.Notices, got)
		}
	}
	if x.Decision != "" && x.Decision != r.Decision {
		fail("decision", x.Decision, orNone(r.Decision))
	}
	if x.Requests != nil {
		if got := requestsOf(r, agent); got != *x.Requests {
			fail("requests", *x.Requests, got)
		}
	}
	if x.Section != nil || x.SectionText != nil || x.Tools != nil || x.Sections != nil {
		req, ok := lastRequest(r, agent)
		if !ok {
			out = append(out, "section/tools: the action sent no request")
		} else {
			if x.Section != nil {
				_, has := req.Section(spec.SectionName)
				if has != *x.Section {
					fail("section", presence(*x.Section), presence(has))
				}
			}
			if x.SectionText != nil {
				want := fmt.Sprintf("%q at order %d", *x.SectionText, spec.SectionOrder)
				got := "absent"
				if s, has := req.Section(spec.SectionName); has {
					got = fmt.Sprintf("%q at order %d", s.Text, s.Order)
				}
				if got != want {
					fail("sectionText", want, got)
				}
			}
			if x.Sections != nil {
				got := make([]string, len(req.Sections))
				for i, s := range req.Sections {
					got[i] = fmt.Sprintf("%s@%d", s.Name, s.Order)
				}
				if fmt.Sprint(got) != fmt.Sprint(x.Sections) {
					fail("sections", x.Sections, got)
				}
			}
			if x.Tools != nil {
				got := make([]string, len(req.Tools))
				for i, t := range req.Tools {
					got[i] = t.Name
				}
				// exit_plan_mode's place among the host's tools is
				// the implementation's (sim.CatalogKey).
				if !slices.Equal(sim.CatalogKey(got), sim.CatalogKey(x.Tools)) {
					fail("tools", x.Tools, got)
				}
			}
		}
	}
	if x.Reviews != nil {
		if got := reviewsOf(r, agent); got != *x.Reviews {
			fail("reviews", *x.Reviews, got)
		}
	}
	if x.Tool != nil {
		out = append(out, checkTool(x.Tool, r)...)
	}
	if x.Command != nil {
		c := r.Command
		switch {
		case c == nil:
			out = append(out, "command: the action ran no command")
		default:
			if x.Command.Registered != nil && *x.Command.Registered != c.Registered {
				fail("command.registered", *x.Command.Registered, c.Registered)
			}
			if x.Command.Kind != "" && x.Command.Kind != c.Kind {
				fail("command.kind", x.Command.Kind, c.Kind)
			}
			if x.Command.Outcome != "" && c.Reported && x.Command.Outcome != c.Outcome {
				fail("command.outcome", x.Command.Outcome, fmt.Sprintf("%s (reply %q)", orNone(c.Outcome), c.Text))
			}
			if x.Command.Steered != nil {
				if got := Steered(r); !slices.Equal(got, x.Command.Steered) {
					fail("command.steered", x.Command.Steered, got)
				}
			}
		}
	}
	if x.Registered != nil {
		out = append(out, checkRegistered(x.Registered, r)...)
	}
	if x.Listener != nil {
		out = append(out, checkListener(x.Listener, agent, r)...)
	}
	if x.Fold != nil {
		if r.Fold == nil {
			out = append(out, fmt.Sprintf("fold: expected %v, got no value (error %q)", *x.Fold, r.Error))
		} else if *r.Fold != *x.Fold {
			fail("fold", *x.Fold, *r.Fold)
		}
	}
	return out
}

func presence(b bool) string {
	if b {
		return "rendered"
	}
	return "absent"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func show(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []bool, []string:
		if x, ok := x.([]string); ok && x == nil {
			return "[]"
		}
		b, _ := json.Marshal(x)
		return string(b)
	}
	return fmt.Sprint(v)
}

func lastRequest(r sim.Result, agent string) (sim.Request, bool) {
	for i := len(r.Requests) - 1; i >= 0; i-- {
		if r.Requests[i].Agent == agent {
			return r.Requests[i], true
		}
	}
	return sim.Request{}, false
}

func checkAppended(want []EventExpect, agent string, r sim.Result) []string {
	var got []sim.Event
	for _, a := range r.Appended {
		if a.Agent == agent {
			got = append(got, a.Event)
		}
	}
	types := func() string {
		t := make([]string, len(got))
		for i, e := range got {
			t[i] = e.Type
		}
		return "[" + strings.Join(t, " ") + "]"
	}
	wantTypes := make([]string, len(want))
	for i, w := range want {
		wantTypes[i] = w.Type
	}
	if len(got) != len(want) {
		return []string{fmt.Sprintf("appended: expected %d events [%s], got %d %s", len(want), strings.Join(wantTypes, " "), len(got), types())}
	}
	// Compared by meaning (sim.EventKeys): a notice's words, a tool
	// result's or a command reply's text, and where a notice sits among
	// its step's messages are the implementation's.
	same := true
	for i, w := range want {
		if w.Type != got[i].Type {
			return []string{fmt.Sprintf("appended: expected [%s], got %s", strings.Join(wantTypes, " "), types())}
		}
		same = same && (len(w.Data) == 0 || string(sim.Canonical(w.Data)) == string(got[i].Data))
	}
	if same {
		return nil // the same words too
	}
	wantEvents := make([]sim.Event, len(want))
	for i, w := range want {
		wantEvents[i] = sim.Event{Type: w.Type, Data: w.Data}
	}
	wantKeys, gotKeys := sim.EventKeys(wantEvents), sim.EventKeys(got)
	var out []string
	for i, w := range want {
		if len(w.Data) > 0 && wantKeys[i] != gotKeys[i] {
			out = append(out, fmt.Sprintf("appended[%d] %s data: expected %s, got %s", i, w.Type, sim.Canonical(w.Data), got[i].Data))
		}
	}
	return out
}

// planValues is the active value of each plan/mode event appended to
// agent's log (data with no boolean active reads as false). When the
// implementation appended one whose data is not exactly {"active": bool}
// (LOG-1), shown lists the values with that data in its place; an outside
// writer's event is the log's, not a fault.
func planValues(r sim.Result, agent string) (values []bool, shown string) {
	values = []bool{}
	var parts []string
	malformed := false
	for _, a := range r.Appended {
		if a.Agent == agent && a.Event.Type == spec.TypePlanMode {
			v, _ := spec.PlanModeOf(a.Event.Data)
			values, parts = append(values, v), append(parts, fmt.Sprint(v))
			if !spec.PlanModeExact(a.Event.Data) && a.ByPlugin { // an outside writer's data is its own (LOG-1 shapes what plan mode appends)
				parts[len(parts)-1], malformed = string(a.Event.Data), true
			}
		}
	}
	if !malformed {
		return values, ""
	}
	return values, "[" + strings.Join(parts, ",") + "]"
}

func requestsOf(r sim.Result, agent string) int {
	n := 0
	for _, q := range r.Requests {
		if q.Agent == agent {
			n++
		}
	}
	return n
}

func reviewsOf(r sim.Result, agent string) int {
	n := 0
	for _, e := range r.Effects {
		if e.Agent == agent && e.Effect.Kind == sim.EffectAsk {
			n++
		}
	}
	return n
}

// checkStarts checks whether the action started a turn or step, and the
// user messages it logged.
func checkStarts(started *bool, texts []string, agent string, r sim.Result) []string {
	var types, said []string
	for _, a := range r.Appended {
		if a.Agent != agent {
			continue
		}
		types = append(types, a.Event.Type)
		if a.Event.Type == spec.TypeUserMessage {
			if m, err := sim.MessageOf(a.Event.Data); err == nil && m.Source.Kind == "user" {
				said = append(said, m.Text)
			}
		}
	}
	var out []string
	if started != nil {
		got := slices.Contains(types, spec.TypeTurnStart) || slices.Contains(types, spec.TypeStepStart)
		if got != *started {
			out = append(out, fmt.Sprintf("started: expected %v, got %v (appended [%s])", *started, got, strings.Join(types, " ")))
		}
	}
	for _, text := range texts {
		if !slices.Contains(said, text) {
			out = append(out, fmt.Sprintf("userMessages: expected %q among them, got %s", text, show(said)))
		}
	}
	return out
}

// checkOrder checks that the first appended event of each type in want
// comes in want's order.
func checkOrder(want []string, agent string, r sim.Result) []string {
	var types []string
	for _, a := range r.Appended {
		if a.Agent == agent {
			types = append(types, a.Event.Type)
		}
	}
	last := -1
	for _, t := range want {
		i := slices.Index(types, t)
		if i < 0 || i < last {
			return []string{fmt.Sprintf("order: expected %s in this order, got [%s]", strings.Join(want, " before "), strings.Join(types, " "))}
		}
		last = i
	}
	return nil
}

func checkTool(x *ToolExpect, r sim.Result) []string {
	if len(r.Tools) == 0 {
		return []string{"tool: the action ran no tool call"}
	}
	t := r.Tools[len(r.Tools)-1]
	if x.Call != 0 {
		if x.Call < 1 || x.Call > len(r.Tools) {
			return []string{fmt.Sprintf("tool.call: the action ran %d tool calls, so there is no call %d", len(r.Tools), x.Call)}
		}
		t = r.Tools[x.Call-1]
	}
	var out []string
	if x.OK != nil && *x.OK != t.OK {
		out = append(out, fmt.Sprintf("tool.ok: expected %v, got %v (%s)", *x.OK, t.OK, toolText(t)))
	}
	if x.Approved != nil {
		approved := t.OK && sim.Approved(t.Result)
		if approved != *x.Approved {
			out = append(out, fmt.Sprintf("tool.approved: expected %v, got %v (%s)", *x.Approved, approved, toolText(t)))
		}
	}
	if x.Asked != nil && *x.Asked != t.Asked {
		out = append(out, fmt.Sprintf("tool.asked: expected %v, got %v", *x.Asked, t.Asked))
	}
	if x.Feedback != "" && (t.OK || !strings.Contains(t.Error, x.Feedback)) {
		out = append(out, fmt.Sprintf("tool.feedback: expected a failure carrying %q, got %s", x.Feedback, toolText(t)))
	}
	return out
}

func checkRegistered(x *RegisteredExpect, r sim.Result) []string {
	reg := r.Load
	if reg == nil {
		return []string{"registered: the action loaded nothing"}
	}
	var out []string
	if x.Listener != "" && x.Listener != reg.Listener {
		out = append(out, fmt.Sprintf("registered.listener: expected %s, got %s", x.Listener, orNone(reg.Listener)))
	}
	tools := make([]string, len(reg.Tools))
	for i, t := range reg.Tools {
		tools[i] = t.Name
	}
	for _, t := range x.Tools {
		if !slices.Contains(tools, t) {
			out = append(out, fmt.Sprintf("registered.tools: expected %s among them, got %s", t, show(tools)))
		}
	}
	for _, s := range x.Sections {
		if !slices.Contains(reg.Sections, s) {
			out = append(out, fmt.Sprintf("registered.sections: expected %s among them, got %s", s, show(reg.Sections)))
		}
	}
	if x.Command != nil {
		if has := slices.Contains(reg.Commands, spec.Command); has != *x.Command {
			out = append(out, fmt.Sprintf("registered.command: expected %v, got %v (commands %s)", *x.Command, has, show(reg.Commands)))
		}
	}
	return out
}

func checkListener(x *ListenerExpect, agent string, r sim.Result) []string {
	p := r.PreStep
	var out []string
	if x.Ran != nil && *x.Ran != (p != nil) {
		out = append(out, fmt.Sprintf("listener.ran: expected %v, got %v", *x.Ran, p != nil))
	}
	if (x.Saw != nil || x.Passed != nil) && p == nil {
		return append(out, "listener: the plugin's listener did not run for the step")
	}
	for _, text := range x.Saw {
		if !slices.ContainsFunc(p.Downstream.Messages, func(m sim.Message) bool { return m.Text == text }) {
			out = append(out, fmt.Sprintf("listener.saw: expected %q in the downstream decision, got %s", text, sim.JSON(p.Downstream)))
		}
	}
	if x.Passed != nil {
		var extra []sim.Message
		for _, m := range p.Decision.Messages {
			if !slices.Contains(p.Downstream.Messages, m) && !m.IsPlanNotice() {
				extra = append(extra, m)
			}
		}
		passed := p.Decision.Kind == p.Downstream.Kind && len(extra) == 0
		switch {
		case passed == *x.Passed:
		case p.Decision.Kind != p.Downstream.Kind:
			out = append(out, fmt.Sprintf("listener.passed: expected %v, got %v (the downstream decided %s, the plugin returned %s)", *x.Passed, passed, p.Downstream.Kind, p.Decision.Kind))
		default:
			out = append(out, fmt.Sprintf("listener.passed: expected %v, got %v (the plugin added messages that are not notices: %s)", *x.Passed, passed, sim.JSON(extra)))
		}
	}
	if x.DownstreamFirst != nil {
		down, app := -1, -1
		for i, e := range r.Effects {
			if e.Agent != agent {
				continue
			}
			if e.Effect.Kind == sim.EffectDownstream && down < 0 {
				down = i
			}
			if e.Effect.Kind == sim.EffectAppend && e.Effect.Type == spec.TypePlanMode && app < 0 {
				app = i
			}
		}
		switch {
		case down < 0:
			out = append(out, "listener.downstreamFirst: the plugin never called the downstream listeners")
		case app < 0:
			out = append(out, "listener.downstreamFirst: the plugin appended no plan/mode event")
		case (down < app) != *x.DownstreamFirst:
			out = append(out, fmt.Sprintf("listener.downstreamFirst: expected %v, got %v", *x.DownstreamFirst, down < app))
		}
	}
	return out
}

func toolText(t sim.ToolOutcome) string {
	if t.OK {
		return "result " + string(t.Result)
	}
	return fmt.Sprintf("error %q", t.Error)
}

// MarshalJSON writes the expectation, keeping empty plan, appended and
// tools lists: an empty list expects nothing, which differs from no
// expectation at all (generated traces rely on it).
func (x Expect) MarshalJSON() ([]byte, error) {
	type plainExpect Expect
	b, err := json.Marshal(plainExpect(x))
	if err != nil {
		return nil, err
	}
	var extra []string
	if x.PlanMode != nil && len(x.PlanMode) == 0 {
		extra = append(extra, `"planMode":[]`)
	}
	if x.Appended != nil && len(x.Appended) == 0 {
		extra = append(extra, `"appended":[]`)
	}
	if x.Sections != nil && len(x.Sections) == 0 {
		extra = append(extra, `"sections":[]`)
	}
	if x.Tools != nil && len(x.Tools) == 0 {
		extra = append(extra, `"tools":[]`)
	}
	if len(extra) == 0 {
		return b, nil
	}
	sep := ","
	if string(b) == "{}" {
		sep = ""
	}
	return []byte(string(b[:len(b)-1]) + sep + strings.Join(extra, ",") + "}"), nil
}
