package features

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/internal/third_party/godog"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

// registerThen binds the steps that assert an outcome.
func (w *world) registerThen(sc *godog.ScenarioContext) {
	sc.Step(re(`^set returns "(committed|queued|cancelled|noop)"$`), w.setReturns)
	sc.Step(re(`^set reports an error$`), w.setErrors)
	sc.Step(re(`^no plan/mode event is appended$`), w.noPlanEvent)
	sc.Step(re(`^plan/mode (active|inactive) is appended$`), w.planAppended)
	sc.Step(re(`^plan/mode (active|inactive) is appended before the request header$`), w.planBeforeHeader)
	sc.Step(re(`^exactly one plan/mode event is appended, with data exactly \{"active": (true|false)\}$`), w.planData)
	sc.Step(re(`^the next accepted step appends plan/mode (active|inactive) before the request header$`), w.nextStepAppends)
	sc.Step(re(`^the next accepted step appends no plan/mode event$`), w.nextStepAppendsNothing)
	sc.Step(re(`^get reports (active|inactive) with no pending selection$`), observes1(attribution.ObsGet, w.getNone))
	sc.Step(re(`^get reports (active|inactive) with (active|inactive) pending$`), observes2(attribution.ObsGet, w.getPending))
	sc.Step(re(`^get of "([^"]*)" reports (active|inactive) with no pending selection$`), observes2(attribution.ObsGet, w.getOfNone))
	sc.Step(re(`^the log folds to (active|inactive)$`), observes1(attribution.ObsFold, w.logFolds))
	sc.Step(re(`^the log of "([^"]*)" folds to (active|inactive)$`), observes2(attribution.ObsFold, w.logOfFolds))
	sc.Step(re(`^the request shows plan mode (active|inactive)$`), observes1(attribution.ObsRequest, w.requestShows))
	sc.Step(re(`^the request renders the plan:policy section with exactly the configured text at order 50$`), observes0(attribution.ObsRequest, w.sectionExact))
	sc.Step(re(`^the request has no plan:policy section$`), observes0(attribution.ObsRequest, w.noSection))
	sc.Step(re(`^the request's tools are "([^"]*)"$`), w.requestTools)
	sc.Step(re(`^the request's tool catalog is the same as the previous request's$`), w.sameCatalog)
	sc.Step(re(`^the step carries (no|one|two) plan-mode notices?$`), observes1(attribution.ObsNotices, w.notices))
	sc.Step(re(`^the plan-mode notice is among the request's messages$`), w.noticeInRequest)
	sc.Step(re(`^the request's messages carry no plan/mode event$`), w.transcriptClean)
	sc.Step(re(`^the step logs the user message "([^"]*)"$`), w.logsUserMessage)
	sc.Step(re(`^no step or turn is started$`), w.nothingStarted)
	sc.Step(re(`^the step is accepted and its request is sent$`), w.stepSent)
	sc.Step(re(`^the step ends the turn without a request$`), w.stepBlocked)
	sc.Step(re(`^the plugin called the downstream listeners before appending$`), w.downstreamFirst)
	sc.Step(re(`^the plugin's listener is registered with prepend$`), observes0(attribution.ObsListener, w.prepended))
	sc.Step(re(`^the plugin saw the message "([^"]*)" in the downstream decision$`), observes1(attribution.ObsListener, w.sawMessage))
	sc.Step(re(`^the plugin's listener (ran|did not run) for the step$`), w.listenerRan)
	sc.Step(re(`^the plugin passed the downstream decision through$`), w.decisionPassed)
	sc.Step(re(`^the plugin appended only plan/mode events$`), w.onlyPlanAppends)
	sc.Step(re(`^exit_plan_mode succeeds with \{"approved": true\}$`), observes0(attribution.ObsTool, seam0(w, w.exitApproved)))
	sc.Step(re(`^exit_plan_mode fails$`), observes0(attribution.ObsTool, seam0(w, w.exitFails)))
	sc.Step(re(`^call (\d+) of the batch (succeeds with \{"approved": true\}|fails|fails without being presented)$`), observes2(attribution.ObsTool, seam2(w, w.batchCall)))
	sc.Step(re(`^the plan is presented for review (\d+) times$`), observes1(attribution.ObsTool, seam1(w, w.presentedTimes)))
	sc.Step(re(`^exit_plan_mode fails carrying the feedback "([^"]*)"$`), observes1(attribution.ObsTool, seam1(w, w.exitFailsFeedback)))
	sc.Step(re(`^exit_plan_mode is unknown to the runtime$`), observes0(attribution.ObsTool, w.exitUnknown))
	sc.Step(re(`^the plan is presented for review exactly once, carrying "([^"]*)"$`), observes1(attribution.ObsTool, seam1(w, w.presented)))
	sc.Step(re(`^the plan is not presented for review$`), observes0(attribution.ObsTool, w.notPresented))
	sc.Step(re(`^plan mode loads$`), w.loads)
	sc.Step(re(`^plan mode refuses to load$`), w.refuses)
	sc.Step(re(`^the plugin registers the exit_plan_mode tool, the plan:policy section and the prepended pre-step listener$`), w.registersAll)
	sc.Step(re(`^/plan is (registered|not registered)$`), w.commandRegistered)
	sc.Step(re(`^the command (succeeds|fails|is unknown)$`), w.commandResult)
	sc.Step(re(`^the reply announces (committed|queued|cancelled|noop)$`), observes1(attribution.ObsReply, w.commandAnnounces))
	sc.Step(re(`^the command steers "([^"]*)"$`), w.commandSteers)
	sc.Step(re(`^the command steers nothing$`), func() error { return w.commandSteers("") })
	sc.Step(re(`^foldPlanMode returns (active|inactive)$`), observes1(attribution.ObsFold, w.foldReturns))
	sc.Step(re(`^foldPlanMode reports an error$`), observes0(attribution.ObsFold, w.foldErrors))
	sc.Step(re(`^the log has no plan/mode event$`), w.logClean)
}

// expect checks the last action's result with trace.Expect, the trace
// format's expectation: a scenario and a trace report a failed
// expectation in the same words.
func (w *world) expect(x trace.Expect) error { return expectOf(w.last, x) }

func expectOf(r sim.Result, x trace.Expect) error {
	if fs := x.Check(mainAgent, r); len(fs) > 0 {
		return errors.New(strings.Join(fs, "; "))
	}
	return nil
}

func (w *world) setReturns(want string) error {
	if w.last.Action.Set == nil {
		return fmt.Errorf("the last action was %s, not a selection", w.last.Action.Name())
	}
	return w.expect(trace.Expect{Outcome: want})
}

func (w *world) setErrors() error {
	if w.last.Action.Set == nil {
		return fmt.Errorf("the last action was %s, not set", w.last.Action.Name())
	}
	return w.expect(trace.Expect{Error: ptr(true)})
}

func (w *world) noPlanEvent() error { return w.expect(trace.Expect{PlanMode: []bool{}}) }

// planAppended expects exactly one plan/mode event, its data exactly
// {"active": s}.
func (w *world) planAppended(s string) error {
	return w.expect(trace.Expect{PlanMode: []bool{s == "active"}})
}

func (w *world) planBeforeHeader(s string) error {
	return w.expect(trace.Expect{PlanMode: []bool{s == "active"}, Order: []string{spec.TypePlanMode, spec.TypeRequestHeader}})
}

func (w *world) planData(v string) error { return w.planAppended(state(v == "true")) }

func (w *world) nextStepAppends(s string) error {
	if err := w.step("accepted"); err != nil {
		return err
	}
	x := requestShows(s, w.section)
	x.PlanMode, x.Order = []bool{s == "active"}, []string{spec.TypePlanMode, spec.TypeRequestHeader}
	return w.expect(x)
}

func (w *world) nextStepAppendsNothing() error {
	if err := w.step("accepted"); err != nil {
		return err
	}
	return w.expect(trace.Expect{Decision: sim.Accept, Requests: ptr(1), PlanMode: []bool{}})
}

func (w *world) getNone(s string) error { return w.getOfNone(mainAgent, s) }

func (w *world) getOfNone(agent, s string) error { return w.getIs(agent, s, `"none"`) }

func (w *world) getPending(s, p string) error {
	return w.getIs(mainAgent, s, strconv.FormatBool(p == "active"))
}

// getIs asks get(agent) now and expects active s with pending as the trace
// format writes it: true, false or "none".
func (w *world) getIs(agent, s, pending string) error {
	g, err := w.get(agent)
	if err != nil {
		return err
	}
	err = w.expect(trace.Expect{Agent: agent, State: &trace.StateExpect{Active: ptr(s == "active"), Pending: json.RawMessage(pending)}})
	if err != nil && g.Active != (s == "active") && pending == strconv.FormatBool(g.Active) && w.logFold(agent) == (s == "active") {
		// get reports the pending selection as active while the log still
		// holds the other state: PEND-7, "active is the logged state".
		return rowError{attribution.RowGetActivePending, err}
	}
	return err
}

func (w *world) logFolds(s string) error { return w.logOfFolds(mainAgent, s) }

func (w *world) logOfFolds(agent, s string) error {
	if _, err := w.runtime(); err != nil {
		return err
	}
	if got := state(w.logFold(agent)); got != s {
		return fmt.Errorf("the log of %s folds to %s, want %s", agent, got, s)
	}
	return nil
}

// requestShows is what the last request shows while plan mode is s: the
// plan:policy section with exactly the configured text, or none.
func requestShows(s, section string) trace.Expect {
	if s == "active" {
		return trace.Expect{SectionText: &section}
	}
	return trace.Expect{Section: ptr(false)}
}

func (w *world) requestShows(s string) error { return w.expect(requestShows(s, w.section)) }

func (w *world) sectionExact() error { return w.requestShows("active") }

func (w *world) noSection() error { return w.requestShows("inactive") }

func (w *world) requestTools(list string) error {
	want := []string{}
	if list != "" {
		want = strings.Split(list, ",")
	}
	return w.expect(trace.Expect{Tools: want})
}

func (w *world) sameCatalog() error {
	var reqs []sim.Request
	for _, r := range w.history {
		for _, q := range r.Requests {
			if q.Agent == mainAgent {
				reqs = append(reqs, q)
			}
		}
	}
	if len(reqs) < 2 {
		return fmt.Errorf("want two requests to compare, have %d", len(reqs))
	}
	a, b := toolNames(reqs[len(reqs)-2].Tools), toolNames(reqs[len(reqs)-1].Tools)
	if !slices.Equal(a, b) {
		return fmt.Errorf("the tool catalog changed from %v to %v", a, b)
	}
	return nil
}

var counts = map[string]int{"no": 0, "one": 1, "two": 2}

func (w *world) notices(n string) error { return w.expect(trace.Expect{Notices: ptr(counts[n])}) }

func (w *world) noticeInRequest() error {
	q, err := w.lastRequest()
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(q.Messages, sim.Message.IsPlanNotice) {
		return fmt.Errorf("the request's messages %v carry no plan-mode notice", q.Messages)
	}
	return nil
}

func (w *world) transcriptClean() error {
	q, err := w.lastRequest()
	if err != nil {
		return err
	}
	for _, m := range q.Messages {
		if strings.Contains(string(sim.JSON(m)), spec.TypePlanMode) {
			return fmt.Errorf("a request message carries plan/mode: %s", sim.JSON(m))
		}
	}
	for _, a := range w.last.Appended {
		if a.Event.Type != spec.TypeUserMessage {
			continue
		}
		if strings.Contains(string(a.Event.Data), `"`+spec.TypePlanMode+`"`) {
			return fmt.Errorf("a logged user message carries plan/mode: %s", a.Event.Data)
		}
	}
	return nil
}

func (w *world) logsUserMessage(text string) error {
	return w.expect(trace.Expect{UserMessages: []string{text}})
}

func (w *world) nothingStarted() error { return w.expect(trace.Expect{Started: ptr(false)}) }

func (w *world) stepSent() error {
	return w.expect(trace.Expect{Decision: sim.Accept, Requests: ptr(1)})
}

// stepBlocked expects the step rejected or aborted: no request sent.
func (w *world) stepBlocked() error {
	if w.last.Decision == sim.Accept {
		return fmt.Errorf("decision: expected %s or %s, got %s", sim.Reject, sim.Abort, sim.Accept)
	}
	return w.expect(trace.Expect{Requests: ptr(0)})
}

func (w *world) downstreamFirst() error {
	return w.expect(trace.Expect{Listener: &trace.ListenerExpect{DownstreamFirst: ptr(true)}})
}

func (w *world) prepended() error {
	return w.registered(trace.RegisteredExpect{Listener: sim.Prepend})
}

// registered checks the plugin's registration now: at its load, or its
// last reload.
func (w *world) registered(x trace.RegisteredExpect) error {
	if _, err := w.runtime(); err != nil {
		return err
	}
	reg := w.rt.Registration()
	return expectOf(sim.Result{Load: &reg}, trace.Expect{Registered: &x})
}

// sawMessage expects the message in the downstream decision the plugin's
// listener saw: it wraps every other listener.
func (w *world) sawMessage(text string) error {
	return w.expect(trace.Expect{Listener: &trace.ListenerExpect{Saw: []string{text}}})
}

func (w *world) listenerRan(ran string) error {
	return w.expect(trace.Expect{Listener: &trace.ListenerExpect{Ran: ptr(ran == "ran")}})
}

func (w *world) decisionPassed() error {
	return w.expect(trace.Expect{Listener: &trace.ListenerExpect{Passed: ptr(true)}})
}

func (w *world) onlyPlanAppends() error {
	for _, r := range w.history {
		for _, a := range r.Appended {
			if a.ByPlugin && a.Event.Type != spec.TypePlanMode {
				return fmt.Errorf("the plugin appended %s %s", a.Event.Type, a.Event.Data)
			}
		}
	}
	return nil
}

func (w *world) exitApproved() error { return w.batchCall(0, "succeeds") }

func (w *world) exitFails() error { return w.batchCall(0, "fails") }

// batchCall checks the outcome of the n-th exit_plan_mode call (from 1, 0
// for the last) of the last action's tool batch. A failure must say why.
func (w *world) batchCall(n int, outcome string) error {
	x := &trace.ToolExpect{Call: n, OK: ptr(false)}
	switch outcome {
	case "succeeds", `succeeds with {"approved": true}`:
		x.OK, x.Approved = ptr(true), ptr(true)
	case "fails without being presented":
		x.Asked = ptr(false)
	}
	if err := w.expect(trace.Expect{Tool: x}); err != nil || *x.OK {
		return err
	}
	if n == 0 {
		n = len(w.last.Tools)
	}
	if w.last.Tools[n-1].Error == "" {
		return fmt.Errorf("tool.error: expected a failure saying why, got an empty error")
	}
	return nil
}

func (w *world) presentedTimes(n int) error { return w.expect(trace.Expect{Reviews: &n}) }

func (w *world) exitFailsFeedback(fb string) error {
	if err := w.exitFails(); err != nil {
		return err
	}
	return w.expect(trace.Expect{Tool: &trace.ToolExpect{Feedback: fb}})
}

func (w *world) exitUnknown() error {
	return w.expect(trace.Expect{Tool: &trace.ToolExpect{OK: ptr(false), Asked: ptr(false)}})
}

func (w *world) presented(plan string) error {
	if err := w.expect(trace.Expect{Reviews: ptr(1)}); err != nil {
		return err
	}
	for _, e := range w.last.Effects {
		if e.Effect.Kind == sim.EffectAsk && !strings.Contains(string(e.Effect.Question), string(sim.JSON(unescape(plan)))[1:len(sim.JSON(unescape(plan)))-1]) {
			return fmt.Errorf("the review question %s does not carry the plan %q", e.Effect.Question, plan)
		}
	}
	return nil
}

func (w *world) notPresented() error { return w.expect(trace.Expect{Reviews: ptr(0)}) }

func (w *world) loads() error { return w.loadIs(false) }

func (w *world) refuses() error { return w.loadIs(true) }

// loadIs expects the load to have been refused (an error) or not.
func (w *world) loadIs(refused bool) error {
	if _, err := w.runtime(); err != nil {
		return err
	}
	return expectOf(w.load, trace.Expect{Error: &refused})
}

func (w *world) registersAll() error {
	if err := w.loads(); err != nil {
		return err
	}
	if err := w.registered(trace.RegisteredExpect{Tools: []string{spec.ExitTool}, Sections: []string{spec.SectionName}}); err != nil {
		return err
	}
	if err := w.prepended(); err != nil {
		return &observedError{attribution.ObsListener, err}
	}
	return nil
}

func (w *world) commandRegistered(want string) error {
	return w.registered(trace.RegisteredExpect{Command: ptr(want == "registered")})
}

func (w *world) commandResult(want string) error {
	x := &trace.CommandExpect{Registered: ptr(want != "is unknown")}
	switch want {
	case "succeeds":
		x.Kind = "success"
	case "fails":
		x.Kind = "error"
	}
	return w.expect(trace.Expect{Command: x})
}

// commandAnnounces checks what the last command's reply means: the
// selection outcome it announces, whatever its wording.
func (w *world) commandAnnounces(want string) error {
	c := w.last.Command
	if c == nil {
		return fmt.Errorf("the last action was %s, not a command", w.last.Action.Name())
	}
	if !c.Reported {
		return w.fail(fmt.Errorf("%w: the implementation does not report which outcome a command reply announces", sim.ErrUnsupported))
	}
	return w.expect(trace.Expect{Command: &trace.CommandExpect{Outcome: want}})
}

// commandSteers checks the messages the last command steered: exactly the
// one given, or none for "".
func (w *world) commandSteers(text string) error {
	if w.last.Command == nil {
		return fmt.Errorf("the last action was %s, not a command", w.last.Action.Name())
	}
	want := []string{}
	if text != "" {
		want = append(want, text)
	}
	return w.expect(trace.Expect{Command: &trace.CommandExpect{Steered: want}})
}

func (w *world) foldReturns(s string) error { return w.expect(trace.Expect{Fold: ptr(s == "active")}) }

func (w *world) logClean() error {
	for _, n := range w.rt.Agents() {
		for _, e := range w.rt.Log(n) {
			if e.Type == spec.TypePlanMode {
				return fmt.Errorf("the log of %s holds %s %s", n, e.Type, e.Data)
			}
		}
	}
	return nil
}

func (w *world) foldErrors() error {
	if w.last.Action.Fold == nil {
		return fmt.Errorf("the last action was %s, not a fold", w.last.Action.Name())
	}
	return w.expect(trace.Expect{Error: ptr(true)})
}

func ptr[T any](v T) *T { return &v }
