package reference

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// Mutant names one deliberate deviation from the specification, the way a
// real implementation might get a clause wrong. The conformance suite must
// kill every mutant: some check of the mutant's clause must fail against it.
type Mutant string

// Mutants is a set of enabled deviations; the zero value is the faithful
// reference.
type Mutants []Mutant

// Has reports whether m is enabled.
func (ms Mutants) Has(m Mutant) bool { return slices.Contains(ms, m) }

// A mutation is how a mutant deviates: hooks it sets (hooks.go), or a
// wire it wraps the port in (wire.go) when it changes only what crosses
// the port.
type mutation struct {
	hook func(*hooks)
	wire func(*wire)
}

// apply returns the hooks of the enabled mutants and the wrapping of the
// port. Mutants on the same hook compose in reverse catalogue order, each
// seeing the decision of the one before; among insteads, the earlier in
// the catalogue answers first. Unknown names enable nothing.
func (ms Mutants) apply() (*hooks, func(sim.Port) sim.Port) {
	k := &hooks{}
	var wires []func(*wire)
	known := Known()
	for i := len(known) - 1; i >= 0; i-- {
		m := known[i].Name
		if !ms.Has(m) {
			continue
		}
		if mu := mutations[m]; mu.hook != nil {
			mu.hook(k)
		} else if mu.wire != nil {
			wires = append(wires, mu.wire)
		}
	}
	return k, func(p sim.Port) sim.Port {
		for _, f := range wires {
			w := &wire{Port: p}
			f(w)
			p = w
		}
		return p
	}
}

// then composes a mutant's bend after the one already set.
func then[F, T any](prev, next bend[F, T]) bend[F, T] {
	if prev == nil {
		return next
	}
	return func(f F, v T) T { return next(f, prev(f, v)) }
}

// first composes a mutant's instead before the one already set.
func first[F, T any](prev, next instead[F, T]) instead[F, T] {
	if prev == nil {
		return next
	}
	return func(f F) (T, bool) {
		if v, ok := next(f); ok {
			return v, true
		}
		return prev(f)
	}
}

// mutations says how each mutant of the catalogue and each variant
// deviates.
var mutations = map[Mutant]mutation{
	PlanModeExtraField: {hook: func(k *hooks) {
		k.data = then(k.data, func(active bool, _ json.RawMessage) json.RawMessage {
			return sim.JSON(map[string]any{"active": active, "source": "user"})
		})
	}},
	FoldFirst: {hook: func(k *hooks) {
		k.folds = then(k.folds, func(seen, v bool) bool { return v && !seen })
	}},
	PendingSurvivesRestart: {hook: func(k *hooks) {
		k.survivors = then(k.survivors, func(pending, _ map[string]intent) map[string]intent { return maps.Clone(pending) })
	}},
	DoubleAppend: {hook: func(k *hooks) {
		k.appended = then(k.appended, func(a appending, err error) error {
			if err != nil {
				return err
			}
			return a.h.Append(a.agent, spec.TypePlanMode, a.data)
		})
	}},
	NoopQueues: {hook: func(k *hooks) {
		k.repeated = then(k.repeated, func(s *session, outcome string) string {
			if s.open {
				return spec.Queued
			}
			return outcome
		})
	}},
	CancelKeepsPending: {hook: func(k *hooks) {
		k.cancelled = then(k.cancelled, func(p intent, _ *intent) *intent { return &p })
	}},
	IdleSetQueues: {hook: func(k *hooks) {
		k.waits = then(k.waits, func(selection, bool) bool { return true })
	}},
	GetHidesPending: {wire: func(w *wire) {
		w.got = func(r sim.GetReply) sim.GetReply { r.Pending = nil; return r }
	}},
	ListenerAppended: {wire: func(w *wire) {
		w.loaded = func(r sim.LoadReply) sim.LoadReply {
			if r.Error == "" {
				r.Listener = sim.Append
			}
			return r
		}
	}},
	RetryNotObserved: {hook: func(k *hooks) {
		k.beforeNext = first(k.beforeNext, func(a stepAt) (sim.Decision, bool) {
			if a.req.Retry == 0 {
				return sim.Decision{}, false
			}
			return a.h.Next(), true
		})
	}},
	AppendBeforeDownstream: {hook: func(k *hooks) {
		k.beforeNext = first(k.beforeNext, func(a stepAt) (sim.Decision, bool) {
			p, has := a.pending()
			s := a.c.sessions[a.agent]
			if !has || p.active == s.active {
				return sim.Decision{}, false
			}
			// Only the order is wrong: a selection appended here is
			// narrated as the faithful listener narrates it, when the
			// downstream decision accepts (the mutant breaks STEP-3 alone).
			notice, narrate := a.c.narration(s, p.active)
			appended := a.c.append(a.h, a.agent, p.active) == nil
			if appended {
				delete(a.c.pending, a.agent)
			}
			d := a.h.Next()
			if appended && narrate && p.narrate && d.Kind == sim.Enter {
				d.Messages = append(d.Messages, notice)
			}
			return d, true
		})
	}},
	AppendOnReject: {hook: func(k *hooks) {
		k.rejected = then(k.rejected, func(sim.Decision, bool) bool { return false })
	}},
	AppendOnAbort: {hook: func(k *hooks) {
		k.aborted = then(k.aborted, func(sim.PreStepRequest, bool) bool { return false })
	}},
	FailedAppendBlocks: {hook: func(k *hooks) {
		k.failed = then(k.failed, func(string, sim.Decision) sim.Decision { return sim.Decision{Kind: sim.Reject} })
	}},
	NarrateAlways: {hook: func(k *hooks) {
		k.noticeDue = then(k.noticeDue, func(*session, bool) bool { return true })
	}},
	NarrateTwice: {hook: func(k *hooks) {
		k.narrated = then(k.narrated, func(notice sim.Message, d sim.Decision) sim.Decision {
			d.Messages = append(d.Messages, notice)
			return d
		})
	}},
	ConfigUnknownKeyIgnored: {wire: func(w *wire) {
		w.load = func(req sim.LoadRequest) sim.LoadRequest { req.Config = sectionOnly(req.Config); return req }
	}},
	SectionWhileInactive: {hook: func(k *hooks) {
		k.sectionShown = then(k.sectionShown, func(*session, bool) bool { return true })
	}},
	SectionWrongOrder: {wire: func(w *wire) {
		w.assembled = func(r sim.AssembleReply) sim.AssembleReply {
			for i := range r.Sections {
				r.Sections[i].Order = 40
			}
			return r
		}
	}},
	AssemblyToolsHiddenInPlan: {hook: func(k *hooks) {
		k.catalog = then(k.catalog, func(c cataloging, tools []sim.Tool) []sim.Tool {
			if !c.s.active {
				return tools
			}
			// keeps only what it saw registered at load
			return slices.DeleteFunc(tools, func(t sim.Tool) bool { return !slices.Contains(c.registered, t) })
		})
	}},
	HostToolsReorderedInPlan: {hook: func(k *hooks) {
		k.catalog = then(k.catalog, func(c cataloging, tools []sim.Tool) []sim.Tool {
			if c.s.active {
				slices.Reverse(tools)
			}
			return tools
		})
	}},
	HostToolsBlockedInPlan: {hook: func(k *hooks) {
		k.hostGate = then(k.hostGate, func(s *session, runs bool) bool { return runs && !s.active })
	}},
	NoticeForcesStep: {hook: func(k *hooks) {
		k.skipsEmpty = then(k.skipsEmpty, func(sim.PreStepRequest, bool) bool { return false })
	}},
	ToolHiddenInactive: {hook: func(k *hooks) {
		k.tools = then(k.tools, func(s *session, tools []sim.Tool) []sim.Tool {
			if !s.active {
				return []sim.Tool{}
			}
			return tools
		})
	}},
	ExitOutsidePlan: {hook: func(k *hooks) {
		k.gate = then(k.gate, func(at, bool) bool { return true })
	}},
	ExitGateReadsPending: {hook: func(k *hooks) {
		k.gate = then(k.gate, func(a at, gate bool) bool {
			if p, ok := a.pending(); ok {
				return p.active
			}
			return gate
		})
	}},
	PlanWithoutHeading: {hook: func(k *hooks) {
		k.complete = then(k.complete, func(plan string, ok bool) bool { return ok || plan != "" })
	}},
	PlanHeadingAnyLevel: {hook: func(k *hooks) {
		k.complete = then(k.complete, func(plan string, ok bool) bool {
			return ok || strings.HasPrefix(strings.TrimSpace(plan), "#")
		})
	}},
	NarrateExit: {hook: func(k *hooks) {
		k.userOwned = then(k.userOwned, func(intent, bool) bool { return true })
	}},
	ApprovalKeepsUserExit: {hook: func(k *hooks) {
		k.replaces = then(k.replaces, func(a at, replaces bool) bool {
			if p, ok := a.pending(); ok && p.narrate && !p.active {
				return false
			}
			return replaces
		})
	}},
	ApproveWithFeedback: {hook: func(k *hooks) {
		k.approves = then(k.approves, func(sim.Review, bool) bool { return true })
	}},
	ReviewReadsAnyQuestion: {hook: func(k *hooks) {
		k.answersReview = then(k.answersReview, func(sim.ReviewAnswer, bool) bool { return true })
	}},
	MultiSelectApproves: {hook: func(k *hooks) {
		k.selectsApproval = then(k.selectsApproval, func(selected []string, _ bool) bool { return slices.Contains(selected, sim.Approve) })
	}},
	RetryIgnoresFailedHeader: {hook: func(k *hooks) {
		// The notice is judged against the header before the failed
		// request's, as if a failed request had shown the model nothing.
		k.retryNotice = then(k.retryNotice, func(r retrying, _ bool) bool {
			h := headerBeforeLast(r.s.events)
			return h != nil && *h != r.target
		})
	}},
	RetryRenarrates: {wire: func(w *wire) {
		// The notice a step carried is added again when the step is
		// retried, as if the failed request had lost it.
		carried := map[string]sim.Message{}
		w.preStep = func(req sim.PreStepRequest, r sim.PreStepReply) sim.PreStepReply {
			owed, ok := carried[req.Agent]
			if req.Retry == 0 {
				delete(carried, req.Agent)
				ok = false
			}
			if r.Decision.Kind != sim.Enter {
				return r
			}
			for _, m := range r.Decision.Messages {
				if m.IsPlanNotice() {
					carried[req.Agent] = m
				}
			}
			if ok {
				r.Decision.Messages = append(slices.Clone(r.Decision.Messages), owed)
			}
			return r
		}
	}},
	KeepPlanningKeepsExit: {hook: func(k *hooks) {
		k.withdraws = then(k.withdraws, func(intent, bool) bool { return false })
	}},
	NoChannelApproves: {hook: func(k *hooks) {
		k.review = first(k.review, func(a at) (json.RawMessage, bool) {
			if a.c.services.UserQuestions {
				return nil, false
			}
			return a.c.approve(a), true
		})
	}},
	ReloadApproves: {hook: func(k *hooks) {
		k.reloaded = then(k.reloaded, func(at, bool) bool { return false })
	}},
	CommandWithoutService: {wire: func(w *wire) {
		w.loaded = func(r sim.LoadReply) sim.LoadReply {
			if r.Error == "" {
				r.Commands = []string{spec.Command}
			}
			return r
		}
	}},
	PlanMessageNotSteered: {hook: func(k *hooks) {
		k.steered = then(k.steered, func(string, bool) bool { return false })
	}},
	OffKeepsPending: {hook: func(k *hooks) {
		k.offReply = first(k.offReply, func(a at) (sim.CommandReply, bool) {
			if p, ok := a.pending(); ok && p.active {
				return sim.CommandReply{Kind: "success", Text: "Plan mode entry cancelled.", Outcome: spec.Cancelled}, true
			}
			return sim.CommandReply{}, false
		})
	}},
	OutsideWritesIgnored: {hook: func(k *hooks) {
		k.heard = then(k.heard, func(sim.Event, bool) bool { return false })
	}},
	UnloadKeepsPending: {hook: func(k *hooks) {
		k.unloaded = then(k.unloaded, func(pending, _ map[string]intent) map[string]intent { return maps.Clone(pending) })
	}},
	ResumeIgnoresLog: {hook: func(k *hooks) {
		k.resumed = then(k.resumed, func(sim.OpenRequest, bool) bool { return false })
	}},
	SelectionContinues: {wire: func(w *wire) {
		w.set = func(r sim.SetReply) sim.SetReply {
			if r.Outcome == spec.Committed {
				r.Effects = continues(r.Effects)
			}
			return r
		}
		w.command = func(r sim.CommandReply) sim.CommandReply {
			if r.Outcome == spec.Committed {
				r.Effects = continues(r.Effects)
			}
			return r
		}
	}},
	QueuedCommitsNow: {hook: func(k *hooks) {
		k.waits = then(k.waits, func(sel selection, waits bool) bool { return waits && sel.active == sel.s.active })
	}},
	ApprovedExitAtOnce: {hook: func(k *hooks) {
		k.replaces = then(k.replaces, func(a at, replaces bool) bool {
			if !replaces {
				return false
			}
			// the exit is appended now, in the middle of the tool call,
			// instead of being left pending for the next accepted pre-step
			delete(a.c.pending, a.agent)
			_ = a.c.append(a.h, a.agent, false)
			return false
		})
	}},
	ApproveWithoutReview: {hook: func(k *hooks) {
		k.review = first(k.review, func(a at) (json.RawMessage, bool) {
			if !a.c.services.UserQuestions {
				return nil, false
			}
			return a.c.approve(a), true
		})
	}},
	BarePlanToggles: {hook: func(k *hooks) {
		k.target = then(k.target, func(cmd commanding, target bool) bool {
			if cmd.msg != "" {
				return target
			}
			current := cmd.c.sessions[cmd.agent].active
			if p, ok := cmd.pending(); ok {
				current = p.active
			}
			return !current
		})
	}},
	PlanModeBlocksSteps: {hook: func(k *hooks) {
		k.afterNext = first(k.afterNext, func(s *session) (sim.Decision, bool) {
			return sim.Decision{Kind: sim.Reject}, s.active
		})
	}},
	CommandUntrimmed: {hook: func(k *hooks) {
		k.isOff = then(k.isOff, func(input string, off bool) bool { return off && input == strings.TrimSpace(input) })
	}},
	ReplyAnnouncesEntering: {hook: func(k *hooks) {
		k.announced = then(k.announced, func(a announcing, outcome string) string {
			if a.off && outcome == spec.Noop && a.s.active {
				// The published package words a repeated in-turn exit as leaving.
				return spec.Queued
			}
			if !a.off && outcome != spec.Committed {
				// It words every /plan that does not commit as entering
				// plan mode from the next step.
				return spec.Queued
			}
			return outcome
		})
	}},
	CancelledNarrated: {hook: func(k *hooks) {
		k.unchanged = then(k.unchanged, func(u unchanging, d sim.Decision) sim.Decision {
			if u.p.narrate && d.Kind == sim.Enter {
				if notice, due := u.c.narration(u.s, u.p.active); due {
					d.Messages = append(d.Messages, notice)
				}
			}
			return d
		})
	}},
}

// continues steers the agent to continue after a commit's effects, before
// any steer of the call's own.
func continues(effects []sim.Effect) []sim.Effect {
	at := len(effects)
	for i, ef := range effects {
		if ef.Kind == sim.EffectSteer {
			at = i
			break
		}
	}
	m := sim.UserMessage("Continue.")
	return slices.Insert(effects, at, sim.Effect{Kind: sim.EffectSteer, Message: &m})
}

// sectionOnly drops every key of a config object but section; anything
// else is returned as it is.
func sectionOnly(raw json.RawMessage) json.RawMessage {
	var fields map[string]json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(raw)).Decode(&fields); err != nil || fields == nil {
		return raw
	}
	out := map[string]json.RawMessage{}
	if v, ok := fields["section"]; ok {
		out["section"] = v
	}
	b, _ := json.Marshal(out)
	return b
}

// The mutant catalogue. Each breaks exactly one clause.
const (
	AppendBeforeDownstream   Mutant = "append-before-downstream"
	AppendOnReject           Mutant = "append-on-reject"
	AppendOnAbort            Mutant = "append-on-abort"
	NarrateAlways            Mutant = "narrate-always"
	NarrateExit              Mutant = "narrate-exit"
	NarrateTwice             Mutant = "narrate-twice"
	IdleSetQueues            Mutant = "idle-set-queues"
	CancelKeepsPending       Mutant = "cancel-keeps-pending"
	FoldFirst                Mutant = "fold-first"
	PendingSurvivesRestart   Mutant = "pending-survives-restart"
	SectionWhileInactive     Mutant = "section-while-inactive"
	SectionWrongOrder        Mutant = "section-wrong-order"
	ToolHiddenInactive       Mutant = "tool-hidden-inactive"
	OffKeepsPending          Mutant = "off-keeps-pending"
	ConfigUnknownKeyIgnored  Mutant = "config-unknown-key-ignored"
	ApproveWithFeedback      Mutant = "approve-with-feedback"
	PlanWithoutHeading       Mutant = "plan-without-heading"
	ListenerAppended         Mutant = "listener-appended"
	RetryNotObserved         Mutant = "retry-not-observed"
	FailedAppendBlocks       Mutant = "failed-append-blocks"
	NoopQueues               Mutant = "noop-queues"
	GetHidesPending          Mutant = "get-hides-pending"
	ExitOutsidePlan          Mutant = "exit-outside-plan"
	NoChannelApproves        Mutant = "no-channel-approves"
	ReloadApproves           Mutant = "reload-approves"
	PlanMessageNotSteered    Mutant = "plan-message-not-steered"
	CommandWithoutService    Mutant = "command-without-service"
	PlanModeExtraField       Mutant = "plan-mode-extra-field"
	DoubleAppend             Mutant = "double-append"
	ResumeIgnoresLog         Mutant = "resume-ignores-log"
	OutsideWritesIgnored     Mutant = "outside-writes-ignored"
	UnloadKeepsPending       Mutant = "unload-keeps-pending"
	SelectionContinues       Mutant = "selection-continues"
	QueuedCommitsNow         Mutant = "queued-commits-now"
	ApprovedExitAtOnce       Mutant = "approved-exit-at-once"
	ApproveWithoutReview     Mutant = "approve-without-review"
	BarePlanToggles          Mutant = "bare-plan-toggles"
	PlanModeBlocksSteps      Mutant = "plan-mode-blocks-steps"
	KeepPlanningKeepsExit    Mutant = "keep-planning-keeps-exit"
	ExitGateReadsPending     Mutant = "exit-gate-reads-pending"
	ApprovalKeepsUserExit    Mutant = "approval-keeps-user-exit"
	CancelledNarrated        Mutant = "cancelled-selection-narrated"
	CommandUntrimmed         Mutant = "command-untrimmed"
	ReplyAnnouncesEntering   Mutant = "plan-reply-announces-entering"
	ReviewReadsAnyQuestion   Mutant = "review-reads-any-question"
	MultiSelectApproves      Mutant = "review-multi-select-approves"
	RetryRenarrates          Mutant = "retry-renarrates"
	RetryIgnoresFailedHeader Mutant = "retry-ignores-failed-header"
	// Host tools (EXIT-1, SVC-3) and empty decisions (PEND-2).
	AssemblyToolsHiddenInPlan Mutant = "assembly-tools-hidden-in-plan"
	HostToolsReorderedInPlan  Mutant = "host-tools-reordered-in-plan"
	HostToolsBlockedInPlan    Mutant = "host-tools-blocked-in-plan"
	NoticeForcesStep          Mutant = "notice-forces-step"
	PlanHeadingAnyLevel       Mutant = "plan-heading-any-level"
)

// MutantInfo describes a mutant: the clause it breaks and how.
type MutantInfo struct {
	Name   Mutant
	Clause string
	What   string
}

// Catalogue lists every mutant with its clause, in a fixed order.
var Catalogue = []MutantInfo{
	{PlanModeExtraField, spec.LOG1, "plan/mode data carries a field besides active"},
	{FoldFirst, spec.LOG2, "the fold returns the first plan/mode value instead of the last"},
	{PendingSurvivesRestart, spec.PEND8, "pending selections survive a process restart"},
	{DoubleAppend, spec.LOG4, "a committed change appends plan/mode twice"},
	{NoopQueues, spec.PEND3, "selecting the pending or logged state again during a turn returns queued"},
	{CancelKeepsPending, spec.PEND5, "cancelled leaves the opposite selection pending"},
	{IdleSetQueues, spec.PEND6, "a set with no open turn queues instead of committing"},
	{GetHidesPending, spec.PEND7, "get never reports the pending selection"},
	{ListenerAppended, spec.STEP1, "the pre-step listener is registered without prepend"},
	{RetryNotObserved, spec.STEP2, "request-recovery retries do not apply pending selections"},
	{AppendBeforeDownstream, spec.STEP3, "the selection is appended before the downstream decision"},
	{AppendOnReject, spec.STEP3, "a rejected step still appends the selection"},
	{AppendOnAbort, spec.STEP3, "an aborted step still appends the selection"},
	{FailedAppendBlocks, spec.STEP5, "a failed append rejects the step"},
	{NarrateAlways, spec.STEP6, "every user selection is narrated, whatever the last header showed"},
	{NarrateTwice, spec.STEP6, "a narrated change gets two notices"},
	{RetryIgnoresFailedHeader, spec.STEP6, "at a retry the notice is judged against the header before the failed request's, so a change the failed request showed is not narrated when the retry undoes it"},
	{RetryRenarrates, spec.STEP6, "a retried step carries its notice again, so a change applied before a failed request is narrated twice"},
	{ConfigUnknownKeyIgnored, spec.CFG1, "unknown config keys are silently ignored"},
	{SectionWhileInactive, spec.CFG2, "the plan:policy section renders while plan mode is inactive"},
	{SectionWrongOrder, spec.CFG2, "the plan:policy section renders at order 40"},
	{ToolHiddenInactive, spec.EXIT1, "exit_plan_mode leaves the tool catalog while plan mode is inactive"},
	{ExitOutsidePlan, spec.EXIT2, "exit_plan_mode runs outside plan mode"},
	{ExitGateReadsPending, spec.EXIT2, "exit_plan_mode's plan-mode gate reads the pending selection instead of the logged state"},
	{PlanWithoutHeading, spec.EXIT3, "a plan without a # heading is accepted"},
	{NarrateExit, spec.EXIT5, "the exit tool's approved exit is narrated"},
	{ApprovedExitAtOnce, spec.EXIT5, "an approved exit is appended at once, during the exit tool's call, instead of at the next accepted in-turn pre-step"},
	{ApprovalKeepsUserExit, spec.EXIT5, "an approval keeps a user's queued exit instead of replacing it, so the exit is narrated"},
	{ApproveWithFeedback, spec.EXIT6, "an approval that carries feedback text counts as approval"},
	{ReviewReadsAnyQuestion, spec.EXIT6, "the review reply's answers are read whatever question they answer, so an approval of another question approves the plan"},
	{MultiSelectApproves, spec.EXIT6, "a review answer that selects the approve option among others approves the plan"},
	{KeepPlanningKeepsExit, spec.EXIT6, "keep planning leaves an earlier approval's pending exit in force, so plan mode is left at the next accepted step"},
	{NoChannelApproves, spec.EXIT7, "with no user-questions channel the exit is approved"},
	{ReloadApproves, spec.EXIT7, "a reload during the review does not fail the call"},
	{CommandWithoutService, spec.CMD1, "/plan is registered even when the commands service is not composed"},
	{PlanMessageNotSteered, spec.CMD3, "/plan <message> does not steer the message"},
	{OffKeepsPending, spec.CMD4, "/plan off does not cancel a pending entry"},
	{ResumeIgnoresLog, spec.LOG3, "a session opened on an existing log (resume, fork) starts inactive instead of folding it"},
	{OutsideWritesIgnored, spec.LOG3, "a plan/mode another process appends to the live log does not change the state: the plugin folds only its own appends and the logs it is opened with"},
	{UnloadKeepsPending, spec.PEND8, "pending selections survive an unload: a later load restores them instead of starting clean from the log"},
	{SelectionContinues, spec.PEND2, "a committed selection steers the agent to continue, starting a turn"},
	{QueuedCommitsNow, spec.PEND4, "a selection during an open turn is appended at once instead of queued"},
	{ApproveWithoutReview, spec.EXIT4, "a valid plan is approved without being presented for review"},
	{BarePlanToggles, spec.CMD2, "bare /plan toggles: it leaves plan mode when plan mode is on"},
	{PlanModeBlocksSteps, spec.SVC3, "in plan mode the listener rejects steps instead of only guiding"},
	{CommandUntrimmed, spec.CMD4, "the /plan argument is compared with off untrimmed, so \" off \" is taken for a message"},
	{AssemblyToolsHiddenInPlan, spec.EXIT1, "in plan mode the catalog keeps only the host tools registered at load, hiding those another assembly listener adds after plan mode's"},
	{HostToolsReorderedInPlan, spec.EXIT1, "in plan mode the host's tools are reordered (reversed) in the request's catalog"},
	{HostToolsBlockedInPlan, spec.SVC3, "in plan mode the plugin's tool gate denies every call of a host tool"},
	{NoticeForcesStep, spec.PEND2, "a pending selection's notice is added to an empty accepted decision the runtime would skip, so the selection starts a step"},
	{ReplyAnnouncesEntering, spec.SVC1, "every /plan that does not commit announces entering plan mode from the next step (queued), as does a repeated in-turn /plan off"},
	{PlanHeadingAnyLevel, spec.EXIT3, "a plan opening with # in any form (## Plan, #Plan) is accepted, not only a level-1 heading"},
}

// Variants reproduce deviations of published implementations that show
// only under a silent-point choice (Choices says which), so they are not in
// the Catalogue every suite must kill with the default choices. Lockstep
// runs can assume them, like any mutant.
var Variants = []VariantInfo{
	{MutantInfo{CancelledNarrated, spec.STEP6, "a selection cancelled within a turn (kept as an entry equal to the log) is narrated at the next accepted pre-step"},
		map[string]string{spec.ChoiceCancelPending: spec.CancelPendingKeepEqual}},
}

// VariantInfo is a variant: a mutant and the choices it needs to show.
type VariantInfo struct {
	MutantInfo
	Choices map[string]string
}

// Known lists the catalogue, then the variants.
func Known() []MutantInfo {
	out := slices.Clone(Catalogue)
	for _, v := range Variants {
		out = append(out, v.MutantInfo)
	}
	return out
}

// LookupMutant returns the catalogue (or variant) entry for name.
func LookupMutant(name string) (MutantInfo, error) {
	for _, v := range Variants {
		if string(v.Name) == name {
			return v.MutantInfo, nil
		}
	}
	for _, m := range Catalogue {
		if string(m.Name) == name {
			return m, nil
		}
	}
	var names []string
	for _, m := range Catalogue {
		names = append(names, string(m.Name))
	}
	for _, v := range Variants {
		names = append(names, string(v.Name))
	}
	return MutantInfo{}, fmt.Errorf("unknown mutant %q (known: %s)", name, strings.Join(names, ", "))
}

// headerBeforeLast is the fold at the request header before the last one
// (nil when there is none): what the mutant retry-ignores-failed-header
// takes for the last header the model saw, skipping the failed request's.
func headerBeforeLast(events []sim.Event) *bool {
	seen := 0
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == spec.TypeRequestHeader {
			if seen++; seen == 2 {
				v := FoldPlanMode(events, i)
				return &v
			}
		}
	}
	return nil
}
