package reference

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
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
			r.Sections = slices.Clone(r.Sections) // the reply's are shared
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
	HeadingAfterText: {hook: func(k *hooks) {
		k.complete = then(k.complete, func(plan string, ok bool) bool {
			return ok || headingAnywhere.MatchString(plan)
		})
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
			h := r.s.plainHeaders[0]
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
	OffAnyCase: {hook: func(k *hooks) {
		k.isOff = then(k.isOff, func(arg string, off bool) bool { return off || strings.EqualFold(arg, spec.CommandOff) })
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
	OffAnyCase               Mutant = "off-any-case"
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
	HeadingAfterText          Mutant = "heading-after-text"
)

// MutantInfo describes a mutant: the clause it breaks, how, and what
// proves the checks catch it.
type MutantInfo struct {
	Name   Mutant
	Clause string
	What   string
	Evidence
}

// Evidence is what proves a mutant is caught, declared beside its
// catalogue entry so that a new mutant is complete in one place. Each
// field is read by the test named; the evidence test of package main
// (cmd/plankit, TestEveryClauseHasItsEvidence) reports every field a new
// mutant still lacks. The scenarios and properties that kill a mutant are
// not declared: the kill tests search them (features
// TestEveryMutantIsKilled, the kill matrix's properties column within
// properties.KillBudget).
type Evidence struct {
	// Example is the example trace (a file name under examples/) that the
	// mutant fails (TestExamplesKillEveryMutant, package reference).
	Example string
	// Log is the trace (a path from the module root: a lint fixture under
	// lint/testdata/traces/, or an example) whose session log, run against
	// the mutant, has a lint finding of LogClause (TestMutantLogsHaveFindings,
	// package lint). LogClause is the mutant's clause unless the broken
	// clause is not itself logged and its symptom is another clause's (a
	// wrong fold renders a request the log contradicts: CFG-2).
	Log, LogClause string
	// LogHidden says why no session log can show the mutant: what it
	// changes is not logged, or a log that shows it reads as a faithful
	// one (then Log and LogUnlinted are empty).
	LogHidden string
	// LogUnlinted says what a session log does show of the mutant that no
	// lint rule reads yet: a rule to write (then Log and LogHidden are
	// empty). Exactly one of Log, LogHidden and LogUnlinted is set.
	LogUnlinted string
	// RuntimeHidden says why the runtime level, which sees a runtime from
	// outside, cannot show the mutant; empty, the runtime-level suite must
	// kill it (TestMutantsAreKilledAtRuntimeLevel, package main of
	// cmd/plankit) and
	// lockstep at runtime level must find it under its clause
	// (TestRuntimeLockstepNamesEachMutantUnderItsClause, package lockstep).
	// At the plugin level lockstep must always find it under its clause
	// (the kill matrix's lockstep column, TestMutantsDocIsFresh in
	// cmd/plankit): some divergence within the search budget names
	// it, whichever observation it is seen at, so a change to what the
	// generators draw cannot turn an unrelated mutant red.
	RuntimeHidden string
}

// LogProblem says what is wrong with how the evidence accounts for the
// session log ("" when nothing is): exactly one of Log (with LogClause),
// LogHidden and LogUnlinted.
func (e Evidence) LogProblem() string {
	n := 0
	for _, f := range []string{e.Log, e.LogHidden, e.LogUnlinted} {
		if f != "" {
			n++
		}
	}
	switch {
	case n != 1:
		return "needs exactly one of Log (with LogClause: the trace whose log has a lint finding of it), LogHidden (why no log can show it) and LogUnlinted (what a log shows that no lint rule reads yet)"
	case e.Log != "" && e.LogClause == "":
		return "Log without LogClause"
	case e.Log == "" && e.LogClause != "":
		return "LogClause without Log"
	}
	return ""
}

// Catalogue lists every mutant with its clause, in a fixed order.
var Catalogue = []MutantInfo{
	{PlanModeExtraField, spec.LOG1, "plan/mode data carries a field besides active", Evidence{
		Example: "cmd-not-composed.yaml",
		Log:     "lint/testdata/traces/narration.yaml", LogClause: spec.LOG1}},
	{FoldFirst, spec.LOG2, "the fold returns the first plan/mode value instead of the last", Evidence{
		Example: "cmd-plan-input-details.yaml",
		Log:     "lint/testdata/traces/narration.yaml", LogClause: spec.CFG2}},
	{PendingSurvivesRestart, spec.PEND8, "pending selections survive a process restart", Evidence{
		Example:   "pend-restart-loses-late-selection.yaml",
		LogHidden: "a restart between turns is not logged; a later append reads as a later selection"}},
	{DoubleAppend, spec.LOG4, "a committed change appends plan/mode twice", Evidence{
		Example: "cmd-not-composed.yaml",
		Log:     "lint/testdata/traces/narration.yaml", LogClause: spec.LOG4}},
	{NoopQueues, spec.PEND3, "selecting the pending or logged state again during a turn returns queued", Evidence{
		Example:   "pend-cancel-before-boundary.yaml",
		LogHidden: "set outcomes are not logged"}},
	{CancelKeepsPending, spec.PEND5, "cancelled leaves the opposite selection pending", Evidence{
		Example:   "pend-cancel-before-boundary.yaml",
		LogHidden: "set calls are not logged; the kept selection's append reads as a new selection"}},
	{IdleSetQueues, spec.PEND6, "a set with no open turn queues instead of committing", Evidence{
		Example:   "pend-checkpointing-commits.yaml",
		LogHidden: "set calls are not logged; a queued idle selection's append reads as a mid-turn one"}},
	{GetHidesPending, spec.PEND7, "get never reports the pending selection", Evidence{
		Example:   "pend-cancel-before-boundary.yaml",
		LogHidden: "get is not logged"}},
	{ListenerAppended, spec.STEP1, "the pre-step listener is registered without prepend", Evidence{
		Example:   "step-listener-position.yaml",
		LogHidden: "the listener order is not logged"}},
	{RetryNotObserved, spec.STEP2, "request-recovery retries do not apply pending selections", Evidence{
		Example:   "step-retry-notice-once.yaml",
		LogHidden: "a selection appended at a later step reads as a later selection"}},
	{AppendBeforeDownstream, spec.STEP3, "the selection is appended before the downstream decision", Evidence{
		Example: "step-abort.yaml",
		Log:     "lint/testdata/traces/reject-abort.yaml", LogClause: spec.STEP3}},
	{AppendOnReject, spec.STEP3, "a rejected step still appends the selection", Evidence{
		Example: "step-listener-position.yaml",
		Log:     "lint/testdata/traces/reject-abort.yaml", LogClause: spec.STEP3}},
	{AppendOnAbort, spec.STEP3, "an aborted step still appends the selection", Evidence{
		Example: "step-abort.yaml",
		Log:     "lint/testdata/traces/reject-abort.yaml", LogClause: spec.STEP3}},
	{FailedAppendBlocks, spec.STEP5, "a failed append rejects the step", Evidence{
		Example:   "step-append-failure-recovery.yaml",
		LogHidden: "a failed append is not logged; the rejection reads as another listener's"}},
	{NarrateAlways, spec.STEP6, "every user selection is narrated, whatever the last header showed", Evidence{
		Example: "step-listener-position.yaml",
		Log:     "lint/testdata/traces/narration.yaml", LogClause: spec.STEP6}},
	{NarrateTwice, spec.STEP6, "a narrated change gets two notices", Evidence{
		Example: "step-append-failure-recovery.yaml",
		Log:     "lint/testdata/traces/narration.yaml", LogClause: spec.STEP6}},
	{RetryIgnoresFailedHeader, spec.STEP6, "at a retry the notice is judged against the header before the failed request's, so a change the failed request showed is not narrated when the retry undoes it", Evidence{
		Example:   "step-retry-through-pre-step.yaml",
		LogHidden: "a retry's request is not logged apart from its header, so which header a notice was judged against does not show"}},
	{RetryRenarrates, spec.STEP6, "a retried step carries its notice again, so a change applied before a failed request is narrated twice", Evidence{
		Example: "step-retry-notice-once.yaml",
		Log:     "examples/step-retry-notice-once.yaml", LogClause: spec.STEP6}},
	{ConfigUnknownKeyIgnored, spec.CFG1, "unknown config keys are silently ignored", Evidence{
		Example:   "cfg-config-validation.yaml",
		LogHidden: "the plugin config is not logged"}},
	{SectionWhileInactive, spec.CFG2, "the plan:policy section renders while plan mode is inactive", Evidence{
		Example: "cmd-plan-input-details.yaml",
		Log:     "lint/testdata/traces/narration.yaml", LogClause: spec.CFG2}},
	{SectionWrongOrder, spec.CFG2, "the plan:policy section renders at order 40", Evidence{
		Example: "cfg-config-validation.yaml",
		Log:     "lint/testdata/traces/narration.yaml", LogClause: spec.CFG2}},
	{ToolHiddenInactive, spec.EXIT1, "exit_plan_mode leaves the tool catalog while plan mode is inactive", Evidence{
		Example: "exit-approved-next-step-no-notice.yaml",
		Log:     "lint/testdata/traces/narration.yaml", LogClause: spec.EXIT1}},
	{ExitOutsidePlan, spec.EXIT2, "exit_plan_mode runs outside plan mode", Evidence{
		Example: "exit-pending-selections.yaml",
		Log:     "lint/testdata/traces/exit.yaml", LogClause: spec.EXIT2}},
	{ExitGateReadsPending, spec.EXIT2, "exit_plan_mode's plan-mode gate reads the pending selection instead of the logged state", Evidence{
		Example:   "exit-keep-planning-after-approval.yaml",
		LogHidden: "a tool failure's wording is not fixed, so a refused call reads as any failed call"}},
	{PlanWithoutHeading, spec.EXIT3, "a plan without a # heading is accepted", Evidence{
		Example: "exit-preconditions.yaml",
		Log:     "lint/testdata/traces/exit.yaml", LogClause: spec.EXIT3}},
	{NarrateExit, spec.EXIT5, "the exit tool's approved exit is narrated", Evidence{
		Example:   "exit-approved-next-step-no-notice.yaml",
		LogHidden: "set calls are not logged; a user who cancels the approval and leaves plan mode again makes the same plan/mode, and that one is narrated"}},
	{ApprovedExitAtOnce, spec.EXIT5, "an approved exit is appended at once, during the exit tool's call, instead of at the next accepted in-turn pre-step", Evidence{
		Example: "exit-approved-next-step-no-notice.yaml",
		Log:     "lint/testdata/traces/exit.yaml", LogClause: spec.EXIT5}},
	{ApprovalKeepsUserExit, spec.EXIT5, "an approval keeps a user's queued exit instead of replacing it, so the exit is narrated", Evidence{
		Example:   "exit-pending-selections.yaml",
		LogHidden: "set calls and review answers are not logged; the narrated exit reads as the user's own selection"}},
	{ApproveWithFeedback, spec.EXIT6, "an approval that carries feedback text counts as approval", Evidence{
		Example:   "exit-keep-planning-feedback.yaml",
		LogHidden: "review answers are not logged"}},
	{ReviewReadsAnyQuestion, spec.EXIT6, "the review reply's answers are read whatever question they answer, so an approval of another question approves the plan", Evidence{
		Example:   "exit-review-replies.yaml",
		LogHidden: "review replies are not logged"}},
	{MultiSelectApproves, spec.EXIT6, "a review answer that selects the approve option among others approves the plan", Evidence{
		Example:   "exit-review-replies.yaml",
		LogHidden: "review replies are not logged"}},
	{KeepPlanningKeepsExit, spec.EXIT6, "keep planning leaves an earlier approval's pending exit in force, so plan mode is left at the next accepted step", Evidence{
		Example:   "exit-keep-planning-after-approval.yaml",
		LogHidden: "review answers are not logged; the kept exit's append reads as an approval's"}},
	{NoChannelApproves, spec.EXIT7, "with no user-questions channel the exit is approved", Evidence{
		Example:   "exit-no-channel-or-reload.yaml",
		LogHidden: "the composed services are not logged"}},
	{ReloadApproves, spec.EXIT7, "a reload during the review does not fail the call", Evidence{
		Example:   "exit-no-channel-or-reload.yaml",
		LogHidden: "a reload is not logged"}},
	{CommandWithoutService, spec.CMD1, "/plan is registered even when the commands service is not composed", Evidence{
		Example:   "cmd-not-composed.yaml",
		LogHidden: "the composed services are not logged"}},
	{PlanMessageNotSteered, spec.CMD3, "/plan <message> does not steer the message", Evidence{
		Example: "cmd-plan-input-details.yaml",
		Log:     "lint/testdata/traces/command.yaml", LogClause: spec.CMD3}},
	{OffKeepsPending, spec.CMD4, "/plan off does not cancel a pending entry", Evidence{
		Example:   "cmd-plan-off-cancels-entry.yaml",
		LogHidden: "set calls are not logged; the kept entry's append reads as a new selection"}},
	{ResumeIgnoresLog, spec.LOG3, "a session opened on an existing log (resume, fork) starts inactive instead of folding it", Evidence{
		Example: "log-fork-and-compaction.yaml",
		Log:     "lint/testdata/traces/resume.yaml", LogClause: spec.CFG2}},
	{OutsideWritesIgnored, spec.LOG3, "a plan/mode another process appends to the live log does not change the state: the plugin folds only its own appends and the logs it is opened with", Evidence{
		Example: "log-outside-writers.yaml",
		Log:     "lint/testdata/traces/outside.yaml", LogClause: spec.CFG2}},
	{UnloadKeepsPending, spec.PEND8, "pending selections survive an unload: a later load restores them instead of starting clean from the log", Evidence{
		Example:   "svc-unload-and-load.yaml",
		LogHidden: "an unload and a load are not logged; the restored selection's append reads as a new selection"}},
	{SelectionContinues, spec.PEND2, "a committed selection steers the agent to continue, starting a turn", Evidence{
		Example:   "pend-checkpointing-commits.yaml",
		LogHidden: "a step forced by a selection reads as an ordinary continuation step"}},
	{QueuedCommitsNow, spec.PEND4, "a selection during an open turn is appended at once instead of queued", Evidence{
		Example: "pend-cancel-before-boundary.yaml",
		Log:     "lint/testdata/traces/queued.yaml", LogClause: spec.PEND1}},
	{ApproveWithoutReview, spec.EXIT4, "a valid plan is approved without being presented for review", Evidence{
		Example:   "exit-approved-next-step-no-notice.yaml",
		LogHidden: "review questions are not logged; the approval reads as the user's"}},
	{BarePlanToggles, spec.CMD2, "bare /plan toggles: it leaves plan mode when plan mode is on", Evidence{
		Example:     "cmd-plan-message-steers.yaml",
		LogUnlinted: "command/run logs a bare /plan and the plan/mode after it is false; the linter reads /plan arguments only for CMD-3 (a message is steered)"}},
	{PlanModeBlocksSteps, spec.SVC3, "in plan mode the listener rejects steps instead of only guiding", Evidence{
		Example:   "svc-host-tools.yaml",
		LogHidden: "a rejected step reads as another listener's rejection"}},
	{OffAnyCase, spec.CMD4, "the /plan argument is compared with off in any case, so /plan OFF is taken for off, not for a message", Evidence{
		Example:     "cmd-plan-input-details.yaml",
		LogUnlinted: "command/run logs /plan OFF, and neither a plan/mode true nor the steered message OFF follows it while plan mode is off; no lint rule reads /plan arguments for CMD-4 yet"}},
	{AssemblyToolsHiddenInPlan, spec.EXIT1, "in plan mode the catalog keeps only the host tools registered at load, hiding those another assembly listener adds after plan mode's", Evidence{
		Example:   "svc-host-tools.yaml",
		LogHidden: "a log does not say which tools are the host's, and a host may change its own tools between requests, so a tool missing from a header reads as one the host did not offer"}},
	{HostToolsReorderedInPlan, spec.EXIT1, "in plan mode the host's tools are reordered (reversed) in the request's catalog", Evidence{
		Example:   "svc-host-tools.yaml",
		LogHidden: "a host may change its own tools between requests, so a reordered catalog reads as the host's own change"}},
	{HostToolsBlockedInPlan, spec.SVC3, "in plan mode the plugin's tool gate denies every call of a host tool", Evidence{
		Example:   "svc-host-tools.yaml",
		LogHidden: "a denied call's result reads as any failed tool call; the log does not say which tools are the host's"}},
	{NoticeForcesStep, spec.PEND2, "a pending selection's notice is added to an empty accepted decision the runtime would skip, so the selection starts a step", Evidence{
		Example:   "pend-empty-steps.yaml",
		LogHidden: "whether the runtime would have skipped the step is not logged; a step that carries only a notice reads as one the runtime sends anyway"}},
	{ReplyAnnouncesEntering, spec.SVC1, "every /plan that does not commit announces entering plan mode from the next step (queued), as does a repeated in-turn /plan off", Evidence{
		Example:   "cmd-plan-input-details.yaml",
		LogHidden: "the outcome a reply announces is not logged, only its wording, which checks never read"}},
	{PlanHeadingAnyLevel, spec.EXIT3, "a plan opening with # in any form (## Plan, #Plan) is accepted, not only a level-1 heading", Evidence{
		Example: "exit-preconditions.yaml",
		Log:     "lint/testdata/traces/heading.yaml", LogClause: spec.EXIT3}},
	{HeadingAfterText, spec.EXIT3, "a plan with a level-1 heading anywhere is accepted, one whose heading comes after other text too", Evidence{
		Example: "exit-preconditions.yaml",
		Log:     "lint/testdata/traces/heading.yaml", LogClause: spec.EXIT3}},
}

// headingAnywhere is a level-1 markdown heading at the start of any line.
var headingAnywhere = regexp.MustCompile(`(?m)^#\s+\S`)

// Variants reproduce deviations of published implementations that show
// only under a silent-point choice (Choices says which), so they are not in
// the Catalogue every suite must kill with the default choices. Lockstep
// runs can assume them, like any mutant.
var Variants = []VariantInfo{
	{MutantInfo{CancelledNarrated, spec.STEP6, "a selection cancelled within a turn (kept as an entry equal to the log) is narrated at the next accepted pre-step", Evidence{}},
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
