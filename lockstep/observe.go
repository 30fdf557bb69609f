package lockstep

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

// The observation kinds and the attribution table are declared once, in
// package attribution, so that scenarios and properties attribute their
// failures by the same table; lockstep consults it in order.
const (
	ObsLoadError  = attribution.ObsLoadError
	ObsError      = attribution.ObsError
	ObsOutcome    = attribution.ObsOutcome
	ObsCommand    = attribution.ObsCommand
	ObsDecision   = attribution.ObsDecision
	ObsTool       = attribution.ObsTool
	ObsOrder      = attribution.ObsOrder
	ObsSteer      = attribution.ObsSteer
	ObsPlanMode   = attribution.ObsPlanMode
	ObsExitAppend = attribution.ObsExitAppend
	ObsAttempts   = attribution.ObsAttempts
	ObsNotices    = attribution.ObsNotices
	ObsEvents     = attribution.ObsEvents
	ObsRequest    = attribution.ObsRequest
	ObsGet        = attribution.ObsGet
	ObsFold       = attribution.ObsFold
	ObsListener   = attribution.ObsListener
	ObsUnload     = attribution.ObsUnload
)

// Rule is one line of the attribution table.
type Rule = attribution.Rule

// Table is the declared attribution table (attribution.Table).
var Table = attribution.Table

// Clauses is every clause an observation can name, in table order.
func Clauses() []string { return attribution.Clauses() }

// situation is what attribution knows besides the two results.
type situation struct {
	services sim.Services
	// open: the agent's turn was open before the action.
	open bool
	// exitPending: the reference approved an exit for the agent that is
	// not appended yet.
	exitPending bool
	// userExitPending: a user's selection of inactive was pending before
	// the action (an approval must replace it, EXIT-5).
	userExitPending bool
	// faults: append faults were armed before the action.
	faults bool
}

// Diff is the first observation on which the two results differ.
type Diff struct {
	Observation string
	Agent       string
	// Reference and Implementation render the observation on each side.
	Reference, Implementation string
	// Clauses are the clauses the observation belongs to, the most
	// specific first.
	Clauses []string
	// Expect is the reference's observation as a trace expectation the
	// implementation misses; Expressible is false when the trace format
	// cannot state it.
	Expect      trace.Expect
	Expressible bool
}

func (d *Diff) String() string {
	who := ""
	if d.Agent != "" {
		who = " of " + d.Agent
	}
	return fmt.Sprintf("%s%s [%s]: reference %s, implementation %s", d.Observation, who, strings.Join(d.Clauses, " "), d.Reference, d.Implementation)
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func ptr[T any](v T) *T { return &v }

// compare returns the first observation on which the implementation's
// result differs from the reference's, or nil.
func compare(cx situation, act sim.Action, ref, imp sim.Result) *Diff {
	return compareSkipping(cx, act, ref, imp, nil)
}

// expressible returns the first differing observation of the action that
// a trace expectation can state, or nil.
func expressible(cx situation, act sim.Action, ref, imp sim.Result) *Diff {
	skip := map[string]bool{}
	for {
		d := compareSkipping(cx, act, ref, imp, skip)
		if d == nil || d.Expressible {
			return d
		}
		skip[d.Observation] = true
	}
}

func compareSkipping(cx situation, act sim.Action, ref, imp sim.Result, skip map[string]bool) *Diff {
	d := func(obs, agent string, r, i any, clauses []string, x trace.Expect) *Diff {
		return &Diff{Observation: obs, Agent: agent, Reference: show(r), Implementation: show(i), Clauses: clauses, Expect: x, Expressible: true}
	}
	agent := act.Agent()
	if (ref.Error != "") != (imp.Error != "") && !skip[ObsError] && !skip[ObsLoadError] {
		obs, cl := ObsError, attribution.Row(attribution.RowErrorIdleSet)
		switch {
		case act.Load != nil, act.Reload != nil:
			obs, cl = ObsLoadError, attribution.Row(attribution.RowLoadConfig)
		case act.Fold != nil:
			cl = attribution.Row(attribution.RowErrorFold)
		case act.Command != nil:
			cl = commandClauses(act.Command.Input)
		}
		return d(obs, agent, ref.Error != "", imp.Error != "", cl, trace.Expect{Error: ptr(ref.Error != "")})
	}
	if ref.Outcome != imp.Outcome && !skip[ObsOutcome] {
		var cl []string
		switch ref.Outcome {
		case spec.Noop:
			cl = attribution.Row(attribution.RowOutcomeNoop)
		case spec.Queued:
			cl = attribution.Row(attribution.RowOutcomeQueued)
		case spec.Cancelled:
			cl = attribution.Row(attribution.RowOutcomeCommitted)
			if cx.open {
				cl = attribution.Row(attribution.RowOutcomeCancelledInTurn)
			}
		default:
			cl = attribution.Row(attribution.RowOutcomeCommitted)
		}
		return d(ObsOutcome, agent, ref.Outcome, imp.Outcome, cl, trace.Expect{Outcome: ref.Outcome})
	}
	if ref.Command != nil && imp.Command != nil && ref.Command.Reported && imp.Command.Reported &&
		commandOf(ref) == commandOf(imp) && appends(ref) == appends(imp) &&
		ref.Command.Outcome != imp.Command.Outcome && !skip[ObsCommand] {
		// The reply means another outcome than the selection had.
		want := trace.Expect{Command: &trace.CommandExpect{Outcome: ref.Command.Outcome}}
		cl := attribution.Row(attribution.RowReplyOutcome)
		if show(ref.After) != show(imp.After) {
			// get shows another state after it: the command selected
			// another state than its words do, and says so
			cl = append(commandClauses(act.Command.Input), cl...)
		}
		return d(ObsCommand, agent, announces+ref.Command.Outcome, announces+orNone(imp.Command.Outcome), cl, want)
	}
	if x := commandOf(ref); x != commandOf(imp) && !skip[ObsCommand] {
		cl := commandClauses(act.Command.Input)
		switch {
		case ref.Command != nil && imp.Command != nil && ref.Command.Registered != imp.Command.Registered:
			cl = attribution.Row(attribution.RowCommandRegistered)
		case appends(ref) != appends(imp) && !selectsOther(act.Command.Input, imp) && !spec.ParseCommand(act.Command.Input).NearOff():
			// The command's selection was appended where the
			// reference's was not, or the other way round: the set's
			// rule, then the command's.
			if cx.open {
				cl = append(attribution.Row(attribution.RowCommandAppendedInTurn), cl...)
			} else {
				cl = append(attribution.Row(attribution.RowCommandAppendedIdle), cl...)
			}
		}
		want := trace.Expect{}
		if ref.Command != nil {
			want.Command = &trace.CommandExpect{Registered: ptr(ref.Command.Registered), Kind: ref.Command.Kind}
		}
		return d(ObsCommand, agent, x, commandOf(imp), cl, want)
	}
	if act.Unload != nil && ref.Load != nil && imp.Load != nil && !skip[ObsUnload] {
		if r, i := registrations(*ref.Load), registrations(*imp.Load); !slices.Equal(r, i) {
			return &Diff{Observation: ObsUnload, Agent: agent, Reference: show(r), Implementation: show(i), Clauses: attribution.Row(attribution.RowUnloadKeeps)}
		}
	}
	// The plugin's listener runs first and wraps all the others (STEP-1):
	// it registers prepended, and it runs at every step, a step a listener
	// registered before it rejects too.
	if ref.Load != nil && imp.Load != nil && ref.Load.Error == "" && imp.Load.Error == "" && ref.Load.Listener != imp.Load.Listener && !skip[ObsListener] {
		return &Diff{Observation: ObsListener, Agent: agent, Reference: "registered " + ref.Load.Listener, Implementation: "registered " + orNone(imp.Load.Listener), Clauses: attribution.Row(attribution.RowListener),
			Expect: trace.Expect{Registered: &trace.RegisteredExpect{Listener: ref.Load.Listener}}, Expressible: true}
	}
	if (ref.PreStep != nil) != (imp.PreStep != nil) && !skip[ObsListener] {
		x := trace.Expect{Listener: &trace.ListenerExpect{Ran: ptr(ref.PreStep != nil)}}
		return &Diff{Observation: ObsListener, Agent: agent, Reference: fmt.Sprintf("listener ran %v", ref.PreStep != nil), Implementation: fmt.Sprintf("listener ran %v", imp.PreStep != nil), Clauses: attribution.Row(attribution.RowListener), Expect: x, Expressible: true}
	}
	if ref.Decision != imp.Decision && !skip[ObsDecision] {
		cl := attribution.Row(attribution.RowDecisionChanged)
		if failedAppend(ref) || failedAppend(imp) {
			cl = attribution.Row(attribution.RowDecisionAppendFailed)
		}
		return d(ObsDecision, agent, ref.Decision, imp.Decision, cl, trace.Expect{Decision: ref.Decision})
	}
	agents := agentsOf(ref, imp) // every agent either side touched
	for _, a := range agents {
		if r, i := downstreamAt(ref, a), downstreamAt(imp, a); r != i && r >= 0 && i >= 0 && !skip[ObsOrder] && appends(ref) == appends(imp) {
			return &Diff{Observation: ObsOrder, Agent: a, Reference: fmt.Sprintf("next() after %d appends", r), Implementation: fmt.Sprintf("next() after %d appends", i), Clauses: attribution.Row(attribution.RowOrder)}
		}
	}
	// What a plugin steers is SPEC.md's (CMD-3: /plan <message> sends the
	// text through agent.steer()). How it records an idle commit's notice
	// (injected at the commit, or deferred) is its own: the notice is
	// compared where the model sees it, in the next step's messages.
	for _, a := range agents {
		r, i := effectTexts(ref, a, sim.EffectSteer), effectTexts(imp, a, sim.EffectSteer)
		if show(r) == show(i) || skip[ObsSteer] {
			continue
		}
		cl := attribution.Row(attribution.RowSteerOther)
		switch {
		case act.Command != nil && spec.ParseCommand(act.Command.Input).NearOff() && show(ref.After) != show(imp.After):
			cl = attribution.Row(attribution.RowSteerNearOff)
		case act.Command != nil:
			cl = attribution.Row(attribution.RowSteerCommand)
		}
		return &Diff{Observation: ObsSteer, Agent: a, Reference: show(r), Implementation: show(i), Clauses: cl}
	}
	for _, a := range agents {
		if df := comparePlan(cx, act, a, ref, imp); df != nil && !skip[df.Observation] {
			return df
		}
	}
	for _, a := range agents {
		if df := compareAttempts(cx, act, a, ref, imp); df != nil && !skip[ObsAttempts] {
			return df
		}
	}
	for _, a := range agents {
		r, i := ref.Notices(a), imp.Notices(a)
		if len(r) != len(i) && !skip[ObsNotices] {
			cl := attribution.Row(attribution.RowNotices)
			if cx.exitPending && len(ref.PlanEvents(a)) > 0 && len(r) == 0 {
				cl = attribution.Row(attribution.RowNoticesExit)
			}
			x := trace.Expect{Agent: a, Notices: ptr(len(r))}
			return d(ObsNotices, a, texts(r), texts(i), cl, x)
		}
	}
	// The state in force decides what the exit tool does, so a state that
	// differs is named before the tool results it leads to.
	for _, a := range agents {
		r, rok := ref.StateOf(a)
		i, iok := imp.StateOf(a)
		if rok && iok && r.Active != i.Active && !skip[ObsGet] {
			return d(ObsGet, a, r, i, activeRow(r, i), stateExpect(a, r))
		}
	}
	if r, i := tools(act, ref), tools(act, imp); show(r) != show(i) && !skip[ObsTool] {
		return toolDiff(cx, act, ref, r, i)
	}
	for _, a := range agents {
		if df := compareEvents(act, a, ref, imp); df != nil && !skip[ObsEvents] {
			// A request/header renders the state and, under
			// section-source=pending, the selection pending: when what is
			// pending after the step differs too, that is the cause.
			r, rok := ref.StateOf(a)
			i, iok := imp.StateOf(a)
			if headerDiff(df) && rok && iok && r.Active == i.Active && show(r.Pending) != show(i.Pending) && !skip[ObsGet] {
				return d(ObsGet, a, r, i, pendingClauses(cx, act, ref, r, i), stateExpect(a, r))
			}
			return df
		}
	}
	if df := compareRequests(ref, imp); df != nil && !skip[ObsRequest] {
		return df
	}
	for _, a := range agents {
		r, rok := ref.StateOf(a)
		i, iok := imp.StateOf(a)
		if rok != iok || show(r) == show(i) || skip[ObsGet] {
			continue
		}
		x := stateExpect(a, r)
		if r.Active != i.Active {
			return d(ObsGet, a, r, i, activeRow(r, i), x)
		}
		return d(ObsGet, a, r, i, pendingClauses(cx, act, ref, r, i), x)
	}
	if show(ref.Fold) != show(imp.Fold) && !skip[ObsFold] {
		return d(ObsFold, agent, ref.Fold, imp.Fold, attribution.Row(attribution.RowFold), trace.Expect{Fold: ref.Fold})
	}
	return nil
}

// registrations names what a load or unload reply leaves registered: the
// listener, and the tools', sections' and commands' names (rendered as
// JSON, as every observation is, so a name is quoted text).
func registrations(r sim.LoadReply) []string {
	names := []string{}
	if r.Listener != "" {
		names = append(names, "listener")
	}
	for _, t := range r.Tools {
		names = append(names, "tool "+t.Name)
	}
	for _, x := range r.Sections {
		names = append(names, "section "+x)
	}
	for _, c := range r.Commands {
		names = append(names, "command "+c)
	}
	return names
}

// stateExpect is get() of agent as the reference answered it, as a trace
// expectation.
func stateExpect(agent string, g sim.GetReply) trace.Expect {
	return trace.Expect{Agent: agent, State: &trace.StateExpect{Active: ptr(g.Active), Pending: pendingJSON(g.Pending)}}
}

// headerDiff reports whether an appended-events difference is a
// request/header's sections or tool catalog (headerClauses).
func headerDiff(df *Diff) bool {
	return slices.Equal(df.Clauses, attribution.Row(attribution.RowEventsSections)) || slices.Equal(df.Clauses, attribution.Row(attribution.RowEventsTools))
}

func pendingJSON(p *bool) json.RawMessage {
	if p == nil {
		return json.RawMessage(`"none"`)
	}
	return json.RawMessage(fmt.Sprint(*p))
}

func pendingClauses(cx situation, act sim.Action, ref sim.Result, r, i sim.GetReply) []string {
	switch {
	case act.Restart != nil, act.Load != nil, act.Reload != nil:
		// A fresh process or a fresh load: pending selections were
		// process-local.
		return attribution.Row(attribution.RowGetRestart)
	case act.Get != nil:
		return attribution.Row(attribution.RowGetOther)
	case (act.Step != nil || act.Retry != nil) && keptPlanningAfterApproval(cx, ref):
		if cx.userExitPending {
			// The exit left pending is the approval's (kept by keep
			// planning) or the user's (not replaced by the approval):
			// the log cannot tell which yet.
			return attribution.Row(attribution.RowGetKeptPlanningUserExit)
		}
		return attribution.Row(attribution.RowGetKeptPlanning)
	case (act.Step != nil || act.Retry != nil) && cx.faults:
		// a failed append keeps the selection pending (STEP-5)
		return attribution.Row(attribution.RowGetStepFault)
	case (act.Step != nil || act.Retry != nil) && ref.Decision != "" && ref.Decision != sim.Accept:
		// a rejected or aborted step appends nothing (STEP-3)
		return attribution.Row(attribution.RowGetStepRejected)
	case r.Pending != nil && i.Pending == nil && act.Reload == nil && act.Step == nil && act.Retry == nil:
		return attribution.Row(attribution.RowGetHidden)
	case act.Set != nil:
		switch ref.Outcome {
		case spec.Noop:
			return attribution.Row(attribution.RowGetAfterNoop)
		case spec.Queued:
			return attribution.Row(attribution.RowGetAfterQueued)
		case spec.Cancelled:
			if cx.open {
				return attribution.Row(attribution.RowGetAfterCancelled)
			}
		}
		return attribution.Row(attribution.RowGetAfterCommitted)
	case act.Command != nil:
		cmd := commandClauses(act.Command.Input)
		if spec.ParseCommand(act.Command.Input).Active() && cx.open && r.Pending == nil && i.Pending != nil {
			// Selecting the logged state again while the opposite was
			// pending: the cancellation left an entry.
			return append(attribution.Row(attribution.RowGetCommandCancelled), cmd...)
		}
		return attribution.ForCommand(attribution.RowGetCommand, act.Command.Input, false)
	case act.Step != nil || act.Retry != nil:
		if keptPlanningAfterApproval(cx, ref) {
			if cx.userExitPending {
				// The exit left pending is the approval's (kept by
				// keep planning) or the user's (not replaced by the
				// approval): the log cannot tell which yet.
				return attribution.Row(attribution.RowGetKeptPlanningUserExit)
			}
			return attribution.Row(attribution.RowGetKeptPlanning)
		}
		return attribution.Row(attribution.RowGetStep)
	}
	return attribution.Row(attribution.RowGetOther)
}

// keptPlanningAfterApproval reports whether, in the reference's result, a
// review the user did not approve followed an approval whose exit was still
// pending (earlier in the same batch, or before the action): EXIT-6 then
// withdraws that exit.
func keptPlanningAfterApproval(cx situation, ref sim.Result) bool {
	approved := cx.exitPending
	for _, t := range ref.Tools {
		switch {
		case t.OK && sim.Approved(t.Result):
			approved = true
		case approved && t.Asked && !t.OK:
			return true
		}
	}
	return false
}

// commandClauses are the clauses of the row of what the typed line does
// with its argument (attribution.CommandRow).
func commandClauses(input string) []string {
	return attribution.Row(attribution.CommandRow(input, false))
}

// selectsOther reports whether the implementation tried to append a
// state other than the one the command selects (failed appends count); a
// line that is not /plan selects none.
func selectsOther(input string, imp sim.Result) bool {
	cmd := spec.ParseCommand(input)
	target := cmd.Active()
	for _, e := range imp.Effects {
		if e.Effect.Kind != sim.EffectAppend || e.Effect.Type != spec.TypePlanMode {
			continue
		}
		var v struct {
			Active bool `json:"active"`
		}
		if !cmd.IsPlan() || (json.Unmarshal(e.Effect.Data, &v) == nil && v.Active != target) {
			return true
		}
	}
	return false
}

func commandOf(r sim.Result) string {
	if r.Command == nil {
		return ""
	}
	return fmt.Sprintf("registered=%v kind=%s", r.Command.Registered, r.Command.Kind)
}

// appends counts the implementation's append effects.
func appends(r sim.Result) int {
	n := 0
	for _, e := range r.Effects {
		if e.Effect.Kind == sim.EffectAppend {
			n++
		}
	}
	return n
}

// downstreamAt is how many of the agent's appends came before the
// implementation called next() (-1: it did not call it).
func downstreamAt(r sim.Result, agent string) int {
	n := 0
	for _, e := range r.Effects {
		if e.Agent != agent {
			continue
		}
		switch e.Effect.Kind {
		case sim.EffectAppend:
			n++
		case sim.EffectDownstream:
			return n
		}
	}
	return -1
}

func failedAppend(r sim.Result) bool {
	for _, e := range r.Effects {
		if e.Effect.Kind == sim.EffectAppend && e.Effect.Failed {
			return true
		}
	}
	return false
}

func tools(act sim.Action, r sim.Result) []toolView {
	var calls []sim.ToolCall
	if s := stepOf(act); s != nil && s.Model != nil {
		calls = s.Model.Calls
	}
	var out []toolView
	for k, t := range r.Tools {
		var review *sim.Review
		if k < len(calls) {
			review = calls[k].Review
		}
		out = append(out, toolViewOf("", t, review))
	}
	return out
}

func stepOf(act sim.Action) *sim.StepAction {
	if act.Step != nil {
		return act.Step
	}
	return act.Retry
}

func toolDiff(cx situation, act sim.Action, ref sim.Result, r, i []toolView) *Diff {
	k := firstDiffering(r, i)
	c := toolCall{noQuestions: !cx.services.UserQuestions}
	if s := stepOf(act); s != nil && s.Model != nil && k < len(s.Model.Calls) {
		call := s.Model.Calls[k]
		c.name, c.args, c.review = call.Name, call.Args, call.Review
	}
	if g, ok := ref.StateOf(act.Agent()); ok {
		c.active = g.Active
	}
	cl := attribution.Row(pluginToolRows[c.caseOf(r, i, k)])
	// A trace's tool expectation reads the action's last call: it states
	// the divergence when that call differs too.
	x := trace.Expect{}
	if last := len(r) - 1; last >= k && last < len(i) && r[last] != i[last] {
		v := r[last]
		x.Tool = &trace.ToolExpect{OK: ptr(v.OK), Approved: ptr(v.Approved), Asked: ptr(v.Asked)}
		if v.Feedback {
			if s := stepOf(act); s != nil && s.Model != nil && last < len(s.Model.Calls) && s.Model.Calls[last].Review != nil {
				x.Tool.Feedback = s.Model.Calls[last].Review.FreeText()
			}
		}
	}
	return &Diff{Observation: ObsTool, Agent: act.Agent(), Reference: show(r), Implementation: show(i), Clauses: cl, Expect: x, Expressible: x.Tool != nil}
}

func agentsOf(rs ...sim.Result) []string {
	var out []string
	add := func(a string) {
		if a != "" && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	for _, r := range rs {
		for _, a := range r.Appended {
			add(a.Agent)
		}
		for _, s := range r.After {
			add(s.Agent)
		}
		for _, e := range r.Effects {
			add(e.Agent)
		}
	}
	return out
}

func planData(r sim.Result, agent string) []string {
	var out []string
	for _, a := range r.Appended {
		if a.Agent == agent && a.Event.Type == spec.TypePlanMode {
			out = append(out, string(a.Event.Data))
		}
	}
	return out
}

// planValues reads the active value of each plan/mode event appended for
// agent, whatever else its data carries.
func planValues(r sim.Result, agent string) []bool {
	out := []bool{}
	for _, a := range r.Appended {
		if a.Agent == agent && a.Event.Type == spec.TypePlanMode {
			var v struct {
				Active bool `json:"active"`
			}
			_ = json.Unmarshal(a.Event.Data, &v)
			out = append(out, v.Active)
		}
	}
	return out
}

func appended(r sim.Result, agent string) []trace.EventExpect {
	out := []trace.EventExpect{}
	for _, a := range r.Appended {
		if a.Agent != agent {
			continue
		}
		// compared by meaning (trace's appended expectation reads
		// sim.EventKeys), so the reference's data states it
		out = append(out, trace.EventExpect{Type: a.Event.Type, Data: a.Event.Data})
	}
	return out
}

func comparePlan(cx situation, act sim.Action, a string, ref, imp sim.Result) *Diff {
	rv, iv := planValues(ref, a), planValues(imp, a)
	rd, id := planData(ref, a), planData(imp, a)
	if show(rd) == show(id) {
		return nil
	}
	mk := func(cl []string, x trace.Expect) *Diff {
		return &Diff{Observation: ObsPlanMode, Agent: a, Reference: show(rd), Implementation: show(id), Clauses: cl, Expect: x, Expressible: true}
	}
	if show(rv) == show(iv) {
		return mk(attribution.Row(attribution.RowPlanData), trace.Expect{Agent: a, Appended: appended(ref, a)})
	}
	x := trace.Expect{Agent: a, PlanMode: append([]bool{}, rv...)}
	if len(iv) > len(rv) && show(slices.Compact(slices.Clone(iv))) == show(slices.Compact(slices.Clone(rv))) {
		return mk(attribution.Row(attribution.RowPlanRepeated), x)
	}
	switch {
	case act.Step != nil || act.Retry != nil:
		switch {
		case downstreamAt(imp, a) > max(downstreamAt(ref, a), 0):
			// it appended before calling next(), so before the
			// downstream decision it must wait for
			return mk(attribution.Row(attribution.RowPlanBeforeDownstream), x)
		case ref.Decision != sim.Accept && ref.Decision != "":
			return mk(attribution.Row(attribution.RowPlanRejected), x)
		case act.Retry != nil && len(rv) > len(iv):
			return mk(attribution.Row(attribution.RowPlanRetry), x)
		case ref.Skipped && !imp.Skipped:
			// The reference's step carried no messages and was skipped;
			// the implementation's notice made it run.
			return mk(attribution.Row(attribution.RowPlanSkippedRan), x)
		case ref.Skipped:
			// Both skipped it: a selection there waits for a step that
			// runs, in a later turn (choice empty-step).
			return mk(attribution.Row(attribution.RowPlanBothSkipped), x)
		case approvedExit(ref) && len(iv) > len(rv):
			// The step's exit tool call was approved: its exit waits for
			// the next accepted pre-step, the implementation appended it
			// during the call (an armed fault or not).
			d := mk(attribution.Row(attribution.RowPlanExitAtOnce), x)
			d.Observation = ObsExitAppend
			return d
		case cx.exitPending && len(rv) > len(iv) && !rv[len(rv)-1]:
			// An approved exit was pending: this accepted pre-step
			// appends it, the implementation did not.
			return mk(attribution.Row(attribution.RowPlanExitLate), x)
		case cx.faults:
			return mk(attribution.Row(attribution.RowPlanFault), x)
		}
		return mk(attribution.Row(attribution.RowPlanStep), x)
	case act.Set != nil:
		if ref.Outcome == spec.Queued || ref.Outcome == spec.Cancelled {
			return mk(attribution.Row(attribution.RowPlanSetQueued), x)
		}
		return mk(attribution.Row(attribution.RowPlanSetCommitted), x)
	case act.Command != nil:
		cmd := commandClauses(act.Command.Input)
		plan := spec.ParseCommand(act.Command.Input)
		for _, v := range iv {
			if !plan.IsPlan() || v != plan.Active() { // a line that is not /plan selects nothing
				return mk(attribution.ForCommand(attribution.RowPlanCommandOther, act.Command.Input, false), x)
			}
		}
		// The command selected the right state; what the selection did
		// with it (append at once or wait) is the set's rule.
		if cx.open {
			return mk(append(attribution.Row(attribution.RowPlanCommandInTurn), cmd...), x)
		}
		return mk(append(attribution.Row(attribution.RowPlanCommandIdle), cmd...), x)
	case act.Prompt != nil:
		return mk(attribution.Row(attribution.RowPlanPrompt), x)
	}
	return mk(attribution.Row(attribution.RowPlanOther), x)
}

// approvedExit reports whether an exit_plan_mode call of the action was
// approved.
func approvedExit(r sim.Result) bool {
	return slices.ContainsFunc(r.Tools, func(t sim.ToolOutcome) bool { return t.Name == spec.ExitTool && t.OK })
}

// attempts lists the plan/mode appends the implementation attempted for
// agent, failed ones included (an armed fault fails them, so the log
// does not show them, but each consumes the fault).
func attempts(r sim.Result, agent string) []string {
	out := []string{}
	for _, e := range r.Effects {
		if e.Agent == agent && e.Effect.Kind == sim.EffectAppend && e.Effect.Type == spec.TypePlanMode {
			out = append(out, fmt.Sprintf("%s failed=%v", e.Effect.Data, e.Effect.Failed))
		}
	}
	return out
}

// compareAttempts compares the attempted plan/mode appends when the logs
// agree: an append that failed on one side only. The clauses are those of
// the append as if it had succeeded.
func compareAttempts(cx situation, act sim.Action, a string, ref, imp sim.Result) *Diff {
	r, i := attempts(ref, a), attempts(imp, a)
	if show(r) == show(i) {
		return nil
	}
	as := func(res sim.Result) sim.Result {
		out := res
		out.Appended = nil
		for _, e := range res.Effects {
			if e.Agent == a && e.Effect.Kind == sim.EffectAppend && e.Effect.Type == spec.TypePlanMode {
				out.Appended = append(out.Appended, sim.Appended{Agent: a, Event: sim.Event{Type: spec.TypePlanMode, Data: e.Effect.Data}, ByPlugin: true})
			}
		}
		return out
	}
	d := comparePlan(cx, act, a, as(ref), as(imp))
	if d == nil {
		return nil
	}
	return &Diff{Observation: ObsAttempts, Agent: a, Reference: show(r), Implementation: show(i), Clauses: attribution.Among(attribution.RowAttempts, d.Clauses)}
}

func texts(ms []sim.Message) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.Text)
	}
	return out
}

func compareEvents(act sim.Action, a string, ref, imp sim.Result) *Diff {
	var r, i []sim.Event
	for _, x := range ref.Appended {
		if x.Agent == a {
			r = append(r, x.Event)
		}
	}
	for _, x := range imp.Appended {
		if x.Agent == a {
			i = append(i, x.Event)
		}
	}
	if slices.EqualFunc(r, i, func(a, b sim.Event) bool { return a.Type == b.Type && string(a.Data) == string(b.Data) }) {
		return nil // the same words too
	}
	rkeys, ikeys := sim.EventKeys(r), sim.EventKeys(i)
	if slices.Equal(rkeys, ikeys) {
		return nil
	}
	k := 0
	for k < len(r) && k < len(i) && rkeys[k] == ikeys[k] {
		k++
	}
	cl := attribution.Row(attribution.RowEventsOther)
	rk, ik := slices.Clone(rkeys), slices.Clone(ikeys)
	slices.Sort(rk)
	slices.Sort(ik)
	switch {
	case show(rk) == show(ik):
		cl = attribution.Row(attribution.RowEventsOrder)
	case k < len(r) && k < len(i) && r[k].Type == spec.TypeRequestHeader && i[k].Type == spec.TypeRequestHeader:
		cl = headerClauses(r[k].Data, i[k].Data)
	case (act.Set != nil || act.Idle != nil || act.Command != nil) && len(i) > len(r):
		cl = attribution.Row(attribution.RowEventsSelection)
	}
	rs, is := "(end)", "(end)"
	if k < len(r) {
		rs = rkeys[k]
	}
	if k < len(i) {
		is = ikeys[k]
	}
	return &Diff{Observation: ObsEvents, Agent: a, Reference: fmt.Sprintf("[%d] %s", k, rs), Implementation: fmt.Sprintf("[%d] %s", k, is),
		Clauses: cl, Expect: trace.Expect{Agent: a, Appended: appended(ref, a)}, Expressible: true}
}

func headerClauses(r, i json.RawMessage) []string {
	type header struct {
		Header struct {
			System json.RawMessage `json:"system"`
			Tools  json.RawMessage `json:"tools"`
		} `json:"header"`
	}
	var rh, ih header
	_ = json.Unmarshal(r, &rh)
	_ = json.Unmarshal(i, &ih)
	switch {
	case string(rh.Header.System) != string(ih.Header.System):
		return attribution.Row(attribution.RowEventsSections)
	case string(rh.Header.Tools) != string(ih.Header.Tools):
		return attribution.Row(attribution.RowEventsTools)
	}
	return attribution.Row(attribution.RowEventsOther)
}

func compareRequests(ref, imp sim.Result) *Diff {
	for k := 0; k < max(len(ref.Requests), len(imp.Requests)); k++ {
		if k >= len(ref.Requests) || k >= len(imp.Requests) {
			return &Diff{Observation: ObsRequest, Reference: fmt.Sprintf("%d requests", len(ref.Requests)), Implementation: fmt.Sprintf("%d requests", len(imp.Requests)), Clauses: attribution.Row(attribution.RowRequestCount)}
		}
		r, i := ref.Requests[k], imp.Requests[k]
		x := trace.Expect{Agent: r.Agent}
		switch {
		case show(r.Sections) != show(i.Sections):
			x.Sections = sectionNames(r)
			_, has := r.Section(spec.SectionName)
			x.Section = ptr(has)
			return &Diff{Observation: ObsRequest, Agent: r.Agent, Reference: "sections " + show(r.Sections), Implementation: "sections " + show(i.Sections), Clauses: attribution.Row(attribution.RowRequestSections), Expect: x, Expressible: k == len(ref.Requests)-1}
		case !slices.Equal(sim.CatalogKey(toolNames(r.Tools)), sim.CatalogKey(toolNames(i.Tools))):
			x.Tools = []string{}
			for _, t := range r.Tools {
				x.Tools = append(x.Tools, t.Name)
			}
			return &Diff{Observation: ObsRequest, Agent: r.Agent, Reference: "tools " + show(r.Tools), Implementation: "tools " + show(i.Tools), Clauses: attribution.Row(attribution.RowRequestTools), Expect: x, Expressible: k == len(ref.Requests)-1}
		case !slices.Equal(sim.MessageKeys(r.Messages), sim.MessageKeys(i.Messages)):
			return &Diff{Observation: ObsRequest, Agent: r.Agent, Reference: "messages " + show(sim.MessageKeys(r.Messages)), Implementation: "messages " + show(sim.MessageKeys(i.Messages)), Clauses: attribution.Row(attribution.RowRequestMessages)}
		}
	}
	return nil
}

func toolNames(ts []sim.Tool) []string {
	out := make([]string, len(ts))
	for k, t := range ts {
		out[k] = t.Name
	}
	return out
}

func sectionNames(q sim.Request) []string {
	out := []string{}
	for _, s := range q.Sections {
		out = append(out, fmt.Sprintf("%s@%d", s.Name, s.Order))
	}
	return out
}

func effectTexts(r sim.Result, agent, kind string) []string {
	out := []string{}
	for _, e := range r.Effects {
		if e.Agent == agent && e.Effect.Kind == kind && e.Effect.Message != nil {
			out = append(out, e.Effect.Message.Text)
		}
	}
	return out
}

// TableMarkdown renders Table as the Markdown table docs/lockstep.md
// carries (a test keeps the page's copy true).
func TableMarkdown() string {
	var b strings.Builder
	b.WriteString("| row | observation | when | clauses |\n|---|---|---|---|\n")
	for _, r := range Table {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", r.ID, r.Observation, r.When, strings.Join(r.Clauses, " "))
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}

// activeRow names a get whose active differs from the reference's: PEND-7
// when it reports the selection the reference holds pending ("active is
// the logged state"), else the state is not the fold (LOG-3; probeFold
// tells LOG-2).
func activeRow(r, i sim.GetReply) []string {
	if r.Pending != nil && *r.Pending == i.Active {
		return attribution.Row(attribution.RowGetActivePending)
	}
	return attribution.Row(attribution.RowGetActive)
}
