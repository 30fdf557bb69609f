package loop

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// The rules below hold of every session whatever the script, like the
// invariants of checks.go; Invariants runs them. Each judges one family of
// observations against SPEC.md's clauses and says nothing where a rule
// would need state the observations do not show (a selection pending
// inside a turn, the answer of an extended review).

// idleSets judges each set step (a selection between turns) by what it
// appended and the state the log held before it: committed appends exactly
// the selected value, which differs from the logged state (PEND-6, LOG-4);
// cancelled sets back to the logged state and, like noop, appends nothing
// (PEND-3, PEND-5, PEND-6); queued is a set with no open turn only under
// idle-append-failure=pending, and appends nothing (PEND-6); the outcome
// is one of the four (SVC-1).
func idleSets(rec Record, unloadedAt []bool) []Finding {
	var out []Finding
	pendingOnFailure := rec.Identity.Choices[spec.ChoiceIdleAppendFailure] == spec.IdleAppendFailurePending
	for i, d := range rec.Steps {
		if d.Step.Set == nil || d.Set == nil || d.Set.Error != "" || unloadedAt[i] {
			continue
		}
		agent, want := d.Step.Set.Agent, d.Step.Set.Active
		log := rec.Logs[agent]
		before := sim.FoldPlanMode(log, d.Start, spec.PlanModeReadingOf(rec.Identity.Choices))
		got := PlanModeEvents(d)
		where := fmt.Sprintf("step %d (set active=%t, the log folding to %t)", i+1, want, before)
		switch d.Set.Outcome {
		case spec.Committed:
			if want == before {
				out = append(out, found(attribution.InvIdleSetEqualCommitted, agent, where+": committed, but the selection equals the logged state (noop, or cancelled when the opposite is pending)"))
			}
			if len(got) != 1 || got[0] != want {
				out = append(out, found(attribution.InvIdleSetAppendsOnce, agent, fmt.Sprintf("%s: committed, but appended plan/mode %v, not exactly [%t]", where, got, want)))
			}
		case spec.Cancelled, spec.Noop:
			if d.Set.Outcome == spec.Cancelled && want != before {
				out = append(out, found(attribution.InvIdleSetCancelWrong, agent, where+": cancelled, but only a set back to the logged state cancels"))
			}
			if len(got) > 0 {
				out = append(out, found(attribution.InvIdleSetNoAppend, agent, fmt.Sprintf("%s: %s, but appended plan/mode %v", where, d.Set.Outcome, got)))
			}
		case spec.Queued:
			if !pendingOnFailure {
				out = append(out, found(attribution.InvIdleSetQueued, agent, where+": queued with no open turn; a set between turns commits at once"))
			} else if len(got) > 0 {
				out = append(out, found(attribution.InvIdleSetQueued, agent, fmt.Sprintf("%s: queued, but appended plan/mode %v", where, got)))
			}
		default:
			out = append(out, found(attribution.InvSetOutcomeKnown, agent, fmt.Sprintf("%s: outcome %q is not committed, queued, cancelled or noop", where, d.Set.Outcome)))
		}
	}
	return out
}

// pendingAfterRestart: a get with no step between it and a restart (but
// other gets) reports nothing pending, since pending selections are
// process-local and the state after a restart is the log's fold (PEND-8);
// so after a reload under reload-pending=drop.
func pendingAfterRestart(rec Record) []Finding {
	var out []Finding
	drops := rec.Identity.Choices[spec.ChoiceReloadPending] == spec.ReloadPendingDrop
	fresh := false
	for i, d := range rec.Steps {
		switch {
		case d.Step.Restart != nil, d.Step.Reload != nil && drops && d.Error == "":
			fresh = true
		case d.Step.Get != nil:
			if fresh && d.Get != nil && d.Get.Pending != nil {
				out = append(out, found(attribution.InvFreshNothingPending, d.Step.Get.Agent, fmt.Sprintf("step %d: get reports pending %t right after plan mode was started afresh; pending selections do not survive it", i+1, *d.Get.Pending)))
			}
		default:
			fresh = false
		}
	}
	return out
}

// reviewOutcomes judges each exit_plan_mode call the model made by the
// state the log held when the request carrying it was sent (the i-th
// response answers the i-th request of the step): outside plan mode it
// fails (EXIT-2); in plan mode a plan that does not open with a level-1 #
// heading fails (EXIT-3); a valid plan is presented for review when the
// user-questions service is composed (EXIT-4), and with none, or a reload
// during the review, or a dismissed review, the call fails (EXIT-7); a
// plain approval returns approved (EXIT-5); keep planning, or an approval
// carrying feedback, fails carrying the feedback (EXIT-6). A call with an
// extended review (a structured reply or a failing seam) is judged by the
// scenarios, and a step whose host code appends events is not judged
// (what the log held at the call is then not the request's).
func reviewOutcomes(t Trace, rec Record, unloadedAt []bool) []Finding {
	var out []Finding
	uq := t.loadRequest().Services.UserQuestions
	if t.ServicesByCapability {
		uq = uq && rec.Identity.Capabilities.UserQuestions
	}
	for i, d := range rec.Steps {
		sc := d.Step.ScriptOf()
		if sc == nil || unloadedAt[i] || appendsDuring(sc) {
			continue
		}
		agent := d.Step.Agent()
		for j, r := range sc.Responses {
			if j >= len(d.Obs.Requests) {
				break
			}
			logged := sim.FoldPlanMode(rec.Logs[agent], d.Obs.Requests[j].At, spec.PlanModeReadingOf(rec.Identity.Choices))
			for _, c := range r.Calls {
				res := toolResult(d, c.ID)
				if c.Name != spec.ExitTool || res == nil {
					continue
				}
				want, asked, rule, why := exitOutcome(c, logged, uq)
				if want == "" {
					continue
				}
				where := fmt.Sprintf("step %d: exit_plan_mode call %s (plan mode %s when its request was sent)", i+1, c.ID, onOff(logged))
				got := "failed"
				if res.OK {
					got = "ok"
				}
				if asked && !res.Asked && !res.OK {
					// a valid plan refused unseen, with plan mode on and a
					// channel to ask: the call ran as if outside plan mode
					out = append(out, found(attribution.InvExitUnpresented, agent, fmt.Sprintf("%s: failed without presenting the plan; in plan mode a valid plan is presented for review", where)))
					continue
				}
				asks := found(attribution.InvExitAsked, agent, fmt.Sprintf("%s: asked the user %t, want %t (%s)", where, res.Asked, asked, why))
				if asked && !res.Asked {
					// a plan that was never presented: whatever the call
					// then gave follows from that (EXIT-4 first)
					out = append(out, asks)
				}
				switch {
				case got != want:
					out = append(out, found(rule, agent, fmt.Sprintf("%s: %s, want %s: %s", where, got, want, why)))
				case want == "ok" && !sim.Approved(res.Value):
					out = append(out, found(attribution.InvExitApprovedResult, agent, fmt.Sprintf("%s: approved, but the result %s does not report approved", where, res.Value)))
				}
				if !asked && res.Asked {
					out = append(out, asks)
				}
				if fb := feedbackOf(c); rule == attribution.InvExitNotApproved && fb != "" && !strings.Contains(res.Error+string(res.Value), fb) {
					out = append(out, found(attribution.InvExitFeedback, agent, fmt.Sprintf("%s: keeps planning without carrying the feedback %q", where, fb)))
				}
			}
		}
	}
	return out
}

// exitOutcome is what an exit_plan_mode call must give ("ok" or
// "failed"), whether the plan is presented for review (EXIT-4: only a
// valid plan in plan mode, with a channel to ask), the clause that says so
// and why; want is "" when the rule does not judge the call.
func exitOutcome(c Call, logged, userQuestions bool) (want string, asked bool, rule, why string) {
	if !logged {
		return "failed", false, attribution.InvExitOutside, "it runs only in plan mode"
	}
	var args struct {
		Plan *string `json:"plan"`
	}
	if json.Unmarshal(c.Args, &args) != nil || args.Plan == nil || !spec.PlanOpensWithLevel1Heading(*args.Plan) {
		return "failed", false, attribution.InvExitHeading, "the plan does not open with a level-1 # heading"
	}
	if !userQuestions {
		return "failed", false, attribution.InvExitNoChannel, "no user-questions channel"
	}
	r := sim.Review{}
	if c.Review != nil {
		r = *c.Review
	}
	switch {
	case r.Extended():
		return "", false, "", ""
	case r.Reload:
		return "failed", true, attribution.InvExitReload, "plan mode was reloaded during the review"
	case r.Answer == sim.Dismiss:
		return "failed", true, attribution.InvExitDismissed, "the review was dismissed"
	case r.Answer == sim.Approve && r.Feedback == "":
		return "ok", true, attribution.InvExitApproved, "the user approved"
	}
	return "failed", true, attribution.InvExitNotApproved, "the user did not approve alone (keep planning, or feedback with the approval)"
}

// feedbackOf is the free text a call's review gives, if any.
func feedbackOf(c Call) string {
	if c.Review == nil {
		return ""
	}
	return c.Review.FreeText()
}

// appendsDuring reports whether a script's host code appends events.
func appendsDuring(sc *Script) bool {
	for h := range sc.HostActions() {
		if h.Append != nil {
			return true
		}
	}
	return false
}

// streamSelections judges the selections host code makes within one run
// of host actions inside a turn (while a response streams, a host tool
// runs or a host listener is dispatched): no pre-step runs between them,
// so the logged state stays put and only they change what is pending.
// Once a get or a queued set shows the state, each set's outcome follows
// (PEND-3 noop, PEND-4 queued, PEND-5 cancelled) and each get reports the
// logged state and the pending selection (PEND-7). A command or an append
// in the run makes the state unknown again.
func streamSelections(rec Record, unloadedAt []bool) []Finding {
	var out []Finding
	keepEqual := rec.Identity.Choices[spec.ChoiceCancelPending] == spec.CancelPendingKeepEqual
	clears := rec.Identity.Choices[spec.ChoiceCancelPending] == spec.CancelPendingClear
	for i, d := range rec.Steps {
		sc := d.Step.ScriptOf()
		if sc == nil || unloadedAt[i] {
			continue
		}
		agent := d.Step.Agent()
		results := map[string]ActionResult{}
		for _, r := range d.Obs.Results {
			results[r.ID] = r
		}
		for _, run := range hostRuns(sc) {
			known, logged := false, false
			var pending *bool
			for _, h := range run {
				r, ran := results[h.ID]
				switch {
				case !ran:
					known = false
				case h.Get != nil && r.Get != nil:
					if known {
						if r.Get.Active != logged {
							out = append(out, found(attribution.InvStreamGetActive, agent, fmt.Sprintf("step %d: get %s reports active=%t, but the logged state is %t (no step ran since it was shown)", i+1, h.ID, r.Get.Active, logged)))
						}
						if pendingText(r.Get.Pending) != pendingText(pending) {
							out = append(out, found(attribution.InvStreamGetPending, agent, fmt.Sprintf("step %d: get %s reports pending %s, but the selections before it leave %s pending", i+1, h.ID, pendingText(r.Get.Pending), pendingText(pending))))
						}
					}
					known, logged, pending = true, r.Get.Active, r.Get.Pending
				case h.Set != nil && r.Set != nil && r.Set.Error == "":
					v := h.Set.Active
					if known {
						want, rule := spec.Queued, attribution.InvStreamSetQueued
						switch {
						case pending != nil && *pending == v, pending == nil && v == logged:
							want, rule = spec.Noop, attribution.InvStreamSetNoop
						case v == logged:
							want, rule = spec.Cancelled, attribution.InvStreamSetCancelled
						}
						if r.Set.Outcome != want {
							out = append(out, found(rule, agent, fmt.Sprintf("step %d: set %s (active=%t, logged %t, pending %s) returns %s, want %s", i+1, h.ID, v, logged, pendingText(pending), r.Set.Outcome, want)))
							known = false
							continue
						}
					}
					switch r.Set.Outcome {
					case spec.Queued:
						known, logged, pending = true, !v, &v
					case spec.Cancelled:
						l := v
						known, logged, pending = keepEqual || clears, v, nil
						if keepEqual {
							pending = &l
						}
					}
				case h.Fault != nil:
				default:
					known = false
				}
			}
		}
	}
	return out
}

// hostRuns are the runs of host actions of a script in which no pre-step
// runs: each response's, each tool call's and each pre-step's.
func hostRuns(sc *Script) [][]HostAction {
	var out [][]HostAction
	for _, r := range sc.Responses {
		out = append(out, r.During)
		for _, c := range r.Calls {
			out = append(out, c.During)
		}
	}
	for _, p := range sc.PreSteps {
		out = append(out, p.During)
	}
	return out
}
