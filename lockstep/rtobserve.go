package lockstep

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// The runtime level's observation kinds (attribution.Table's runtime rows).
const (
	RtLoadError = attribution.RtLoadError
	RtError     = attribution.RtError
	RtOutcome   = attribution.RtOutcome
	RtCommand   = attribution.RtCommand
	RtPlanMode  = attribution.RtPlanMode
	RtSkipped   = attribution.RtSkipped
	RtNotices   = attribution.RtNotices
	RtActive    = attribution.RtActive
	RtTool      = attribution.RtTool
	RtEvents    = attribution.RtEvents
	RtRequest   = attribution.RtRequest
	RtGet       = attribution.RtGet
)

// rtSituation is what runtime attribution knows of the script before a
// step, besides the two observations.
type rtSituation struct {
	// reloaded: plan mode was loaded again from the logs (a restart, a
	// reload, or an unload then either) earlier in the script.
	reloaded bool
	// outside: an outside writer appended a plan/mode event earlier.
	outside bool
	// faults: append faults were armed earlier (a fault step).
	faults bool
	// unloaded: plan mode is unloaded.
	unloaded bool
	// headerOnChange: the runtime variant header-on-change is assumed
	// (a request/header is logged only when it differs from the last).
	headerOnChange bool
	// lastHeader is the last header the reference logged since the process
	// started (a restart forgets it, as a loop that keeps it in memory does).
	lastHeader string
	// cancelled: a set (a step's or a host action's) was cancelled earlier;
	// offTyped: /plan off was typed earlier (its cancellation of a pending
	// entry decides what is pending after it).
	cancelled, offTyped bool
	// noQuestions: the script composes no user-questions channel.
	noQuestions bool
	// last is the previous step's kind and the reference's set outcome
	// or command input there.
	last, lastOutcome, lastInput string
	// lastApproved: the previous step approved an exit (EXIT-5: it is
	// pending, appended at the next accepted in-turn pre-step).
	lastApproved bool
	// lastStep and lastDone are the previous step and the reference's
	// record of it (what a turn's script did decides what a selection
	// pending after it met).
	lastStep loop.Step
	lastDone loop.StepDone
	// before are the host listeners registered before plan mode (plan
	// mode's, prepended, must still run first and wrap them: STEP-1).
	before []string
}

// situationOf is the situation at the start of t.
func situationOf(t loop.Trace, headerOnChange bool) rtSituation {
	cx := rtSituation{headerOnChange: headerOnChange, noQuestions: t.Services != nil && !t.Services.UserQuestions}
	for _, l := range t.Listeners {
		if l.Position == "before" {
			cx.before = append(cx.before, l.Name)
		}
	}
	return cx
}

// guarded reports whether a listener registered before plan mode acts in
// the step's script.
func (cx rtSituation) guarded(st loop.Step) bool {
	sc := st.ScriptOf()
	return sc != nil && slices.ContainsFunc(sc.PreSteps, func(p loop.PreStep) bool { return slices.Contains(cx.before, p.Listener) })
}

// cancels reports whether a set or /plan of the reference's step (a step's
// or a host action's) returned cancelled.
func cancels(d loop.StepDone) bool {
	if d.Set != nil && d.Set.Outcome == spec.Cancelled {
		return true
	}
	return slices.ContainsFunc(d.Obs.Results, func(r loop.ActionResult) bool {
		return r.Set != nil && r.Set.Outcome == spec.Cancelled || r.Command != nil && r.Command.Outcome == spec.Cancelled
	})
}

// after advances the situation past a step the reference played.
func (cx *rtSituation) after(st loop.Step, ref loop.StepDone) {
	switch {
	case st.Restart != nil, st.Reload != nil:
		cx.reloaded, cx.unloaded = true, false
		if st.Restart != nil {
			cx.lastHeader = ""
		}
	case st.Unload != nil:
		cx.unloaded = true
	case st.Append != nil && st.Append.Type == spec.TypePlanMode:
		cx.outside = true
	case st.Fault != nil:
		cx.faults = true
	}
	for h := range st.ScriptOf().HostActions() {
		cx.faults = cx.faults || h.Fault != nil
	}
	for _, e := range ref.Obs.Events {
		if e.Type == spec.TypeRequestHeader {
			cx.lastHeader = headerOf(e)
		}
	}
	for _, r := range ref.Obs.Results {
		cx.cancelled = cx.cancelled || r.Set != nil && r.Set.Outcome == spec.Cancelled
		if r.Command != nil && typesOff(hostInput(st, r.ID)) {
			cx.offTyped = true
		}
	}
	if ref.Set != nil && ref.Set.Outcome == spec.Cancelled {
		cx.cancelled = true
	}
	if st.Command != nil && typesOff(st.Command.Input) {
		cx.offTyped = true
	}
	cx.last, cx.lastOutcome, cx.lastInput = st.Name(), "", ""
	cx.lastStep, cx.lastDone = st, ref
	cx.lastApproved = approved(ref)
	if ref.Set != nil {
		cx.lastOutcome = ref.Set.Outcome
	}
	if st.Command != nil {
		cx.lastInput = st.Command.Input
	}
}

// signature is the reference side's observable state after a script: the
// logs and the situation, so that scripts reaching the same one are merged.
func signature(rec loop.Record, cx rtSituation) string {
	return show(rec.Logs) + show([]any{cx.reloaded, cx.outside, cx.faults, cx.unloaded, cx.last, cx.lastOutcome, cx.lastInput, cx.lastApproved})
}

// compareRuntime returns the first observation of one step on which the
// runtime under test (imp) differs from the reference side (ref), named by
// the table's runtime rows, or nil.
func compareRuntime(cx rtSituation, refRec loop.Record, ref, imp loop.StepDone) *Diff {
	st := ref.Step
	agent := st.Agent()
	d := func(obs string, r, i any, clauses []string) *Diff {
		return &Diff{Observation: obs, Agent: agent, Reference: show(r), Implementation: show(i), Clauses: clauses}
	}
	if (ref.Error != "") != (imp.Error != "") {
		return d(RtError, ref.Error != "", imp.Error != "", rows(attribution.RowRtErrorStep))
	}
	if r, i := ref.Set, imp.Set; r != nil && i != nil {
		if (r.Error != "") != (i.Error != "") {
			return d(RtOutcome, r.Error != "", i.Error != "", rows(attribution.RowRtOutcomeError))
		}
		if r.Outcome != i.Outcome {
			return d(RtOutcome, r.Outcome, i.Outcome, outcomeClauses(cx, r.Outcome, false))
		}
	}
	if r, i := ref.Command, imp.Command; r != nil && i != nil && r.Kind != i.Kind {
		return d(RtCommand, r.Kind, i.Kind, cx.prefix(commandResultClauses(st.Command.Input, r.Kind, i.Kind)))
	}
	// host actions' and tool calls' results, by id, in the order they
	// happened: set outcomes, command results, tool results
	missing := ""
	here := cx
	cancelledNow := false // a set or /plan cancelled earlier in this step
	for _, rr := range ref.Obs.Results {
		ir := resultByID(imp, rr.ID)
		cx := here
		if rr.Set != nil && rr.Set.Outcome == spec.Cancelled {
			here.cancelled = true
		}
		if rr.Command != nil && typesOff(hostInput(st, rr.ID)) {
			here.offTyped = true
		}
		if rr.Tool != nil && rr.Tool.OK && rr.Tool.Name == spec.ExitTool {
			// what follows in the step meets the exit this approval left
			// pending (EXIT-5)
			here.lastApproved = true
		}
		switch {
		case ir == nil:
			if missing == "" {
				missing = rr.ID
			}
		case rr.Set != nil && ir.Set != nil && ((rr.Set.Error != "") != (ir.Set.Error != "")):
			cl := rows(attribution.RowRtOutcomeError)
			if rr.Set.Outcome == spec.Queued && ir.Set.Error != "" {
				// the runtime appended a selection the reference queued
				// (and the append failed): the queued outcome's rows first
				cl = merge(outcomeClauses(cx, rr.Set.Outcome, st.ScriptOf() != nil), cl)
			}
			return d(RtOutcome, rr.Set.Error != "", ir.Set.Error != "", cl)
		case rr.Set != nil && ir.Set != nil && rr.Set.Outcome != ir.Set.Outcome:
			cl := outcomeClauses(cx, rr.Set.Outcome, st.ScriptOf() != nil)
			if cancelledNow && rr.Set.Outcome == spec.Noop && ir.Set.Outcome == spec.Cancelled {
				// an entry the cancellation earlier in the turn left
				cl = merge(rows(attribution.RowRtOutcomeKeptEntry), cl)
			}
			return d(RtOutcome, rr.Set.Outcome, ir.Set.Outcome, cl)
		case rr.Command != nil && ir.Command != nil && rr.Command.Kind != ir.Command.Kind:
			return d(RtCommand, rr.Command.Kind, ir.Command.Kind, cx.prefix(commandResultClauses(hostInput(st, rr.ID), rr.Command.Kind, ir.Command.Kind)))
		case rr.Tool != nil && ir.Tool != nil:
			if df := compareTools(cx, refRec, ref, imp, rr.ID); df != nil {
				df.Agent = agent
				return df
			}
		}
		cancelledNow = cancelledNow || rr.Set != nil && rr.Set.Outcome == spec.Cancelled || rr.Command != nil && rr.Command.Outcome == spec.Cancelled
	}
	if r, i := len(ref.Obs.Requests), len(imp.Obs.Requests); selectsOnly(st) && (i > r || startsTurn(imp) && !startsTurn(ref)) {
		// a selection between turns started a step (and whatever it
		// logged): PEND-2
		return d(RtRequest, fmt.Sprintf("%d requests", r), fmt.Sprintf("%d requests", i), rows(attribution.RowRtSelectionStarted))
	}
	if r, i := loop.PlanModeEvents(ref), loop.PlanModeEvents(imp); !slices.Equal(r, i) || rtPlanData(ref) != rtPlanData(imp) {
		if len(r) == len(i) && !plainPlanData(imp) {
			return d(RtPlanMode, rtPlanData(ref), rtPlanData(imp), rows(attribution.RowRtPlanData))
		}
		return d(RtPlanMode, r, i, planModeClauses(cx, refRec, ref, imp, r, i))
	}
	if r, i := len(ref.Obs.Requests), len(imp.Obs.Requests); r < i && dropsMessages(st) {
		return d(RtSkipped, fmt.Sprintf("%d requests", r), fmt.Sprintf("%d requests", i), rows(attribution.RowRtSkipped))
	}
	if r, i := loop.Notices(ref), loop.Notices(imp); r != i {
		var ids []string
		if approved(ref) {
			ids = append(ids, attribution.RowRtNoticesApproved)
		}
		ids = append(ids, listenerRows(cx, st)...)
		return d(RtNotices, r, i, cx.prefix(rows(append(ids, attribution.RowRtNotices)...)))
	}
	if r, i := ref.Get, imp.Get; r != nil && i != nil && r.Active != i.Active {
		cl := cx.stateClauses(approved(ref))
		if foldFirst(refRec.Logs[agent], i.Active) {
			cl = merge(rows(attribution.RowRtStateFoldFirst), cl)
		}
		return d(RtActive, r, i, cl)
	}
	if r, i := len(ref.Obs.Requests), len(imp.Obs.Requests); r != i {
		// a request sent on one side only (before the headers it logs)
		return d(RtRequest, fmt.Sprintf("%d requests", r), fmt.Sprintf("%d requests", i), requestClauses(cx, ref))
	}
	r0 := eventView(ref)
	if cx.headerOnChange {
		r0 = withoutRepeatedHeaders(cx.lastHeader, ref)
	}
	if r, i := r0, eventView(imp); !slices.Equal(r, i) {
		return d(RtEvents, r, i, eventClauses(st, r, i))
	}
	if df := compareRequestsRt(cx, ref, imp); df != nil {
		df.Agent = agent
		return df
	}
	if missing != "" {
		return d(RtError, missing+" ran", missing+" did not run", requestClauses(cx, ref))
	}
	if r, i := ref.Get, imp.Get; r != nil && i != nil && show(r) != show(i) {
		if cx.lastApproved && r.Active != i.Active {
			return d(RtGet, r, i, cx.stateClauses(false))
		}
		return d(RtGet, r, i, cx.pendingClauses(r, i))
	}
	for _, rr := range ref.Obs.Results {
		ir := resultByID(imp, rr.ID)
		if rr.Get != nil && ir != nil && ir.Get != nil && show(rr.Get) != show(ir.Get) {
			cl := cx.pendingClauses(rr.Get, ir.Get)
			if rr.Get.Active != ir.Get.Active {
				cl = cx.stateClauses(approved(ref))
			}
			return d(RtGet, rr.Get, ir.Get, cl)
		}
	}
	// what the replies announce, last: everything else the step shows is
	// the same (a runtime that does not report outcomes gives none, and
	// is not compared)
	if r, i := ref.Command, imp.Command; announcesOther(r, i) {
		return d(RtCommand, announces+r.Outcome, announces+i.Outcome, cx.prefix(rows(attribution.RowRtReplyOutcome)))
	}
	for _, rr := range ref.Obs.Results {
		if ir := resultByID(imp, rr.ID); ir != nil && announcesOther(rr.Command, ir.Command) {
			return d(RtCommand, announces+rr.Command.Outcome, announces+ir.Command.Outcome, cx.prefix(rows(attribution.RowRtReplyOutcome)))
		}
	}
	return nil
}

// announces begins what a command result announces, as a divergence
// shows it.
const announces = "announces "

// announcesOther reports whether two results of the same command, both of
// the same kind and both saying which selection outcome they announce
// (capability commandOutcomes), announce different ones.
func announcesOther(r, i *loop.CommandResult) bool {
	return r != nil && i != nil && r.Kind == i.Kind && r.Outcome != "" && i.Outcome != "" && r.Outcome != i.Outcome
}

// prefix puts LOG-3 first when an outside writer's plan/mode is in the log
// (the state must follow it), and LOG-3 then LOG-2 when plan mode was
// loaded again from the log.
func (cx rtSituation) prefix(cl []string) []string {
	var pre []string
	if cx.outside {
		pre = append(pre, attribution.RowRtOutside)
	}
	if cx.reloaded {
		pre = append(pre, attribution.RowRtReloaded)
	}
	return merge(rows(pre...), cl)
}

// rows is the clauses of the table's rows with those IDs, in order, each
// clause once.
func rows(ids ...string) []string {
	var out []string
	for _, id := range ids {
		out = merge(out, attribution.Row(id))
	}
	return out
}

// merge appends to a the clauses of b it does not hold yet.
func merge(a, b []string) []string {
	out := slices.Clone(a)
	for _, c := range b {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// stateClauses name a state in force that differs: after an approved
// exit (in this step, approvedNow, or the one before) the exit that
// approval leaves pending (EXIT-5); the fold of the log (LOG-2, after a
// load from the log), the state being the fold (LOG-3).
func (cx rtSituation) stateClauses(approvedNow bool) []string {
	var ids []string
	if approvedNow || cx.lastApproved {
		ids = append(ids, attribution.RowRtStateApproved)
	}
	if cx.reloaded {
		return rows(append(ids, attribution.RowRtStateReloaded)...)
	}
	return rows(append(ids, attribution.RowRtState)...)
}

// pendingClauses name a pending selection get shows differently.
func (cx rtSituation) pendingClauses(r, i *sim.GetReply) []string {
	switch {
	case cx.last == "restart" || cx.last == "reload" || cx.last == "unload":
		return rows(attribution.RowRtGetLoad)
	case cx.last == "turn" && cancels(cx.lastDone):
		return rows(attribution.RowRtGetTurnCancelled)
	case cx.last == "turn" && (cx.faults || scriptFaults(cx.lastStep)):
		return rows(attribution.RowRtGetTurnFault)
	case cx.last == "turn" && rejects(cx.lastStep):
		return rows(attribution.RowRtGetTurnRejected)
	case cx.last == "turn" && keptPlanning(cx.lastDone):
		return rows(attribution.RowRtGetTurnKeptPlanning)
	case cx.last == "turn":
		return rows(attribution.RowRtGetTurn)
	case r.Pending != nil && i.Pending == nil:
		return rows(attribution.RowRtGetHidden)
	case cx.last == "set":
		return outcomeClauses(cx, cx.lastOutcome, false)
	case cx.last == "command":
		return commandResultClauses(cx.lastInput, "", "")
	}
	return rows(attribution.RowRtGetOther)
}

// outcomeClauses name a set outcome by the reference's: noop PEND-3,
// queued PEND-4, cancelled in an open turn PEND-5, otherwise PEND-6.
func outcomeClauses(cx rtSituation, outcome string, inTurn bool) []string {
	var ids []string
	if cx.lastApproved {
		// an approval's exit is pending: it decides what a set meets
		ids = append(ids, attribution.RowRtAfterApproval)
	}
	switch {
	case outcome == spec.Noop:
		ids = append(ids, attribution.RowRtOutcomeNoop)
	case outcome == spec.Queued:
		ids = append(ids, attribution.RowRtOutcomeQueued)
	case outcome == spec.Cancelled && inTurn:
		ids = append(ids, attribution.RowRtOutcomeCancelledInTurn)
	default:
		ids = append(ids, attribution.RowRtOutcomeCommitted)
	}
	if cx.cancelled {
		// an earlier cancellation decides what is pending now
		ids = append(ids, attribution.RowRtAfterCancellation)
	}
	if cx.offTyped {
		// /plan off cancels a pending entry as a set does
		ids = append(ids, attribution.RowRtAfterOff)
	}
	return cx.prefix(rows(ids...))
}

// commandResultClauses name a command's differing result: registered or
// not (CMD-1), else the command's clause.
func commandResultClauses(input, r, i string) []string {
	if r == "unknown" || i == "unknown" || r == "error" && i == "success" && spec.ParseCommand(input).IsPlan() {
		// /plan known on one side only (not registered without the
		// commands service)
		return rows(attribution.RowRtCommandRegistered, attribution.CommandRow(input, true))
	}
	return rows(attribution.CommandRow(input, true))
}

// typesOff reports whether input is /plan off.
func typesOff(input string) bool {
	c := spec.ParseCommand(input)
	return c.IsPlan() && !c.Active()
}

func hostInput(st loop.Step, id string) string {
	for h := range st.ScriptOf().HostActions() {
		if h.ID == id && h.Command != nil {
			return h.Command.Input
		}
	}
	return ""
}

func resultByID(d loop.StepDone, id string) *loop.ActionResult {
	for k := range d.Obs.Results {
		if d.Obs.Results[k].ID == id {
			return &d.Obs.Results[k]
		}
	}
	return nil
}

// rtPlanData is the data of the plan/mode events a step appended.
func rtPlanData(d loop.StepDone) string {
	var out []string
	for _, e := range d.Obs.Events {
		if e.Type == spec.TypePlanMode {
			out = append(out, string(sim.Canonical(e.Data)))
		}
	}
	return strings.Join(out, " ")
}

// plainPlanData reports whether every plan/mode event a step appended
// carries exactly {"active": boolean} (LOG-1).
func plainPlanData(d loop.StepDone) bool {
	for _, e := range d.Obs.Events {
		if e.Type != spec.TypePlanMode {
			continue
		}
		if c := string(sim.Canonical(e.Data)); c != `{"active":true}` && c != `{"active":false}` {
			return false
		}
	}
	return true
}

// dropsMessages reports whether a host listener takes a step's messages in
// the step's script (an empty decision the runtime may skip).
func dropsMessages(st loop.Step) bool {
	sc := st.ScriptOf()
	if sc == nil {
		return false
	}
	for _, p := range sc.PreSteps {
		if p.Behaviour == sim.Drop {
			return true
		}
	}
	return false
}

// listenerRows name where plan mode's listener sits when the step's
// script has host listeners act: STEP-1 when one registered before plan
// mode acts (plan mode's must wrap it), STEP-3 when one rejects, aborts or
// takes the messages (plan mode appends only after the chain accepts).
func listenerRows(cx rtSituation, st loop.Step) []string {
	sc := st.ScriptOf()
	if sc == nil {
		return nil
	}
	var ids []string
	if cx.guarded(st) {
		ids = append(ids, attribution.RowRtNoticesGuard)
	}
	if slices.ContainsFunc(sc.PreSteps, func(p loop.PreStep) bool { return p.Behaviour != sim.Accept }) {
		ids = append(ids, attribution.RowRtNoticesListener)
	}
	return ids
}

// startsTurn reports whether a step logged a turn/start.
func startsTurn(d loop.StepDone) bool {
	return slices.ContainsFunc(d.Obs.Events, func(e sim.Event) bool { return e.Type == spec.TypeTurnStart })
}

// selectsOnly reports whether a step is only a selection between turns: a
// set, or a /plan command with no message to steer under either reading
// of its argument.
func selectsOnly(st loop.Step) bool {
	if st.Set != nil {
		return true
	}
	if st.Command == nil {
		return false
	}
	for _, r := range []string{spec.PlanArgumentTrimmed, spec.PlanArgumentExact} {
		if c := spec.ParseCommandAs(st.Command.Input, r); !c.IsPlan() || c.Message() != "" {
			return false
		}
	}
	return true
}

// rejects reports whether a host listener of the step's script rejects or
// aborts a step (a veto too).
func rejects(st loop.Step) bool {
	sc := st.ScriptOf()
	return sc != nil && slices.ContainsFunc(sc.PreSteps, func(p loop.PreStep) bool {
		return p.Behaviour == sim.Reject || p.Behaviour == sim.Abort || p.Behaviour == sim.Veto
	})
}

// approved reports whether an exit was approved in the step.
func approved(d loop.StepDone) bool {
	for _, r := range d.Obs.Results {
		if r.Tool != nil && r.Tool.OK && r.Tool.Name == spec.ExitTool {
			return true
		}
	}
	return false
}

// planModeClauses name plan/mode appends that differ, by what the step is
// and what its script did.
func planModeClauses(cx rtSituation, refRec loop.Record, ref, imp loop.StepDone, r, i []bool) []string {
	st := ref.Step
	for k := 1; k < len(i); k++ {
		if i[k] == i[k-1] && (k >= len(r) || r[k] != r[k-1]) {
			return rows(attribution.RowRtPlanRepeated)
		}
	}
	switch {
	case st.Set != nil:
		out := ""
		if ref.Set != nil {
			out = ref.Set.Outcome
		}
		return outcomeClauses(cx, out, false)
	case st.Command != nil && st.Command.Script == nil:
		cmd := spec.ParseCommand(st.Command.Input)
		cl := commandResultClauses(st.Command.Input, "", "")
		if cmd.IsPlan() && (len(i) > 0 && i[0] != cmd.Active() || cmd.NearOff()) {
			// the command selected another state (or read off loosely)
			return cx.prefix(cl)
		}
		return cx.prefix(append(rows(attribution.RowRtPlanCommand), cl...))
	case st.Append != nil:
		return rows(attribution.RowRtPlanOutside)
	case st.Restart != nil, st.Reload != nil, st.Unload != nil, st.Open != nil:
		return rows(attribution.RowRtPlanLoad)
	}
	sc := st.ScriptOf()
	if sc == nil {
		return cx.prefix(rows(attribution.RowRtPlanOther))
	}
	var ids []string
	failed, rejected, dropped, fault := false, false, false, cx.faults
	for _, resp := range sc.Responses {
		failed = failed || resp.Fail
		for _, h := range resp.During {
			fault = fault || h.Fault != nil
		}
		for _, c := range resp.Calls {
			for _, h := range c.During {
				fault = fault || h.Fault != nil
			}
		}
	}
	for _, p := range sc.PreSteps {
		rejected = rejected || p.Behaviour == sim.Reject || p.Behaviour == sim.Abort
		dropped = dropped || p.Behaviour == sim.Drop
		for _, h := range p.During {
			fault = fault || h.Fault != nil
		}
	}
	for _, r := range []struct {
		applies bool
		id      string
	}{
		// the runtime itself answered cancelled, yet appended: the entry
		// it said it cleared, whatever the listeners' order (PEND-5)
		{cancels(ref) && cancels(imp) && len(i) > len(r), attribution.RowRtPlanCancelled},
		{cx.guarded(st), attribution.RowRtPlanGuard},
		{len(imp.Obs.Requests) > len(ref.Obs.Requests) && len(i) > len(r), attribution.RowRtPlanForced},
		{cancels(ref) && len(i) > len(r), attribution.RowRtPlanCancelled},
		// a review the seam replied to, read as both sides read it
		// (their tool results agree) into an approval: EXIT-5's row
		{keptPlanning(ref) || repliedReview(sc) && !(approved(ref) && approved(imp)), attribution.RowRtPlanKeptPlanning},
		{approved(ref), attribution.RowRtPlanApproved},
		{failed, attribution.RowRtPlanRetry},
		{rejected, attribution.RowRtPlanRejected},
		{dropped, attribution.RowRtPlanTaken},
		{fault, attribution.RowRtPlanFault},
		{true, attribution.RowRtPlanStep},
	} {
		if r.applies {
			ids = append(ids, r.id)
		}
	}
	return cx.prefix(rows(ids...))
}

// repliedReview reports whether a call's review in the script is the
// seam's structured reply (EXIT-6 reads it).
func repliedReview(sc *loop.Script) bool {
	for _, r := range sc.Responses {
		for _, c := range r.Calls {
			if c.Review != nil && c.Review.Reply != nil {
				return true
			}
		}
	}
	return false
}

// keptPlanning reports whether, in the reference's step, a review the user
// did not approve followed an approval.
func keptPlanning(d loop.StepDone) bool {
	seen := false
	for _, r := range d.Obs.Results {
		if r.Tool == nil || r.Tool.Name != spec.ExitTool {
			continue
		}
		switch {
		case r.Tool.OK:
			seen = true
		case seen && r.Tool.Asked:
			return true
		}
	}
	return false
}

// toolViews are the views of the tool results of a step, each with its
// call's ID.
func toolViews(d loop.StepDone) []toolView {
	calls := map[string]loop.Call{}
	if sc := d.Step.ScriptOf(); sc != nil {
		for _, r := range sc.Responses {
			for _, c := range r.Calls {
				calls[c.ID] = c
			}
		}
	}
	var out []toolView
	for _, r := range d.Obs.Results {
		if r.Tool == nil {
			continue
		}
		t := r.Tool
		out = append(out, toolViewOf(r.ID, sim.ToolOutcome{Name: t.Name, OK: t.OK, Result: t.Value, Error: t.Error, Asked: t.Asked}, calls[r.ID].Review))
	}
	return out
}

// viewOf is the view of the call with that id (none: empty).
func viewOf(vs []toolView, id string) []toolView {
	for _, v := range vs {
		if v.ID == id {
			return []toolView{v}
		}
	}
	return nil
}

// requestClauses name a step that went another way on the runtime (a
// request or a host action on one side only): an armed append fault
// (STEP-5), plan mode in force (SVC-3: plan mode only guides), else the
// loop (STEP-7) or a step a selection started (PEND-2).
func requestClauses(cx rtSituation, ref loop.StepDone) []string {
	var cl []string
	if c := ref.Step.Command; c != nil {
		// what the command did (a /plan <message> starts a turn)
		cl = append(cl, commandResultClauses(c.Input, "", "")...)
	}
	if cx.faults || scriptFaults(ref.Step) {
		cl = append(cl, rows(attribution.RowRtRequestFault)...)
	}
	if sc := ref.Step.ScriptOf(); sc != nil && slices.ContainsFunc(sc.Responses, func(r loop.Response) bool { return r.Fail }) {
		cl = append(cl, rows(attribution.RowRtRequestRetry)...)
	}
	for _, q := range ref.Obs.Requests {
		if s, ok := q.Section(spec.SectionName); ok && s.Text != "" {
			cl = append(cl, rows(attribution.RowRtRequestPlanMode)...)
			break
		}
	}
	return merge(cl, rows(attribution.RowRtRequestCount))
}

// scriptFaults reports whether the step's script arms an append fault.
func scriptFaults(st loop.Step) bool {
	for h := range st.ScriptOf().HostActions() {
		if h.Fault != nil {
			return true
		}
	}
	return false
}

// compareTools compares the tool results of a step call by call and names
// the first that differs as the plugin level does (toolDiff).
func compareTools(cx rtSituation, refRec loop.Record, ref, imp loop.StepDone, id string) *Diff {
	all := toolViews(ref)
	r, i := all, toolViews(imp)
	if id != "" {
		r, i = viewOf(r, id), viewOf(i, id)
	}
	if show(r) == show(i) {
		return nil
	}
	k := firstDiffering(r, i)
	c := toolCall{noQuestions: cx.noQuestions}
	callAt := -1
	if sc := ref.Step.ScriptOf(); sc != nil && k < len(r) {
		for j, resp := range sc.Responses {
			for _, call := range resp.Calls {
				if call.ID == r[k].ID {
					c.name, c.args, c.review, callAt = call.Name, call.Args, call.Review, j
				}
			}
		}
		c.afterApproval = k < len(r) && approvedBefore(sc, callAt, all, r[k].ID)
	}
	// plan mode at the call: the fold of the reference's log where the
	// request that carried it was sent.
	log := refRec.Logs[ref.Step.Agent()]
	if callAt >= 0 {
		reqs := ref.Obs.Requests
		at := len(log)
		if n := len(reqs); n > 0 {
			at = reqs[min(callAt, n-1)].At
		}
		c.active = sim.FoldPlanMode(log, min(at, len(log)), spec.PlanModeReadingOf(refRec.Identity.Choices))
	}
	row := runtimeToolRows[c.caseOf(r, i, k)]
	return &Diff{Observation: RtTool, Reference: show(r), Implementation: show(i), Clauses: cx.prefix(rows(row))}
}

// approvedBefore reports whether an exit_plan_mode call before call id in
// the script's response at is approved in the results views.
func approvedBefore(sc *loop.Script, at int, views []toolView, id string) bool {
	if sc == nil || at < 0 {
		return false
	}
	for _, c := range sc.Responses[at].Calls {
		if c.ID == id {
			return false
		}
		if slices.ContainsFunc(views, func(v toolView) bool { return v.ID == c.ID && v.Name == spec.ExitTool && v.OK }) {
			return true
		}
	}
	return false
}

// eventView is the events a step appended as compared: plan/mode (with its
// data) and request/header in log order — a step's append before its
// request (STEP-7) — and nothing of the runtime's own events (their names
// and data are the runtime's: one loop logs chunks or inbox splices
// another does not), nor a header's words (each request as sent is
// compared on its sections and tools). Notices are compared by how many a
// step logs and which request carries each (RtNotices, RtRequest): where
// one sits among the step's messages, or beside its header in the log, is
// the runtime's.
func eventView(d loop.StepDone) []string {
	var out []string
	for _, e := range d.Obs.Events {
		switch e.Type {
		case spec.TypePlanMode:
			out = append(out, e.Type+" "+string(sim.Canonical(e.Data)))
		case spec.TypeRequestHeader:
			out = append(out, e.Type)
		}
	}
	return out
}

// withoutRepeatedHeaders is eventView of the reference's step without the
// request/header events whose data repeats the header logged before them
// (the runtime variant header-on-change).
func withoutRepeatedHeaders(last string, d loop.StepDone) []string {
	var kept []sim.Event
	for _, e := range d.Obs.Events {
		if e.Type == spec.TypeRequestHeader {
			h := headerOf(e)
			if h == last {
				continue
			}
			last = h
		}
		kept = append(kept, e)
	}
	d.Obs.Events = kept
	return eventView(d)
}

// headerOf is a request/header's header, without the reason it was logged.
func headerOf(e sim.Event) string {
	var h struct {
		Header json.RawMessage `json:"header"`
	}
	if json.Unmarshal(e.Data, &h) != nil {
		return string(e.Data)
	}
	return string(sim.Canonical(h.Header))
}

// planSections is what plan mode decides of a request's system prompt: its
// own sections (plan:*), with name, order and text. The runtime's own
// sections, their words and where plan mode's sit among them (their orders
// decide that) are the runtime's.
func planSections(ss []loop.Section) []loop.Section {
	out := []loop.Section{}
	for _, s := range ss {
		if strings.HasPrefix(s.Name, "plan:") {
			out = append(out, s)
		}
	}
	return out
}

// planTools is what plan mode decides of a request's tool catalog: the
// host's tools in order (host: those the reference side offers besides
// exit_plan_mode) and how many times exit_plan_mode is offered
// (sim.CatalogKey). Tools of the runtime's own, and where exit_plan_mode
// sits among the others, are the runtime's.
func planTools(tools []string, host []string) []string {
	return sim.CatalogKey(slices.DeleteFunc(slices.Clone(tools), func(t string) bool {
		return t != spec.ExitTool && !slices.Contains(host, t)
	}))
}

// eventClauses name the events appended that differ.
func eventClauses(st loop.Step, r, i []string) []string {
	k := 0
	for k < len(r) && k < len(i) && r[k] == i[k] {
		k++
	}
	isHeader := func(xs []string) bool { return k < len(xs) && xs[k] == spec.TypeRequestHeader }
	sorted := func(xs []string) []string { c := slices.Clone(xs); slices.Sort(c); return c }
	switch {
	case slices.Equal(sorted(r), sorted(i)):
		return rows(attribution.RowRtEventsOrder)
	case st.Command != nil:
		// what the command did (a /plan <message> starts a turn)
		return merge(commandResultClauses(st.Command.Input, "", ""), rows(attribution.RowRtEventsCommand))
	case isHeader(r) != isHeader(i):
		return rows(attribution.RowRtEventsHeader)
	case (st.Set != nil || st.Get != nil || st.Append != nil) && len(i) > len(r):
		return rows(attribution.RowRtEventsSelection)
	}
	return rows(attribution.RowRtEventsOther)
}

// compareRequestsRt compares each request as sent: sections (name, order,
// text), the tool catalog, then messages.
func compareRequestsRt(cx rtSituation, ref, imp loop.StepDone) *Diff {
	r, i := ref.Obs.Requests, imp.Obs.Requests
	for k := 0; k < max(len(r), len(i)); k++ {
		if k >= len(r) || k >= len(i) {
			return &Diff{Observation: RtRequest, Reference: fmt.Sprintf("%d requests", len(r)), Implementation: fmt.Sprintf("%d requests", len(i)), Clauses: requestClauses(cx, ref)}
		}
		a, b := r[k], i[k]
		a.Sections, b.Sections = planSections(a.Sections), planSections(b.Sections)
		a.Tools, b.Tools = planTools(a.Tools, a.Tools), planTools(b.Tools, a.Tools)
		switch {
		case show(a.Sections) != show(b.Sections):
			return &Diff{Observation: RtRequest, Reference: fmt.Sprintf("request %d sections %s", k+1, show(a.Sections)), Implementation: fmt.Sprintf("request %d sections %s", k+1, show(b.Sections)), Clauses: rows(attribution.RowRtRequestSections)}
		case show(a.Tools) != show(b.Tools):
			cl := rows(attribution.RowRtRequestTools)
			if cx.unloaded {
				cl = rows(attribution.RowRtRequestUnloaded)
			}
			return &Diff{Observation: RtRequest, Reference: fmt.Sprintf("request %d tools %s", k+1, show(a.Tools)), Implementation: fmt.Sprintf("request %d tools %s", k+1, show(b.Tools)), Clauses: cl}
		case notices(a) != notices(b):
			cl := rows(attribution.RowRtRequestNotices)
			if loop.Notices(ref) == loop.Notices(imp) {
				// as many notices, in another request of the step
				cl = rows(attribution.RowRtRequestNoticesMoved)
			}
			return &Diff{Observation: RtRequest, Reference: fmt.Sprintf("request %d notices %d", k+1, notices(a)), Implementation: fmt.Sprintf("request %d notices %d", k+1, notices(b)), Clauses: cl}
		}
	}
	return nil
}

// notices is how many plan-mode notices a request's transcript carries:
// what is compared of it (STEP-6, STEP-7). Their words and their place
// among the messages are plan mode's; the rest of the transcript (what a
// loop keeps of an aborted turn, how it renders the model's and the
// tools' messages) is the runtime's, and the tool results themselves are
// compared as results.
func notices(q loop.ModelRequest) int {
	n := 0
	for _, m := range q.Messages {
		if m.IsPlanNotice() {
			n++
		}
	}
	return n
}

// expectOf is the reference's observation of kind d.Observation on the
// step as a runtime trace expectation, when one can state it.
func expectOf(d *Diff, ref loop.StepDone) (loop.Expect, bool) {
	x := loop.Expect{}
	if len(d.Clauses) > 0 {
		x.Clause = d.Clauses[0]
	}
	switch d.Observation {
	case RtOutcome:
		if ref.Set != nil {
			x.Outcome = ref.Set.Outcome
			x.Error = ptr(ref.Set.Error != "")
			return x, true
		}
		x.Results = results(ref)
		return x, len(x.Results) > 0
	case RtCommand:
		if ref.Command != nil {
			x.Command = ref.Command.Kind
			if d.Reference == show(announces+ref.Command.Outcome) {
				// what the reply announces (capability commandOutcomes)
				x.Announces = ref.Command.Outcome
			}
			return x, true
		}
		if strings.HasPrefix(d.Reference, show(announces)[:len(announces)+1]) {
			// a host action's announced outcome: no expectation states it
			return x, false
		}
		x.Results = results(ref)
		return x, len(x.Results) > 0
	case RtPlanMode:
		x.PlanMode = loop.PlanModeEvents(ref)
		return x, true
	case RtNotices:
		x.Notices = ptr(loop.Notices(ref))
		return x, true
	case RtSkipped:
		x.Requests = ptr(len(ref.Obs.Requests))
		return x, true
	case RtActive, RtGet:
		if ref.Get != nil {
			x.Active = ptr(ref.Get.Active)
			if ref.Get.Pending != nil {
				x.Pending = ref.Get.Pending
			} else {
				x.NoPending = true
			}
			return x, true
		}
		x.Results = results(ref)
		return x, len(x.Results) > 0
	case RtTool:
		x.Results = results(ref)
		for _, v := range toolViews(ref) {
			if v.Asked {
				x.Asked = append(x.Asked, v.ID)
			}
		}
		return x, len(x.Results) > 0
	case RtRequest:
		x.Requests = ptr(len(ref.Obs.Requests))
		x.Section = loop.SectionRendered(ref)
		return x, true
	case RtEvents:
		types := []string{spec.TypePlanMode, spec.TypeRequestHeader}
		are := []string{}
		for _, e := range ref.Obs.Events {
			if slices.Contains(types, e.Type) {
				are = append(are, e.Type)
			}
		}
		x.Events = &loop.EventsExpect{Types: types, Are: are}
		return x, len(types) > 0
	}
	return x, false
}

// results is every result of the step's host actions and tool calls, as a
// trace states them.
func results(d loop.StepDone) map[string]string {
	out := map[string]string{}
	for _, r := range d.Obs.Results {
		if v := loop.Result(d, r.ID); v != "" {
			out[r.ID] = v
		}
	}
	return out
}
