package properties

import (
	"encoding/json"
	"slices"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

// step proposes a step or a request-recovery retry (STEP-1..7, EXIT).
func (x *pred) step(a *agent, s *sim.StepAction, retry bool) {
	ap := x.of(a)
	if retry {
		x.host(a, spec.TypeRetry, nil)
		if x.m.Setup.Retries == sim.RetriesSameStep {
			a.retry = false
			x.p.Decision = ""
			x.finish(a, s)
			return
		}
	}
	// The plugin is outermost (STEP-1), unless it is assumed to be
	// registered without prepend: then the audit listener, registered
	// before it, wraps it, and a rejecting audit never reaches it.
	wrapped := x.m.Choices.Assume.ListenerAppended
	audit := s.Listeners[AuditListener]
	if audit == "" {
		audit = sim.Accept
	}
	ap.PreStep = !(wrapped && audit == sim.Reject) && x.m.Plugin()
	decision := s.Decision
	if decision == "" {
		decision = sim.Accept
	}
	// Either way the step's decision is the same: an aborting audit
	// fires the signal before or after the plugin, which appends nothing.
	// A dropping audit passes the downstream decision on without messages.
	switch {
	case audit == sim.Reject || ((audit == sim.Accept || audit == sim.Drop) && decision == sim.Reject):
		decision = sim.Reject
	case audit == sim.Abort || decision == sim.Abort:
		decision = sim.Abort
	}
	x.p.Decision = decision
	if decision != sim.Accept {
		// STEP-3: nothing is appended; the claimed messages stay queued.
		x.endTurn(a)
		return
	}
	claimed := a.queue
	a.queue = nil
	// skips: the runtime skips this step if its decision carries no
	// messages (it does not continue after tool results).
	skips := x.m.Setup.EmptySteps == sim.EmptyStepsSkip && !retry && !a.continues
	var msgs []qmsg
	msgs = append(msgs, claimed...)
	auditAt := -1
	addAudit := func() {
		switch audit {
		case sim.Accept:
			msgs = append(msgs, qmsg{text: AuditMessage, notice: false})
			auditAt = len(msgs) - 1
		case sim.Drop:
			msgs, auditAt = nil, -1
		}
	}
	if !wrapped {
		addAudit() // inside the plugin: its message comes first
	}
	// A step the runtime will skip for want of messages is not an
	// accepted step: a notice there would start it (PEND-2).
	empty := skips && len(msgs) == 0 && !x.m.Choices.Assume.NoticeForcesStep
	narrated := false
	if p := a.pending; p != nil {
		switch {
		case empty && x.m.Choices.EmptyStep != spec.EmptyStepInject:
			// keep-pending: nothing happens; the selection waits.
		case p.active == a.logged:
			a.pending = nil
			if x.m.Choices.Assume.CancelledNarrated && !p.silent && a.header != nil && *a.header != p.active {
				msgs = append(msgs, qmsg{notice: true})
				narrated = true
			}
		default:
			narrate := !p.silent && a.header != nil && *a.header != p.active
			if x.appendPlan(a, p.active) { // STEP-5: a failed append keeps it pending
				a.pending = nil
				switch {
				case empty && !p.silent && x.m.defers():
					// net: the narration waits for a step that runs,
					// as after an idle commit.
					a.owed = narrate
				case narrate && empty: // inject: the notice waits for a later step
					a.queue = append(a.queue, qmsg{notice: true})
				case narrate:
					msgs = append(msgs, qmsg{notice: true})
					narrated = true
				}
			}
		}
	}
	if a.owed && !empty && x.m.defers() {
		// net: an idle commit's narration, for the net change since the
		// last header only, once, in this step's messages (STEP-6, STEP-7).
		a.owed = false
		if !narrated && a.header != nil && *a.header != a.logged {
			msgs = append(msgs, qmsg{notice: true})
		}
	}
	if wrapped {
		addAudit() // outside the plugin: its message comes after the notice
	}
	if skips && len(msgs) == 0 {
		// Nothing to send: the runtime skips the step and the turn ends.
		x.endTurn(a)
		return
	}
	if !retry {
		x.host(a, spec.TypeStepStart, nil)
	}
	for i, q := range msgs {
		switch {
		case q.notice:
			x.host(a, spec.TypeUserMessage, sim.MessageData(sim.Notice))
			ap.Notices++
		case i == auditAt:
			x.host(a, spec.TypeUserMessage, sim.MessageData(sim.Message{Role: "user", Text: AuditMessage, Source: sim.Source{Kind: "plugin", Plugin: AuditListener}}))
		default:
			x.host(a, spec.TypeUserMessage, sim.MessageData(sim.UserMessage(q.text)))
		}
	}
	x.request(a)
	a.retry = false
	x.finish(a, s)
}

// request logs the request header (STEP-7: derived after the append).
func (x *pred) request(a *agent) {
	plugin := x.m.Plugin()
	shown := a.logged && plugin
	if x.m.Choices.SectionSource == spec.SectionSourcePending && a.pending != nil {
		shown = a.pending.active
	}
	sections := []sim.Section{sim.BaseSection}
	if shown {
		sections = append(sections, sim.Section{Name: spec.SectionName, Order: spec.SectionOrder, Text: Section})
	}
	tools := x.m.Setup.catalog(plugin)
	reason := "initial"
	if a.shown != nil {
		reason = "resume"
		if *a.shown != shown || a.tools != nil && *a.tools != plugin {
			reason = "change"
		}
	}
	x.host(a, spec.TypeRequestHeader, sim.JSON(map[string]any{
		"header": map[string]any{"system": sections, "tools": tools},
		"reason": reason,
	}))
	logged := a.logged
	switch {
	case plugin || x.m.Choices.UnloadedHeader == spec.UnloadedHeaderFold:
		a.header = &logged
	case x.m.Choices.UnloadedHeader == spec.UnloadedHeaderShown:
		// logged while plan mode is not composed: it showed no plan
		// guidance (choice unloaded-header)
		a.header = &shown
	}
	a.shown = &shown
	a.tools = &plugin
	x.of(a).Request = &shown
	x.of(a).Tools = []string{}
	for _, t := range tools {
		x.of(a).Tools = append(x.of(a).Tools, t.Name)
	}
}

// HostCall reports whether a step's model calls one of the host's own
// tools of a run with Setup.HostTools.
func HostCall(act sim.Action) bool {
	if act.Step == nil || act.Step.Model == nil {
		return false
	}
	for _, c := range act.Step.Model.Calls {
		if slices.Contains(HostTools, c.Name) || slices.Contains(AssemblyTools, c.Name) {
			return true
		}
	}
	return false
}

// finish sends the request and plays the model output.
func (x *pred) finish(a *agent, s *sim.StepAction) {
	if s.Request == "fail" {
		a.retry = true
		return
	}
	x.host(a, spec.TypeAssistant, nil)
	a.continues = s.Model != nil && len(s.Model.Calls) > 0
	if s.Model != nil {
		for _, c := range s.Model.Calls {
			x.tool(a, c)
			x.host(a, spec.TypeToolCall, nil)
			x.host(a, spec.TypeToolResult, nil)
			if c.Review != nil && c.Review.Fail == sim.ReviewAborted && *x.p.Tool.Asked {
				// The step's signal fired while the review was open: the
				// rest of the batch does not run, the turn ends aborted.
				x.host(a, spec.TypeStepEnd, nil)
				x.endTurn(a)
				return
			}
		}
	}
	x.host(a, spec.TypeStepEnd, nil)
}

// tool is the exit tool (EXIT-2..7).
func (x *pred) tool(a *agent, c sim.ToolCall) {
	f, t := false, true
	out := &trace.ToolExpect{OK: &f, Asked: &f, Approved: &f}
	x.p.Tool = out
	if x.m.Setup.HostTools && c.Name != spec.ExitTool && slices.Contains(append(slices.Clone(HostTools), AssemblyTools...), c.Name) {
		out.OK = &t // a host tool runs, in plan mode or out of it (SVC-3)
		return
	}
	if c.Name != spec.ExitTool || !a.logged || !x.m.Plugin() { // EXIT-2; SVC-2: no tool without the plugin
		return
	}
	var args struct {
		Plan *string `json:"plan"`
	}
	if json.Unmarshal(c.Args, &args) != nil || args.Plan == nil || !spec.PlanOpensWithLevel1Heading(*args.Plan) { // EXIT-3
		return
	}
	if !x.m.Setup.Services.UserQuestions { // EXIT-7
		return
	}
	out.Asked = &t // EXIT-4
	r := sim.Review{}
	if c.Review != nil {
		r = *c.Review
	}
	if r.Reload { // EXIT-7
		x.reload()
		return
	}
	if r.Fail != "" || r.Answer == sim.Dismiss { // EXIT-7: nothing was decided
		return
	}
	approved, feedback := reviewVerdict(r)
	switch {
	case approved: // EXIT-5
		out.OK, out.Approved = &t, &t
		a.pending = &intent{active: false, silent: true}
	default: // EXIT-6: keep planning, carrying any feedback
		out.Feedback = feedback
		// Plan mode stays on: an approved exit still pending (earlier in
		// the batch, or behind a failed append) is withdrawn. A user's
		// queued selection stays pending (PEND-1).
		if a.pending != nil && a.pending.silent && !x.m.Choices.Assume.KeepPlanningKeepsExit {
			a.pending = nil
		}
	}
}

// reviewVerdict reads a review's answer (EXIT-5, EXIT-6): only answers to
// the review question count, and the plan is approved exactly when there
// is one that selects the approving option alone with no free text. The
// feedback is that one answer's free text.
func reviewVerdict(r sim.Review) (approved bool, feedback string) {
	if r.Reply == nil {
		return r.Answer == sim.Approve && r.Feedback == "", r.Feedback
	}
	var own []sim.ReviewAnswer
	for _, a := range r.Reply.Answers {
		if a.AnswersTheReview() {
			own = append(own, a)
		}
	}
	if len(own) != 1 {
		return false, ""
	}
	return slices.Equal(own[0].Selected, []string{sim.Approve}) && own[0].Custom == "", own[0].Custom
}
