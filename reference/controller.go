package reference

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// host is what the controller may do to the runtime during one call. The
// in-process port records each use as an effect.
type host interface {
	// Append appends an event to the agent's log; it fails when the host
	// fails the append.
	Append(agent, typ string, data json.RawMessage) error
	Steer(agent string, m sim.Message)
	Inject(agent string, m sim.Message)
	// Next runs the downstream pre-step listeners and returns their decision.
	Next() sim.Decision
	// Ask presents a plan for review and returns the user's answer as the
	// trace scripted it: a reply (sim.Review.Structured), a dismissal, or
	// the seam failing (sim.Review.Fail).
	Ask(agent string, question json.RawMessage) (sim.Review, error)
}

// intent is a selection awaiting the next accepted in-turn pre-step.
// narrate is true for user selections and false for the exit tool (EXIT-5).
type intent struct {
	active  bool
	narrate bool
}

// Controller is the plan-mode service (ctx.planMode, SVC-1) over the
// sessions of one process. Its only state besides the logs is the pending
// selections, which are process-local (PEND-8).
type Controller struct {
	config   Config
	services sim.Services
	// hostTools are the host's tools registered before the plugin loaded.
	hostTools []sim.Tool
	sessions  map[string]*session
	pending   map[string]intent
	// owed marks the agents whose last idle commit by the user owes its
	// narration to the next accepted in-turn pre-step
	// (idle-revert-notice=net); process-local, like pending.
	owed     map[string]bool
	choices  Choices
	hooks    *hooks
	disposed bool
	// section is the plan:policy section (Sections), made at its first
	// use.
	section []sim.Section
}

// Get reads the logged plan state and any selected state awaiting the next
// accepted in-turn pre-step. Active is the logged state (the one the current
// step was assembled with); pending is present exactly when a selection
// waits to be appended, and is that selection (PEND-7).
func (c *Controller) Get(agent string) sim.GetReply {
	s := c.sessions[agent]
	reply := sim.GetReply{Active: s.active}
	if p, ok := c.pending[agent]; ok {
		v := p.active
		reply.Pending = &v
	}
	return reply
}

// Set selects whether plan mode should be active (PEND-3..6). Between turns
// it appends the change at once, because no in-turn pre-step runs until
// another prompt starts a turn; the open-turn fold is the idle signal, so
// post-turn checkpointing counts as between turns. During an open turn the
// selection stays pending until the next accepted in-turn pre-step.
// Selecting the current or already-pending state is a no-op.
//
// It returns committed (logged now), queued (awaiting the next accepted
// in-turn pre-step), cancelled (an opposite pending selection was cleared;
// the logged state already matches) or noop (already in that state).
func (c *Controller) Set(h host, agent string, active bool) (string, error) {
	s := c.sessions[agent]
	logged := s.active
	current := logged
	p, has := c.pending[agent]
	if has {
		current = p.active
	}
	if active == current {
		return c.hooks.repeated.at(s, spec.Noop), nil
	}
	if c.hooks.waits.at(selection{s, active}, s.open) {
		if active == logged {
			// The opposite selection is cleared (PEND-5), or kept as an
			// entry equal to the log (cancel-pending=keep-equal).
			var stays *intent
			if c.choices.CancelPending == spec.CancelPendingKeepEqual {
				stays = &intent{active: logged, narrate: true}
			}
			if stays = c.hooks.cancelled.at(p, stays); stays != nil {
				c.pending[agent] = *stays
			} else {
				delete(c.pending, agent)
			}
			return spec.Cancelled, nil
		}
		c.pending[agent] = intent{active: active, narrate: true}
		return spec.Queued, nil
	}
	if active == logged {
		delete(c.pending, agent)
		return spec.Cancelled, nil
	}
	notice, narrate := c.narration(s, active)
	if err := c.append(h, agent, active); err != nil {
		if c.choices.IdleAppendFailure == spec.IdleAppendFailurePending {
			c.pending[agent] = intent{active: active, narrate: true}
			return spec.Queued, nil
		}
		return "", fmt.Errorf("could not log the plan-mode change: %w", err)
	}
	delete(c.pending, agent)
	switch {
	case c.defers():
		// idle-revert-notice=net: the next accepted in-turn pre-step
		// narrates the net change since the last header.
		c.owe(agent, narrate)
	case narrate:
		// Between turns the notice waits for the next step to claim it.
		h.Inject(agent, notice)
	}
	return spec.Committed, nil
}

// heard is told that another writer's plan/mode reached the agent's log:
// under logged-pending=clear a selection the log now holds is no longer
// waiting to be appended (PEND-7), so it is dropped; under keep it waits
// for the next accepted in-turn pre-step, which finds it equal to the log
// and appends nothing (LOG-4).
func (c *Controller) heard(agent string) {
	if p, ok := c.pending[agent]; ok && c.choices.LoggedPending == spec.LoggedPendingClear && p.active == c.sessions[agent].active {
		delete(c.pending, agent)
	}
}

// defers reports whether the narration of a change committed outside a
// running step waits for the next accepted in-turn pre-step
// (idle-revert-notice=net) instead of being injected at once.
func (c *Controller) defers() bool {
	return c.choices.IdleRevertNotice == spec.IdleRevertNoticeNet
}

// owe records whether the user's last change committed outside a running
// step owes its narration: due when the last header showed the other
// state. A later commit replaces the record, so a change reverted to what
// the last header showed owes nothing.
func (c *Controller) owe(agent string, due bool) {
	if due {
		c.owed[agent] = true
	} else {
		delete(c.owed, agent)
	}
}

func (c *Controller) append(h host, agent string, active bool) error {
	data := c.hooks.data.at(active, planModeData(active))
	err := h.Append(agent, spec.TypePlanMode, data)
	return c.hooks.appended.at(appending{h, agent, data}, err)
}

// planModeData is the data of a plan/mode change to active, in canonical
// JSON: sim.JSON(spec.PlanModeData{Active: active}), made once. The slice
// is shared and capped; no caller changes it.
func planModeData(active bool) json.RawMessage {
	if active {
		return planModeOn[:len(planModeOn):len(planModeOn)]
	}
	return planModeOff[:len(planModeOff):len(planModeOff)]
}

var (
	planModeOn  = sim.JSON(spec.PlanModeData{Active: true})
	planModeOff = sim.JSON(spec.PlanModeData{Active: false})
)

// narration is the notice for a user selection of target, and whether one
// is due: only when the last logged request header described the other
// state (STEP-6).
func (c *Controller) narration(s *session, target bool) (sim.Message, bool) {
	return notices[boolIndex(target)][0], c.hooks.noticeDue.at(s, s.header != nil && *s.header != target)
}

// notices are the notices of a selection of inactive and of active, each
// alone in a slice: the messages of a decision that had none but the
// notice (withNotice). The slices are shared and capped; no caller
// changes them.
var notices = [2][]sim.Message{noticeFor(spec.NoticeOff), noticeFor(spec.NoticeOn)}

func noticeFor(text string) []sim.Message {
	return []sim.Message{{Role: "user", Text: text, Source: sim.Source{Kind: "plugin", Plugin: spec.PluginName, Form: "notice", Summary: text}}}
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// withNotice is msgs with notice after them; a notice alone is one of
// notices, shared.
func withNotice(msgs []sim.Message, notice sim.Message) []sim.Message {
	if len(msgs) == 0 {
		for _, n := range notices {
			if n[0] == notice {
				return n[:1:1]
			}
		}
	}
	return append(msgs, notice)
}

// PreStep is the agent/pre-step listener (STEP-1..7). It runs the
// downstream listeners first and appends a pending selection only when
// their decision accepts the step, before the request is derived; a failed
// append leaves the selection pending and the decision untouched.
func (c *Controller) PreStep(h host, agent string, req sim.PreStepRequest) sim.Decision {
	s := c.sessions[agent]
	p, has := c.pending[agent]
	if d, ok := c.hooks.beforeNext.at(stepAt{at{c, h, agent}, req}); ok {
		return d
	}
	decision := h.Next()
	if d, ok := c.hooks.afterNext.at(s); ok {
		return d
	}
	// Only an accepted step that was not aborted applies the selection
	// (STEP-3, STEP-4); a request-recovery retry is such a step (STEP-2).
	rejected := c.hooks.rejected.at(decision, decision.Kind != sim.Enter)
	aborted := c.hooks.aborted.at(req, req.AbortedBefore || req.AbortDuring)
	owed := c.defers() && c.owed[agent]
	if rejected || aborted || !has && !owed {
		return decision
	}
	// A step the runtime skips because its decision carries no messages:
	// a notice there would start a step the selection alone caused
	// (PEND-2). Choice empty-step says what happens instead.
	inject := false
	if c.hooks.skipsEmpty.at(req, req.SkipsEmpty) && len(decision.Messages) == 0 {
		if c.choices.EmptyStep != spec.EmptyStepInject {
			return decision // not an accepted step: the selection stays pending
		}
		inject = true
	}
	if has {
		decision = c.apply(h, agent, s, p, req, decision, inject)
	}
	// idle-revert-notice=net: the narration an idle commit owes is told
	// here, in this step's messages (STEP-7), for the net change since
	// the last header only, and once (STEP-6). A step the runtime skips
	// runs no request: the narration waits for one that runs.
	if owed && !inject && decision.Kind == sim.Enter {
		delete(c.owed, agent)
		if notice, due := c.narration(s, s.active); due && !slices.ContainsFunc(decision.Messages, sim.Message.IsPlanNotice) {
			decision.Messages = withNotice(decision.Messages, notice)
			decision = c.hooks.narrated.at(notice, decision)
		}
	}
	return decision
}

// apply appends the pending selection p at an accepted pre-step and
// narrates a user's change in the step's decision (STEP-5..7); inject:
// the runtime skips the step for want of messages and choice empty-step
// is inject.
func (c *Controller) apply(h host, agent string, s *session, p intent, req sim.PreStepRequest, decision sim.Decision, inject bool) sim.Decision {
	if p.active == s.active {
		delete(c.pending, agent)
		return c.hooks.unchanged.at(unchanging{c, s, p}, decision)
	}
	notice, narrate := c.narration(s, p.active)
	if req.Retry > 0 {
		narrate = c.hooks.retryNotice.at(retrying{s, p.active}, narrate)
	}
	if err := c.append(h, agent, p.active); err != nil {
		return c.hooks.failed.at(agent, decision) // stays pending (STEP-5)
	}
	delete(c.pending, agent)
	// Only a user's selection is narrated; the exit tool's is silent (EXIT-5).
	user := c.hooks.userOwned.at(p, p.narrate)
	switch {
	case user && inject && c.defers():
		// net: as after an idle commit, the narration waits for the
		// next accepted pre-step of a step that runs.
		c.owe(agent, narrate && decision.Kind == sim.Enter)
	case !user || !narrate || decision.Kind != sim.Enter:
	case inject:
		h.Inject(agent, notice) // the decision stays empty; a later step claims it
	default:
		decision.Messages = withNotice(decision.Messages, notice)
		decision = c.hooks.narrated.at(notice, decision)
	}
	return decision
}

// Sections renders the plan:policy section: the exact configured text at
// order 50 while plan mode is active, nothing while inactive (CFG-2).
//
// The sections it returns are shared (made once per controller): callers
// must not change them (the runtime copies them into its requests).
func (c *Controller) Sections(agent string) []sim.Section {
	s := c.sessions[agent]
	active := s.active
	if p, ok := c.pending[agent]; ok && c.choices.SectionSource == spec.SectionSourcePending {
		active = p.active
	}
	if !c.hooks.sectionShown.at(s, active) {
		return noSections
	}
	if c.section == nil {
		c.section = []sim.Section{{Name: spec.SectionName, Order: spec.SectionOrder, Text: c.config.Section}}
	}
	return c.section[:1:1]
}

// noSections is the sections of a request without plan mode's.
var noSections = []sim.Section{}

// Tools is the request tool catalog as plan mode leaves it: the host's
// tools exactly as the host and the other assembly listeners gave them, in
// their order, then exit_plan_mode, whatever the state. Plan mode neither
// hides, reorders nor filters a host tool (EXIT-1, SVC-3).
//
// The catalog it returns may be shared (the exit tool alone, when the host
// has no tool): callers must not change it, as sim.AssembleReply's tools.
func (c *Controller) Tools(agent string, host []sim.Tool) []sim.Tool {
	s := c.sessions[agent]
	catalog := host
	if c.hooks.catalog != nil {
		// A mutant's hook may change the catalog in place.
		catalog = c.hooks.catalog.at(cataloging{s, c.hostTools}, slices.Clone(host))
	}
	own := c.hooks.tools.at(s, exitTool[:1:1])
	if len(catalog) == 0 {
		return own
	}
	return append(catalog[:len(catalog):len(catalog)], own...) // a new slice
}

// exitTool is plan mode's own tool, the catalog's end.
var exitTool = []sim.Tool{{Name: spec.ExitTool}}

// GateHostTool is plan mode's view of a call of a host tool: it never
// blocks one, in plan mode or out of it (SVC-3: plan mode is soft
// guidance). It returns the reason of a denial, "" to allow.
func (c *Controller) GateHostTool(agent, name string) string {
	if !c.hooks.hostGate.at(c.sessions[agent], true) {
		return fmt.Sprintf("%s is not available in plan mode", name)
	}
	return ""
}

// errDismissed, errReloaded and friends are the exit tool's failures.
var (
	errNotInPlanMode = errors.New(spec.ExitTool + " is only available in plan mode")
	errNoHeading     = errors.New(spec.ExitTool + " requires a complete markdown plan starting with a # heading")
	errNoChannel     = errors.New("no user-questions channel is available to review the plan; plan mode stays on")
	errDismissed     = errors.New("the user dismissed the plan review; stay in plan mode and wait for their message")
	errReloaded      = errors.New("the plan-mode service was reloaded while the plan was under review; present the plan again")
)

// ExitPlanMode is the exit tool (EXIT-2..7). It fails outside plan mode and
// without a complete markdown plan; otherwise it presents the plan for
// review. Approval returns {approved: true} and records a silent pending
// exit; keep-planning fails carrying the feedback and withdraws an approved
// exit still pending, so plan mode stays on; no channel, a dismissed
// review or a reload during the review fail, leaving plan mode on.
func (c *Controller) ExitPlanMode(h host, agent string, args json.RawMessage) (json.RawMessage, error) {
	here := at{c, h, agent}
	// The gate is the logged state, never a pending selection.
	if !c.hooks.gate.at(here, c.sessions[agent].active) {
		return nil, errNotInPlanMode
	}
	var in struct {
		Plan *string `json:"plan"`
	}
	if err := json.Unmarshal(args, &in); err != nil || in.Plan == nil {
		return nil, fmt.Errorf("%s needs {plan: string}", spec.ExitTool)
	}
	plan := strings.TrimSpace(*in.Plan)
	if !c.hooks.complete.at(plan, spec.PlanOpensWithLevel1Heading(plan)) {
		return nil, errNoHeading
	}
	if approved, ok := c.hooks.review.at(here); ok {
		return approved, nil
	}
	if !c.services.UserQuestions {
		return nil, errNoChannel
	}
	question := sim.JSON(map[string]any{
		"id": spec.ReviewQuestionID, "header": "Plan review", "question": "Approve this plan and leave plan mode?",
		"detail": *in.Plan, "options": []string{spec.ReviewApprove, spec.ReviewKeepPlanning},
	})
	answer, err := h.Ask(agent, question)
	if err != nil {
		return nil, err
	}
	if c.hooks.reloaded.at(here, c.disposed) {
		return nil, errReloaded
	}
	if answer.Fail != "" {
		// The seam failed (it threw, the step aborted, it refused the
		// agent, it had no way to ask): nothing was decided (EXIT-7).
		return nil, fmt.Errorf("the plan review could not be completed (%s); plan mode stays on", answer.Fail)
	}
	reply, ok := answer.Structured()
	if !ok {
		return nil, errDismissed
	}
	approved, feedback := c.readReview(answer, reply)
	if approved {
		return c.approve(here), nil
	}
	c.keepPlanning(agent)
	if feedback == "" {
		return nil, errors.New("the user chose to keep planning; revise the plan and present it again")
	}
	return nil, fmt.Errorf("the user chose to keep planning; their feedback: %s", feedback)
}

// readReview reads the seam's reply (EXIT-5, EXIT-6, EXIT-7): only the
// answers to the review question count; the plan is approved exactly when
// there is one, selecting the approve option alone, with no free text.
// Anything else is keep planning, carrying the free text of the one answer
// when there is one: plan mode is never left implicitly.
func (c *Controller) readReview(answer sim.Review, reply sim.ReviewReply) (approved bool, feedback string) {
	var mine []sim.ReviewAnswer
	for _, a := range reply.Answers {
		if c.hooks.answersReview.at(a, a.AnswersTheReview()) {
			mine = append(mine, a)
		}
	}
	if len(mine) != 1 {
		return false, ""
	}
	a := mine[0]
	selected := c.hooks.selectsApproval.at(a.Selected, len(a.Selected) == 1 && a.Selected[0] == sim.Approve)
	return selected && c.hooks.approves.at(answer, a.Custom == ""), a.Custom
}

// keepPlanning keeps plan mode on (EXIT-6): an exit an earlier approval
// recorded and that is still pending (an approval earlier in the same tool
// batch, or one whose append failed) is withdrawn, so the model revises and
// presents again. A user's own queued selection is theirs and stays
// (PEND-1); an approval had already taken a queued user exit over.
func (c *Controller) keepPlanning(agent string) {
	if p, ok := c.pending[agent]; ok && c.hooks.withdraws.at(p, !p.narrate) {
		delete(c.pending, agent)
	}
}

func (c *Controller) approve(here at) json.RawMessage {
	// The approved exit replaces any queued selection, a user's exit
	// included, so it is appended silently (EXIT-5).
	if c.hooks.replaces.at(here, true) {
		c.pending[here.agent] = intent{active: false, narrate: false}
	}
	return sim.JSON(map[string]bool{"approved": true})
}

// Command is /plan [off|message] (CMD-2..4).
func (c *Controller) Command(h host, agent, input string) sim.CommandReply {
	here := at{c, h, agent}
	msg := spec.CommandAs(spec.Command, input, c.choices.PlanArgument).Arg
	if c.hooks.isOff.at(msg, msg == spec.CommandOff) {
		if reply, ok := c.hooks.offReply.at(here); ok {
			return reply
		}
		outcome, err := c.Set(h, agent, false)
		if err != nil {
			return sim.CommandReply{Kind: "error", Text: err.Error()}
		}
		return c.announce(agent, true, outcome)
	}
	outcome, err := c.Set(h, agent, c.hooks.target.at(commanding{here, msg}, true))
	if err != nil {
		return sim.CommandReply{Kind: "error", Text: err.Error()}
	}
	if c.hooks.steered.at(msg, msg != "") {
		h.Steer(agent, sim.UserMessage(msg))
	}
	return c.announce(agent, false, outcome)
}

// announce is a successful command's reply: the text for the outcome of
// /plan off or /plan [message], and the outcome it announces.
func (c *Controller) announce(agent string, off bool, outcome string) sim.CommandReply {
	outcome = c.hooks.announced.at(announcing{c.sessions[agent], off}, outcome)
	texts := onText
	if off {
		texts = offText
	}
	return sim.CommandReply{Kind: "success", Text: texts[outcome], Outcome: outcome}
}

var offText = map[string]string{
	spec.Committed: "Plan mode off.",
	spec.Queued:    "Leaving plan mode (applies from the next step).",
	spec.Cancelled: "Plan mode entry cancelled.",
	spec.Noop:      "Plan mode is already off.",
}

var onText = map[string]string{
	spec.Committed: "Plan mode on. Use /plan off to leave.",
	spec.Queued:    "Entering plan mode (applies from the next step). Use /plan off to leave.",
	spec.Cancelled: "Plan mode exit cancelled; plan mode stays on.",
	spec.Noop:      "Plan mode is already on.",
}
