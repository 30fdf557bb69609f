package loop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/lint"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// Finding is an observation that breaks a clause of the specification:
// the rule or observation kind that found it (Rule: an attribution.Checks
// ID or an attribution observation kind) and the clause it is listed under.
type Finding struct {
	Clause  string `json:"clause"`
	Rule    string `json:"rule,omitempty"`
	Agent   string `json:"agent,omitempty"`
	Message string `json:"message"`
}

// found is a finding of a rule of attribution.Checks, under its clause.
func found(rule, agent, msg string) Finding {
	return Finding{Clause: attribution.Clause(rule), Rule: rule, Agent: agent, Message: msg}
}

func (f Finding) String() string {
	if f.Agent != "" {
		return fmt.Sprintf("%s: agent %s: %s", f.Clause, f.Agent, f.Message)
	}
	return f.Clause + ": " + f.Message
}

// hostToolsIn says how the catalog fails to carry the host's tools, each
// group in the host's order — those registered before plan mode loads, and
// those a later prompt-assembly listener adds (plan mode never hides or
// reorders them: EXIT-1, SVC-3) — or "" when it carries them. Where the
// runtime puts the two groups, and tools of its own, is the runtime's.
func hostToolsIn(host []HostTool, catalog []string) string {
	for _, assembly := range []bool{false, true} {
		at := 0
		for _, h := range host {
			if h.Assembly != assembly {
				continue
			}
			i := slices.Index(catalog, h.Name)
			switch {
			case i < 0:
				return fmt.Sprintf("hides the host tool %s", h.Name)
			case i < at:
				return fmt.Sprintf("has the host tool %s out of the host's order", h.Name)
			}
			at = i
		}
	}
	return ""
}

// configSection is the configured section text, if the config is valid.
func configSection(cfg json.RawMessage) (string, bool) {
	var c struct {
		Section *string `json:"section"`
	}
	if err := json.Unmarshal(cfg, &c); err != nil || c.Section == nil {
		return "", false
	}
	return *c.Section, true
}

// Invariants judges what holds of every session, whatever the script:
// every observed request agrees with the log at the moment it was sent
// (STEP-7, LOG-3, CFG-2), the tool catalog never changes with the state
// (EXIT-1), every logged notice is part of the next request's messages
// (STEP-7), every get after a step reports the fold of the log (LOG-3,
// PEND-7), and every observed log passes the plankit lint rules; and the
// rules of rules.go: set outcomes between turns and within a run of host
// code, nothing pending right after a restart, and the outcome of every
// exit_plan_mode call.
func Invariants(t Trace, rec Record) []Finding {
	var out []Finding
	if rec.Load.Error != "" {
		return nil
	}
	section, haveSection := configSection(t.loadRequest().Config)
	sectionFromLog := rec.Identity.Choices[spec.ChoiceSectionSource] != "pending"
	reading := spec.PlanModeReadingOf(rec.Identity.Choices)
	requests := map[string][]ModelRequest{}
	// unloadedAt: for each agent's request, whether plan mode was unloaded
	// when it was sent (from an unload step to the next reload or restart).
	unloadedAt := map[string][]bool{}
	// composedAt: for each agent's request, how many times plan mode had
	// been loaded or unloaded before it was sent. EXIT-1 compares the
	// catalogs of requests across a change of plan state while the plugin
	// stays loaded; a reload registers the tool anew, and SPEC.md does not
	// say where.
	composedAt := map[string][]int{}
	composed := 0
	// outside: the seqs of the events the kit wrote itself (an opened log,
	// an outside writer's append), which the lint rules do not judge as
	// the runtime's.
	outside := map[string][]int{}
	unloaded := false
	// stepUnloaded: for each step, whether plan mode is unloaded while it
	// plays.
	stepUnloaded := make([]bool, len(rec.Steps))
	// owed: by agent, the notices plan mode recorded before it was
	// unloaded that a step may still deliver while it is unloaded (a
	// runtime's inbox is the runtime's: docs/spec-choices.md, "Where a
	// between-turns change's notice waits").
	owed := map[string]int{}
	for i, d := range rec.Steps {
		agent := d.Step.Agent()
		if agent == "" && len(rec.Agents) > 0 {
			agent = rec.Agents[0]
		}
		if d.Step.Unload != nil && !unloaded {
			for _, a := range rec.Agents {
				owed[a] = noticeOwed(logBefore(rec, i, a))
			}
		}
		unloaded = d.Step.unloadedAfter(unloaded)
		stepUnloaded[i] = unloaded
		if d.Step.recomposes() {
			composed++
		}
		switch {
		case d.Step.Open != nil:
			for seq := range d.Start {
				outside[agent] = append(outside[agent], seq)
			}
		case d.Step.Append != nil:
			for _, e := range d.Obs.Events {
				outside[agent] = append(outside[agent], e.Seq)
			}
		}
		requests[agent] = append(requests[agent], d.Obs.Requests...)
		for range d.Obs.Requests {
			unloadedAt[agent] = append(unloadedAt[agent], unloaded)
			composedAt[agent] = append(composedAt[agent], composed)
		}
		if unloaded {
			var fs []Finding
			fs, owed[agent] = withoutPlanMode(agent, d, owed[agent])
			out = append(out, fs...)
			continue
		}
		if selects(d.Step, rec.Identity.Choices[spec.ChoicePlanArgument]) && (len(d.Obs.Requests) > 0 || slices.ContainsFunc(d.Obs.Events, func(e sim.Event) bool { return e.Type == spec.TypeTurnStart })) {
			out = append(out, found(attribution.InvSelectionNoStep, agent, fmt.Sprintf("%s between turns started a turn or sent %d requests: a selection never forces continuation, no step or turn is started because of it", d.Step.Name(), len(d.Obs.Requests))))
		}
		if d.Get != nil {
			log := rec.Logs[agent][:d.Start]
			if want := sim.FoldPlanMode(log, len(log), reading); d.Get.Active != want {
				out = append(out, found(attribution.InvGetIsFold, agent, fmt.Sprintf("get after %d events says active=%t; the log folds to %t", len(log), d.Get.Active, want)))
			}
		}
	}
	for _, agent := range rec.Agents {
		log := rec.Logs[agent]
		// tools is the catalog of the last request sent while plan mode
		// was loaded, state the plan state then, in the same composition.
		var tools []string
		var state bool
		for i, q := range requests[agent] {
			want := sim.FoldPlanMode(log, q.At, reading)
			s, has := q.Section(spec.SectionName)
			has = has && s.Text != ""
			where := fmt.Sprintf("request %d (sent after %d events)", i+1, q.At)
			if missing := hostToolsIn(t.HostTools, q.Tools); missing != "" {
				out = append(out, found(attribution.InvHostTools, agent, fmt.Sprintf("%s: the tool catalog %v %s", where, q.Tools, missing)))
			}
			if unloadedAt[agent][i] {
				// SVC-2: without the package there is no section and no tool
				if has {
					out = append(out, found(attribution.InvUnloadedSection, agent, where+": plan:policy is rendered while plan mode is unloaded"))
				}
				if slices.Contains(q.Tools, spec.ExitTool) {
					out = append(out, found(attribution.InvUnloadedTool, agent, where+": the tool catalog offers exit_plan_mode while plan mode is unloaded"))
				}
				continue
			}
			if sectionFromLog && has != want {
				out = append(out, found(attribution.InvSectionIsLog, agent, fmt.Sprintf("%s: plan:policy %s, but the log says active=%t when it was sent", where, presence(has), want)))
			}
			if has && haveSection && s.Text != section {
				out = append(out, found(attribution.InvSectionText, agent, fmt.Sprintf("%s: plan:policy text %q is not the configured section %q", where, s.Text, section)))
			}
			if has && s.Order != nil && *s.Order != spec.SectionOrder {
				out = append(out, found(attribution.InvSectionOrder, agent, fmt.Sprintf("%s: plan:policy at order %d, not %d", where, *s.Order, spec.SectionOrder)))
			}
			switch n := countOf(q.Tools, spec.ExitTool); {
			case n == 0:
				out = append(out, found(attribution.InvExitToolOnce, agent, where+": the tool catalog has no exit_plan_mode"))
			case n > 1:
				out = append(out, found(attribution.InvExitToolOnce, agent, fmt.Sprintf("%s: the tool catalog lists exit_plan_mode %d times", where, n)))
			}
			if i > 0 && composedAt[agent][i] != composedAt[agent][i-1] {
				tools = nil // plan mode was loaded anew since the last request
			}
			if tools != nil && state != want && !slices.Equal(q.Tools, tools) {
				out = append(out, found(attribution.InvCatalogFixed, agent, fmt.Sprintf("%s: the tool catalog %v differs from the previous request's %v, sent while plan mode was %s: entering or leaving plan mode never changes the catalog", where, q.Tools, tools, onOff(state))))
			}
			tools, state = q.Tools, want
		}
		out = append(out, noticesInRequests(agent, log, requests[agent])...)
		out = append(out, planModeInMessages(agent, log, requests[agent])...)
		out = append(out, lintLog(agent, log, requests[agent], rec.Identity.Choices, outside[agent], steerMayBeLost(rec))...)
	}
	out = append(out, forcedSteps(rec)...)
	out = append(out, idleSets(rec, stepUnloaded)...)
	out = append(out, pendingAfterRestart(rec)...)
	out = append(out, streamSelections(rec, stepUnloaded)...)
	return append(out, reviewOutcomes(t, rec, stepUnloaded)...)
}

// forcedSteps: a selection never forces continuation (PEND-2, "no step or
// turn is started because of it"). Within a turn, a request sent after
// the model's response ended the turn (it succeeded with no tool calls and
// no host code steered a message during it), whose step appended a
// plan/mode, is a step started to apply a selection.
func forcedSteps(rec Record) []Finding {
	var out []Finding
	for _, d := range rec.Steps {
		var script *Script
		switch {
		case d.Step.Turn != nil:
			script = &d.Step.Turn.Script
		case d.Step.Command != nil:
			script = d.Step.Command.Script
		}
		if script == nil {
			continue
		}
		reqs := d.Obs.Requests
		for k := 0; k+1 < len(reqs) && k < len(script.Responses); k++ {
			r := script.Responses[k]
			if r.Fail || len(r.Calls) > 0 || slices.ContainsFunc(r.During, func(h HostAction) bool { return h.Command != nil }) {
				continue
			}
			for _, e := range d.Obs.Events {
				if e.Type == spec.TypePlanMode && e.Seq >= reqs[k].At && e.Seq < reqs[k+1].At {
					out = append(out, found(attribution.InvSelectionNoStep, d.Step.Agent(), fmt.Sprintf("%s: response %d ended the turn (no tool calls), yet the runtime sent request %d, whose step appended the plan/mode at seq %d: a selection never forces continuation, no step is started because of it", d.Step.Name(), k+1, k+2, e.Seq)))
					break
				}
			}
		}
	}
	return out
}

// logBefore is agent's log before step i of rec: the log up to where the
// agent's next step started (StepDone.Start), the whole log when none did.
func logBefore(rec Record, i int, agent string) []sim.Event {
	log := rec.Logs[agent]
	for _, d := range rec.Steps[i:] {
		if d.Step.Agent() == agent && d.Start <= len(log) {
			return log[:d.Start]
		}
	}
	return log
}

// noticeOwed is how many notices plan mode may have recorded and not yet
// seen delivered at the end of log: one when a plan/mode came after the
// last request/header and no plan-mode notice after it (an idle commit's
// notice waiting in the runtime's inbox), else none.
func noticeOwed(log []sim.Event) int {
	owed := 0
	for _, e := range log {
		switch e.Type {
		case spec.TypeRequestHeader:
			owed = 0
		case spec.TypePlanMode:
			owed = 1
		case spec.TypeUserMessage:
			if m, err := sim.MessageOf(e.Data); err == nil && m.IsPlanNotice() {
				owed = 0
			}
		}
	}
	return owed
}

// selects reports whether a step is only a selection: a set, or a /plan
// command that steers no message under the reading of choice
// plan-argument the runtime declares (under either, under both readings:
// "/plan   " read as typed is a message).
func selects(st Step, reading string) bool {
	if st.Set != nil {
		return true
	}
	if st.Command == nil {
		return false
	}
	quiet := func(r string) bool {
		c := spec.ParseCommandAs(st.Command.Input, r)
		return c.IsPlan() && c.Message() == ""
	}
	switch reading {
	case spec.PlanArgumentTrimmed, spec.PlanArgumentExact:
		return quiet(reading)
	}
	return quiet(spec.PlanArgumentTrimmed) && quiet(spec.PlanArgumentExact)
}

// withoutPlanMode judges a step played while plan mode is unloaded (SVC-2,
// PEND-8): it appends no plan/mode event and no plan-mode notice (an
// outside writer's append is the host's, not plan mode's; a notice plan
// mode recorded before the unload, owed, the runtime may still deliver),
// and /plan is an unknown command. It returns what is still owed.
func withoutPlanMode(agent string, d StepDone, owed int) ([]Finding, int) {
	var out []Finding
	outside := outsidePlanModes(d.Step)
	for _, e := range d.Obs.Events {
		if e.Type == spec.TypePlanMode {
			if outside > 0 {
				outside-- // an outside writer's (the host's), not plan mode's
				continue
			}
			out = append(out, found(attribution.InvUnloadedAppend, agent, fmt.Sprintf("plan/mode is appended at seq %d while plan mode is unloaded", e.Seq)))
		}
		if e.Type != spec.TypeUserMessage {
			continue
		}
		if m, err := sim.MessageOf(e.Data); err == nil && m.IsPlanNotice() {
			if owed > 0 {
				owed--
				continue
			}
			out = append(out, found(attribution.InvUnloadedNotice, agent, fmt.Sprintf("a plan-mode notice is logged at seq %d while plan mode is unloaded", e.Seq)))
		}
	}
	if d.Step.Command != nil && d.Command != nil && d.Command.Kind == "success" && spec.NamesPlan(d.Step.Command.Input) {
		out = append(out, found(attribution.InvUnloadedCommand, agent, fmt.Sprintf("%q succeeds while plan mode is unloaded: the command should be unknown", d.Step.Command.Input)))
	}
	return out, owed
}

// outsidePlanModes counts the plan/mode events an outside writer appends
// in a step: the append step's, or the append host actions of its script.
func outsidePlanModes(st Step) int {
	if st.Append != nil {
		if st.Append.Type == spec.TypePlanMode {
			return 1
		}
		return 0
	}
	n := 0
	for h := range st.ScriptOf().HostActions() {
		if h.Append != nil && h.Append.Type == spec.TypePlanMode {
			n++
		}
	}
	return n
}

func presence(has bool) string {
	if has {
		return "is rendered"
	}
	return "is not rendered"
}

// noticesInRequests: a logged plan-mode notice is one of the messages of
// the next request sent.
func noticesInRequests(agent string, log []sim.Event, reqs []ModelRequest) []Finding {
	var out []Finding
	for _, e := range log {
		if e.Type != spec.TypeUserMessage {
			continue
		}
		m, err := sim.MessageOf(e.Data)
		if err != nil || !m.IsPlanNotice() {
			continue
		}
		for _, q := range reqs {
			if q.At <= e.Seq {
				continue
			}
			if !slices.ContainsFunc(q.Messages, func(x Message) bool { return x.IsPlanNotice() && x.Text == m.Text }) {
				out = append(out, found(attribution.InvNoticeInRequest, agent, fmt.Sprintf("the notice logged at seq %d is not among the messages of the next request (sent after %d events)", e.Seq, q.At)))
			}
			break
		}
	}
	return out
}

// transcriptRole is the role of the request message a logged transcript
// event is sent as, "" for an event that is not part of the transcript.
func transcriptRole(typ string) string {
	switch typ {
	case spec.TypeUserMessage:
		return "user"
	case spec.TypeAssistant:
		return "assistant"
	case spec.TypeToolResult:
		return "tool"
	}
	return ""
}

// planModeInMessages: plan/mode never appears in a request's messages
// (LOG-1, "log-only: it never appears in the model transcript (request
// messages)"). The messages are aligned, in order, with the transcript
// events logged before the request (a user message with a logged
// user/message of the same text, the others by role); a message that
// matches none and stands where the log holds a plan/mode between the
// transcript events around it is that plan/mode rendered into the
// transcript. A message the log does not explain elsewhere is not judged:
// SPEC.md does not say what else a runtime may send.
func planModeInMessages(agent string, log []sim.Event, reqs []ModelRequest) []Finding {
	var out []Finding
	for _, q := range reqs {
		var before []sim.Event
		for _, e := range log {
			if e.Seq < q.At {
				before = append(before, e)
			}
		}
		next := 0
		for k, m := range q.Messages {
			j := slices.IndexFunc(before[next:], func(e sim.Event) bool {
				if transcriptRole(e.Type) != m.Role {
					return false
				}
				if m.Role != "user" {
					return true
				}
				lm, err := sim.MessageOf(e.Data)
				return err == nil && lm.Text == m.Text
			})
			if j >= 0 {
				next += j + 1
				continue
			}
			end := slices.IndexFunc(before[next:], func(e sim.Event) bool { return transcriptRole(e.Type) != "" })
			if end < 0 {
				end = len(before) - next
			}
			if i := slices.IndexFunc(before[next:next+end], func(e sim.Event) bool { return e.Type == spec.TypePlanMode }); i >= 0 {
				out = append(out, found(attribution.InvPlanModeNotInMessages, agent, fmt.Sprintf("the request sent after %d events carries message %d (%s %q), which no logged transcript event explains, where the log holds the plan/mode at seq %d: plan/mode is log-only and never appears in the model transcript", q.At, k+1, m.Role, m.Text, before[next+i].Seq)))
			}
		}
	}
	return out
}

// lintLog runs the plankit lint rules over an observed log, telling them
// which requests were seen sent: the log's first line is the session line,
// so event i is line i+2, and a request sent when the log held n events
// was sent after line n+1. A finding on the line of an event the kit wrote
// itself (outside, by seq) is not the runtime's.
//
// A message /plan steered may be lost for the runtime's reasons, which the
// log does not show (steerMayBeLost): then the rule on a steered message is
// not the runtime's to fail.
func lintLog(agent string, log []sim.Event, sent []ModelRequest, choices map[string]string, outside []int, steerLost bool) []Finding {
	var buf bytes.Buffer
	buf.WriteString(`{"type":"session","version":0,"id":"` + agent + `"}` + "\n")
	for _, e := range log {
		b, _ := json.Marshal(e)
		buf.Write(b)
		buf.WriteByte('\n')
	}
	after := []int{}
	for _, q := range sent {
		after = append(after, q.At+1)
	}
	rep := lint.Bytes(agent, buf.Bytes(), lint.Options{SectionSource: choices[spec.ChoiceSectionSource], PlanModeData: choices[spec.ChoicePlanModeData], PlanModeMalformed: choices[spec.ChoicePlanModeMalformed], UnloadedHeader: choices[spec.ChoiceUnloadedHeader], SentAfter: after})
	var out []Finding
	for _, e := range rep.Entries {
		switch e.Level {
		case lint.LevelFinding:
			if slices.Contains(outside, e.Line-2) || steerLost && e.Rule == attribution.LintNotSteered {
				continue
			}
			out = append(out, Finding{Clause: e.Clause, Rule: e.Rule, Agent: agent, Message: fmt.Sprintf("lint: log line %d: %s", e.Line, e.Message)})
		case lint.LevelError:
			out = append(out, found(attribution.InvLogUnreadable, agent, fmt.Sprintf("lint cannot read the observed log: line %d: %s", e.Line, e.Message)))
		}
	}
	return out
}

// steerMayBeLost reports whether a message /plan steered may never reach
// a request for reasons of the runtime's, which the log does not show: a
// host pre-step listener acts in some turn (it may take a step's messages
// or reject a step whose claimed messages the loop drops), or the runtime
// restarts (its inbox is process memory).
func steerMayBeLost(rec Record) bool {
	return slices.ContainsFunc(rec.Steps, func(d StepDone) bool {
		sc := d.Step.ScriptOf()
		return d.Step.Restart != nil || sc != nil && len(sc.PreSteps) > 0
	})
}

// countOf is how many times name stands in names.
func countOf(names []string, name string) int {
	n := 0
	for _, x := range names {
		if x == name {
			n++
		}
	}
	return n
}

func onOff(active bool) string {
	if active {
		return "on"
	}
	return "off"
}
