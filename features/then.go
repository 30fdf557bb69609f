package features

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cucumber/godog"
	"github.com/plankit/plankit/attribution"
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
	sc.Step(re(`^get reports (active|inactive) with no pending selection$`), w.getNone)
	sc.Step(re(`^get reports (active|inactive) with (active|inactive) pending$`), w.getPending)
	sc.Step(re(`^get of "([^"]*)" reports (active|inactive) with no pending selection$`), w.getOfNone)
	sc.Step(re(`^the log folds to (active|inactive)$`), w.logFolds)
	sc.Step(re(`^the log of "([^"]*)" folds to (active|inactive)$`), w.logOfFolds)
	sc.Step(re(`^the request shows plan mode (active|inactive)$`), w.requestShows)
	sc.Step(re(`^the request renders the plan:policy section with exactly the configured text at order 50$`), w.sectionExact)
	sc.Step(re(`^the request has no plan:policy section$`), w.noSection)
	sc.Step(re(`^the request's tools are "([^"]*)"$`), w.requestTools)
	sc.Step(re(`^the request's tool catalog is the same as the previous request's$`), w.sameCatalog)
	sc.Step(re(`^the step carries (no|one|two) plan-mode notices?$`), w.notices)
	sc.Step(re(`^the plan-mode notice is among the request's messages$`), w.noticeInRequest)
	sc.Step(re(`^the request's messages carry no plan/mode event$`), w.transcriptClean)
	sc.Step(re(`^the step logs the user message "([^"]*)"$`), w.logsUserMessage)
	sc.Step(re(`^no step or turn is started$`), w.nothingStarted)
	sc.Step(re(`^the step is accepted and its request is sent$`), w.stepSent)
	sc.Step(re(`^the step ends the turn without a request$`), w.stepBlocked)
	sc.Step(re(`^the plugin called the downstream listeners before appending$`), w.downstreamFirst)
	sc.Step(re(`^the plugin's listener is registered with prepend$`), w.prepended)
	sc.Step(re(`^the plugin saw the message "([^"]*)" in the downstream decision$`), w.sawMessage)
	sc.Step(re(`^the plugin's listener (ran|did not run) for the step$`), w.listenerRan)
	sc.Step(re(`^the plugin passed the downstream decision through$`), w.decisionPassed)
	sc.Step(re(`^the plugin appended only plan/mode events$`), w.onlyPlanAppends)
	sc.Step(re(`^exit_plan_mode succeeds with \{"approved": true\}$`), w.exitApproved)
	sc.Step(re(`^exit_plan_mode fails$`), w.exitFails)
	sc.Step(re(`^call (\d+) of the batch (succeeds with \{"approved": true\}|fails|fails without being presented)$`), w.batchCall)
	sc.Step(re(`^the plan is presented for review (\d+) times$`), w.presentedTimes)
	sc.Step(re(`^exit_plan_mode fails carrying the feedback "([^"]*)"$`), w.exitFailsFeedback)
	sc.Step(re(`^exit_plan_mode is unknown to the runtime$`), w.exitUnknown)
	sc.Step(re(`^the plan is presented for review exactly once, carrying "([^"]*)"$`), w.presented)
	sc.Step(re(`^the plan is not presented for review$`), w.notPresented)
	sc.Step(re(`^plan mode loads$`), w.loads)
	sc.Step(re(`^plan mode refuses to load$`), w.refuses)
	sc.Step(re(`^the plugin registers the exit_plan_mode tool, the plan:policy section and the prepended pre-step listener$`), w.registersAll)
	sc.Step(re(`^/plan is (registered|not registered)$`), w.commandRegistered)
	sc.Step(re(`^the command (succeeds|fails|is unknown)$`), w.commandResult)
	sc.Step(re(`^the reply announces (committed|queued|cancelled|noop)$`), w.commandAnnounces)
	sc.Step(re(`^the command steers "([^"]*)"$`), w.commandSteers)
	sc.Step(re(`^the command steers nothing$`), func() error { return w.commandSteers("") })
	sc.Step(re(`^foldPlanMode returns (active|inactive)$`), w.foldReturns)
	sc.Step(re(`^foldPlanMode reports an error$`), w.foldErrors)
	sc.Step(re(`^the log has no plan/mode event$`), w.logClean)
}

func (w *world) setReturns(want string) error {
	if w.last.Action.Set == nil {
		return fmt.Errorf("the last action was %s, not a selection", w.last.Action.Name())
	}
	if w.last.Outcome != want {
		return fmt.Errorf("set returned %q (error %q), want %q", w.last.Outcome, w.last.Error, want)
	}
	return nil
}

func (w *world) setErrors() error {
	if w.last.Action.Set == nil {
		return fmt.Errorf("the last action was %s, not set", w.last.Action.Name())
	}
	if w.last.Error == "" {
		return fmt.Errorf("set returned %q without an error, want an error", w.last.Outcome)
	}
	return nil
}

func (w *world) noPlanEvent() error {
	if es := w.planEvents(mainAgent); len(es) > 0 {
		return fmt.Errorf("%s appended %s, want no plan/mode event", w.last.Action.Name(), describeEvents(es))
	}
	return nil
}

func (w *world) planAppended(s string) error {
	es := w.planEvents(mainAgent)
	if len(es) != 1 {
		return fmt.Errorf("%s appended plan/mode events: %s; want exactly one, %s", w.last.Action.Name(), describeEvents(es), s)
	}
	if v, ok := sim.PlanModeOf(es[0]); !ok || state(v) != s {
		return fmt.Errorf("%s appended %s, want plan/mode {active: %v}", w.last.Action.Name(), describeEvents(es), s == "active")
	}
	return nil
}

func (w *world) planBeforeHeader(s string) error {
	if err := w.planAppended(s); err != nil {
		return err
	}
	types := appendedTypes(w.last, mainAgent)
	p, h := slices.Index(types, spec.TypePlanMode), slices.Index(types, spec.TypeRequestHeader)
	if h < 0 {
		return fmt.Errorf("the step logged no request header (appended %v)", types)
	}
	if p > h {
		return fmt.Errorf("plan/mode was appended after the request header (appended %v)", types)
	}
	return nil
}

func (w *world) planData(v string) error {
	es := w.planEvents(mainAgent)
	if len(es) != 1 {
		return fmt.Errorf("%s appended plan/mode events: %s; want exactly one", w.last.Action.Name(), describeEvents(es))
	}
	want := fmt.Sprintf(`{"active":%s}`, v)
	if string(sim.Canonical(es[0].Data)) != want {
		return fmt.Errorf("plan/mode data is %s, want exactly %s", es[0].Data, want)
	}
	return nil
}

func (w *world) nextStepAppends(s string) error {
	if err := w.step("accepted"); err != nil {
		return err
	}
	if err := w.planBeforeHeader(s); err != nil {
		return err
	}
	return w.requestShows(s)
}

func (w *world) nextStepAppendsNothing() error {
	if err := w.step("accepted"); err != nil {
		return err
	}
	if err := w.stepSent(); err != nil {
		return err
	}
	return w.noPlanEvent()
}

func (w *world) getNone(s string) error { return w.getOfNone(mainAgent, s) }

func (w *world) getOfNone(agent, s string) error {
	g, err := w.get(agent)
	if err != nil {
		return err
	}
	if state(g.Active) != s || g.Pending != nil {
		return fmt.Errorf("get(%s) reports %s, want %s with no pending selection", agent, describeGet(g), s)
	}
	return nil
}

func (w *world) getPending(s, p string) error {
	g, err := w.get(mainAgent)
	if err != nil {
		return err
	}
	if state(g.Active) != s || g.Pending == nil || state(*g.Pending) != p {
		return fmt.Errorf("get reports %s, want %s with %s pending", describeGet(g), s, p)
	}
	return nil
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

func (w *world) requestShows(s string) error {
	if s == "active" {
		return w.sectionExact()
	}
	return w.noSection()
}

func (w *world) sectionExact() error {
	q, err := w.lastRequest()
	if err != nil {
		return err
	}
	sec, ok := q.Section(spec.SectionName)
	if !ok {
		return fmt.Errorf("the request has no plan:policy section (sections %s), want it while plan mode is active", sectionsOf(q))
	}
	if sec.Text != w.section || sec.Order != spec.SectionOrder {
		return fmt.Errorf("the request renders plan:policy at order %d with text %q, want order 50 and exactly %q", sec.Order, sec.Text, w.section)
	}
	return nil
}

func (w *world) noSection() error {
	q, err := w.lastRequest()
	if err != nil {
		return err
	}
	if sec, ok := q.Section(spec.SectionName); ok {
		return fmt.Errorf("the request renders plan:policy (%q at order %d) while plan mode is inactive", sec.Text, sec.Order)
	}
	return nil
}

func (w *world) requestTools(list string) error {
	q, err := w.lastRequest()
	if err != nil {
		return err
	}
	want := []string{}
	if list != "" {
		want = strings.Split(list, ",")
	}
	if got := toolNames(q.Tools); !slices.Equal(got, want) {
		return fmt.Errorf("the request's tools are %v, want %v", got, want)
	}
	return nil
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

func (w *world) notices(n string) error {
	got := w.last.Notices(mainAgent)
	if len(got) != counts[n] {
		texts := make([]string, len(got))
		for i, m := range got {
			texts[i] = m.Text
		}
		return fmt.Errorf("%s logged %d plan-mode notice(s) %q, want %d", w.last.Action.Name(), len(got), texts, counts[n])
	}
	return nil
}

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
	for _, a := range w.last.Appended {
		if a.Agent != mainAgent || a.Event.Type != spec.TypeUserMessage {
			continue
		}
		m, err := sim.MessageOf(a.Event.Data)
		if err == nil && m.Text == text && m.Source.Kind == "user" {
			return nil
		}
	}
	return fmt.Errorf("%s logged no user message %q (appended %v)", w.last.Action.Name(), text, appendedTypes(w.last, mainAgent))
}

func (w *world) nothingStarted() error {
	for _, t := range appendedTypes(w.last, mainAgent) {
		if t == spec.TypeStepStart || t == spec.TypeTurnStart {
			return fmt.Errorf("%s started a step or turn (appended %v)", w.last.Action.Name(), appendedTypes(w.last, mainAgent))
		}
	}
	return nil
}

func (w *world) stepSent() error {
	if w.last.Decision != sim.Accept || len(w.last.Requests) != 1 {
		return fmt.Errorf("the step's decision is %q with %d request(s), want accepted with its request sent", w.last.Decision, len(w.last.Requests))
	}
	return nil
}

func (w *world) stepBlocked() error {
	if w.last.Decision == sim.Accept || len(w.last.Requests) != 0 {
		return fmt.Errorf("the step's decision is %q with %d request(s), want it to end the turn without a request", w.last.Decision, len(w.last.Requests))
	}
	return nil
}

func (w *world) downstreamFirst() error {
	down, app := -1, -1
	for i, e := range w.last.Effects {
		if e.Effect.Kind == sim.EffectDownstream && down < 0 {
			down = i
		}
		if e.Effect.Kind == sim.EffectAppend && e.Effect.Type == spec.TypePlanMode && app < 0 {
			app = i
		}
	}
	if down < 0 {
		return fmt.Errorf("the plugin never called the downstream listeners")
	}
	if app < 0 {
		return fmt.Errorf("the plugin appended no plan/mode event")
	}
	if app < down {
		return fmt.Errorf("the plugin appended plan/mode before calling the downstream listeners")
	}
	return nil
}

func (w *world) prepended() error {
	if _, err := w.runtime(); err != nil {
		return err
	}
	if l := w.rt.Registration().Listener; l != sim.Prepend {
		return fmt.Errorf("the plugin registered its pre-step listener with %q, want prepend", l)
	}
	return nil
}

func (w *world) sawMessage(text string) error {
	if w.last.PreStep == nil {
		return fmt.Errorf("the plugin's listener did not run for the step")
	}
	for _, m := range w.last.PreStep.Downstream.Messages {
		if m.Text == text {
			return nil
		}
	}
	return fmt.Errorf("the plugin's listener saw the downstream decision %s without the message %q: it did not wrap every other listener", sim.JSON(w.last.PreStep.Downstream), text)
}

func (w *world) listenerRan(ran string) error {
	if (w.last.PreStep != nil) != (ran == "ran") {
		return fmt.Errorf("the plugin's listener ran: %v, want %s", w.last.PreStep != nil, ran)
	}
	return nil
}

func (w *world) decisionPassed() error {
	p := w.last.PreStep
	if p == nil {
		return fmt.Errorf("the plugin's listener did not run for the step")
	}
	if p.Decision.Kind != p.Downstream.Kind {
		return fmt.Errorf("the downstream decided %q but the plugin returned %q", p.Downstream.Kind, p.Decision.Kind)
	}
	var extra []sim.Message
	for _, m := range p.Decision.Messages {
		if !slices.Contains(p.Downstream.Messages, m) && !m.IsPlanNotice() {
			extra = append(extra, m)
		}
	}
	if len(extra) > 0 {
		return fmt.Errorf("the plugin added messages that are not notices: %s", sim.JSON(extra))
	}
	return nil
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

func (w *world) exitApproved() error {
	t, err := w.lastTool()
	if err != nil {
		return err
	}
	if !t.OK || string(sim.Canonical(t.Result)) != `{"approved":true}` {
		return fmt.Errorf("exit_plan_mode returned ok=%v result %s error %q, want {\"approved\":true}", t.OK, t.Result, t.Error)
	}
	return nil
}

func (w *world) exitFails() error {
	t, err := w.lastTool()
	if err != nil {
		return err
	}
	if t.OK {
		return fmt.Errorf("exit_plan_mode succeeded with %s, want it to fail", t.Result)
	}
	if t.Error == "" {
		return fmt.Errorf("exit_plan_mode failed without saying why")
	}
	return nil
}

// batchCall checks the outcome of the n-th exit_plan_mode call (from 1) of
// the last action's tool batch.
func (w *world) batchCall(n int, outcome string) error {
	if n < 1 || n > len(w.last.Tools) {
		return fmt.Errorf("the last action ran %d tool calls, so there is no call %d", len(w.last.Tools), n)
	}
	t := w.last.Tools[n-1]
	switch outcome {
	case "fails", "fails without being presented":
		if t.OK || t.Error == "" {
			return fmt.Errorf("call %d of the batch returned ok=%v result %s error %q, want it to fail saying why", n, t.OK, t.Result, t.Error)
		}
		if outcome != "fails" && t.Asked {
			return fmt.Errorf("call %d of the batch presented the plan for review, want it to fail before", n)
		}
	default:
		if !t.OK || string(sim.Canonical(t.Result)) != `{"approved":true}` {
			return fmt.Errorf("call %d of the batch returned ok=%v result %s error %q, want {\"approved\":true}", n, t.OK, t.Result, t.Error)
		}
	}
	return nil
}

func (w *world) presentedTimes(n int) error {
	asks := 0
	for _, e := range w.last.Effects {
		if e.Effect.Kind == sim.EffectAsk {
			asks++
		}
	}
	if asks != n {
		return fmt.Errorf("the plan was presented for review %d times, want %d", asks, n)
	}
	return nil
}

func (w *world) exitFailsFeedback(fb string) error {
	if err := w.exitFails(); err != nil {
		return err
	}
	t, _ := w.lastTool()
	if !strings.Contains(t.Error, fb) {
		return fmt.Errorf("exit_plan_mode failed with %q, which does not carry the feedback %q", t.Error, fb)
	}
	return nil
}

func (w *world) exitUnknown() error {
	t, err := w.lastTool()
	if err != nil {
		return err
	}
	if t.OK || t.Asked {
		return fmt.Errorf("exit_plan_mode ran (ok=%v) without the plan-mode package", t.OK)
	}
	return nil
}

func (w *world) presented(plan string) error {
	var asks []sim.Effect
	for _, e := range w.last.Effects {
		if e.Effect.Kind == sim.EffectAsk {
			asks = append(asks, e.Effect)
		}
	}
	if len(asks) != 1 {
		return fmt.Errorf("the plan was presented for review %d times, want once", len(asks))
	}
	if !strings.Contains(string(asks[0].Question), string(sim.JSON(unescape(plan)))[1:len(sim.JSON(unescape(plan)))-1]) {
		return fmt.Errorf("the review question %s does not carry the plan %q", asks[0].Question, plan)
	}
	return nil
}

func (w *world) notPresented() error {
	for _, e := range w.last.Effects {
		if e.Effect.Kind == sim.EffectAsk {
			return fmt.Errorf("the plan was presented for review: %s", e.Effect.Question)
		}
	}
	return nil
}

func (w *world) loads() error {
	if _, err := w.runtime(); err != nil {
		return err
	}
	if w.load.Error != "" {
		return fmt.Errorf("plan mode refused to load: %s", w.load.Error)
	}
	return nil
}

func (w *world) refuses() error {
	if _, err := w.runtime(); err != nil {
		return err
	}
	if w.load.Error == "" {
		return fmt.Errorf("plan mode loaded with config %s, want it refused", w.opts.Config)
	}
	return nil
}

func (w *world) registersAll() error {
	if err := w.loads(); err != nil {
		return err
	}
	reg := w.rt.Registration()
	switch {
	case !containsTool(reg.Tools, spec.ExitTool):
		return fmt.Errorf("the plugin registered tools %v, want exit_plan_mode", toolNames(reg.Tools))
	case !slices.Contains(reg.Sections, spec.SectionName):
		return fmt.Errorf("the plugin registered sections %v, want plan:policy", reg.Sections)
	case reg.Listener != sim.Prepend:
		return &observedError{attribution.ObsListener, fmt.Errorf("the plugin registered its pre-step listener with %q, want prepend", reg.Listener)}
	}
	return nil
}

func (w *world) commandRegistered(want string) error {
	if _, err := w.runtime(); err != nil {
		return err
	}
	has := slices.Contains(w.rt.Registration().Commands, spec.Command)
	if has != (want == "registered") {
		return fmt.Errorf("the plugin registered commands %v; /plan %s is wanted", w.rt.Registration().Commands, want)
	}
	return nil
}

func (w *world) commandResult(want string) error {
	c := w.last.Command
	if c == nil {
		return fmt.Errorf("the last action was %s, not a command", w.last.Action.Name())
	}
	switch want {
	case "succeeds":
		if !c.Registered || c.Kind != "success" {
			return fmt.Errorf("the command returned %s %q (registered %v), want success", c.Kind, c.Text, c.Registered)
		}
	case "fails":
		if !c.Registered || c.Kind != "error" {
			return fmt.Errorf("the command returned %s %q (registered %v), want an error", c.Kind, c.Text, c.Registered)
		}
	case "is unknown":
		if c.Registered {
			return fmt.Errorf("the command ran (%s %q), want it unknown", c.Kind, c.Text)
		}
	}
	return nil
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
	if c.Outcome != want {
		return fmt.Errorf("the reply %q announces %s, want %s", c.Text, orNothing(c.Outcome), want)
	}
	return nil
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
	if got := trace.Steered(w.last); !slices.Equal(got, want) {
		return fmt.Errorf("the command steered %q, want %q", got, want)
	}
	return nil
}

func orNothing(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}

func (w *world) foldReturns(s string) error {
	if w.last.Fold == nil {
		return fmt.Errorf("foldPlanMode returned no value (error %q)", w.last.Error)
	}
	if got := state(*w.last.Fold); got != s {
		return fmt.Errorf("foldPlanMode returned %s, want %s", got, s)
	}
	return nil
}

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
	if w.last.Error == "" {
		return fmt.Errorf("foldPlanMode returned %v, want an error", w.last.Fold != nil && *w.last.Fold)
	}
	return nil
}
