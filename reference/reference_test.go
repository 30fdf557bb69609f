package reference

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// harness drives the reference through the simulator, as every check does.
type harness struct {
	t  *testing.T
	rt *sim.Runtime
}

func newHarness(t *testing.T, opts Options, simOpts sim.Options) *harness {
	t.Helper()
	if simOpts.Config == nil {
		simOpts.Config = json.RawMessage(`{"section":"Plan first."}`)
	}
	if len(simOpts.Agents) == 0 {
		simOpts.Agents = []string{"main"}
	}
	rt, res, err := sim.New(NewPort(opts), simOpts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Error != "" {
		t.Fatalf("load: %s", res.Error)
	}
	return &harness{t: t, rt: rt}
}

func defaults(t *testing.T) *harness {
	return newHarness(t, Options{}, sim.Options{Services: sim.Services{Commands: true, UserQuestions: true}})
}

func (h *harness) do(a sim.Action) sim.Result {
	h.t.Helper()
	res, err := h.rt.Do(a)
	if err != nil {
		h.t.Fatalf("%s: %v", a, err)
	}
	return res
}

func (h *harness) set(active bool) sim.Result {
	h.t.Helper()
	return h.do(sim.Action{Set: &sim.SetAction{Agent: "main", Active: active}})
}

func (h *harness) prompt() sim.Result {
	h.t.Helper()
	return h.do(sim.Action{Prompt: &sim.TextAction{Agent: "main", Text: "go"}})
}

func (h *harness) step(mod ...func(*sim.StepAction)) sim.Result {
	h.t.Helper()
	s := &sim.StepAction{Agent: "main"}
	for _, m := range mod {
		m(s)
	}
	return h.do(sim.Action{Step: s})
}

func (h *harness) endTurn() sim.Result {
	h.t.Helper()
	return h.do(sim.Action{EndTurn: &sim.EndTurnAction{Agent: "main"}})
}

func (h *harness) get() sim.GetReply {
	h.t.Helper()
	res := h.do(sim.Action{Get: &sim.AgentAction{Agent: "main"}})
	g, _ := res.StateOf("main")
	return g
}

func (h *harness) exit(plan string, review sim.Review) sim.ToolOutcome {
	h.t.Helper()
	args, _ := json.Marshal(map[string]string{"plan": plan})
	res := h.step(func(s *sim.StepAction) {
		s.Model = &sim.Model{Calls: []sim.ToolCall{{Name: spec.ExitTool, Args: args, Review: &review}}}
	})
	return res.Tools[0]
}

func (h *harness) command(input string) sim.Result {
	h.t.Helper()
	return h.do(sim.Action{Command: &sim.CommandAction{Agent: "main", Input: input}})
}

func pending(g sim.GetReply) string {
	if g.Pending == nil {
		return "none"
	}
	return fmt.Sprint(*g.Pending)
}

func wantState(t *testing.T, g sim.GetReply, active bool, pend string) {
	t.Helper()
	if g.Active != active || pending(g) != pend {
		t.Fatalf("get() = active %v pending %s, want active %v pending %s", g.Active, pending(g), active, pend)
	}
}

func planEvents(t *testing.T, r sim.Result, want ...bool) {
	t.Helper()
	if got := r.PlanEvents("main"); fmt.Sprint(got) != fmt.Sprint(append([]bool{}, want...)) {
		t.Fatalf("plan/mode appended %v, want %v", got, want)
	}
}

func sectionShown(r sim.Result) bool {
	_, ok := r.Requests[len(r.Requests)-1].Section(spec.SectionName)
	return ok
}

// LOG-1: plan/mode data is exactly {active: boolean} and never reaches the
// model transcript.
func TestLOG1_PlanModeIsLogOnly(t *testing.T) {
	h := defaults(t)
	r := h.set(true)
	for _, a := range r.Appended {
		if a.Event.Type == spec.TypePlanMode && string(a.Event.Data) != `{"active":true}` {
			t.Fatalf("plan/mode data %s", a.Event.Data)
		}
	}
	h.prompt()
	step := h.step()
	for _, q := range step.Requests {
		for _, m := range q.Messages {
			if strings.Contains(m.Text, "plan/mode") {
				t.Fatalf("plan/mode reached the transcript: %q", m.Text)
			}
		}
	}
}

// LOG-2: the fold is the last plan/mode of the prefix, false when none;
// end is clamped (choice fold-end=clamp).
func TestLOG2_FoldLastValueOfPrefix(t *testing.T) {
	ev := func(typ string, active bool) sim.Event {
		return sim.Event{Type: typ, Data: sim.JSON(spec.PlanModeData{Active: active})}
	}
	events := []sim.Event{ev("turn/start", true), ev(spec.TypePlanMode, true), ev(spec.TypePlanMode, false), ev(spec.TypePlanMode, true)}
	cases := []struct {
		end  int
		want bool
	}{{0, false}, {1, false}, {2, true}, {3, false}, {4, true}, {99, true}, {-3, false}}
	for _, c := range cases {
		if got := FoldPlanMode(events, c.end); got != c.want {
			t.Errorf("FoldPlanMode(end=%d) = %v, want %v", c.end, got, c.want)
		}
	}
	if FoldPlanMode(nil, 0) {
		t.Error("empty log folds to true")
	}
	// A malformed plan/mode does not change the state.
	bad := append(events, sim.Event{Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":"no"}`)})
	if !FoldPlanMode(bad, len(bad)) {
		t.Error("malformed plan/mode changed the fold")
	}
}

// LOG-2, choice fold-end=error: an end outside the log is an error.
func TestLOG2_FoldEndErrorChoice(t *testing.T) {
	p := NewPort(Options{Choices: Choices{FoldEnd: "error"}})
	end := 5
	r, err := p.Fold(sim.FoldRequest{Events: nil, End: &end})
	if err != nil || r.Error == "" {
		t.Fatalf("want an implementation error, got %+v %v", r, err)
	}
}

// LOG-3: the incremental cache equals the plain folds at every prefix.
func TestLOG3_CacheEqualsPlainFold(t *testing.T) {
	h := defaults(t)
	h.set(true)
	h.prompt()
	h.step()
	h.set(false)
	h.step()
	h.exit("# P", sim.Review{Answer: sim.Approve})
	h.endTurn()
	h.set(true)
	events := h.rt.Log("main")
	s := &session{}
	for i, e := range events {
		s.add(e)
		prefix := events[:i+1]
		if s.active != FoldPlanMode(prefix, len(prefix)) {
			t.Fatalf("prefix %d: cached fold %v", i, s.active)
		}
		if s.open != openTurn(prefix) {
			t.Fatalf("prefix %d: cached open turn %v", i, s.open)
		}
		want := stateAtLastHeader(prefix)
		if (want == nil) != (s.header == nil) || (want != nil && *want != *s.header) {
			t.Fatalf("prefix %d: cached header state differs", i)
		}
	}
}

// LOG-3: resume, fork and compaction recover the state from the log alone.
func TestLOG3_RecoverFromLog(t *testing.T) {
	h := defaults(t)
	h.set(true)
	h.do(sim.Action{Restart: &struct{}{}})
	wantState(t, h.get(), true, "none")
	h.do(sim.Action{Fork: &sim.ForkAction{Agent: "main", As: "child"}})
	child := h.do(sim.Action{Get: &sim.AgentAction{Agent: "child"}})
	if g, _ := child.StateOf("child"); !g.Active {
		t.Fatal("fork lost the state")
	}
	h.do(sim.Action{Compact: &sim.AgentAction{Agent: "main"}})
	wantState(t, h.get(), true, "none")
}

// LOG-4: each committed change is exactly one plan/mode event.
func TestLOG4_OneEventPerCommittedChange(t *testing.T) {
	h := defaults(t)
	planEvents(t, h.set(true), true)
	planEvents(t, h.set(true))
	h.prompt()
	planEvents(t, h.set(false))
	planEvents(t, h.step(), false)
	planEvents(t, h.step())
}

// PEND-1, PEND-2: a mid-turn selection waits for the next accepted in-turn
// pre-step, in whichever turn; nothing forces a step.
func TestPEND1_PEND2_PendingUntilNextAcceptedStep(t *testing.T) {
	h := defaults(t)
	h.prompt()
	h.step()
	r := h.set(true)
	planEvents(t, r)
	if len(r.Appended) != 0 || len(r.Requests) != 0 {
		t.Fatalf("a selection forced work: %+v", r.Appended)
	}
	planEvents(t, h.endTurn())
	h.do(sim.Action{Idle: &sim.AgentAction{Agent: "main"}})
	planEvents(t, h.prompt())
	s := h.step()
	planEvents(t, s, true)
	if s.Appended[0].Event.Type != spec.TypePlanMode || !sectionShown(s) {
		t.Fatalf("plan/mode not first or section absent: %+v", s.Appended[0])
	}
}

// PEND-3: selecting the pending or logged state again is a no-op.
func TestPEND3_Noop(t *testing.T) {
	h := defaults(t)
	if r := h.set(false); r.Outcome != spec.Noop {
		t.Fatalf("idle set(false) = %s", r.Outcome)
	}
	h.prompt()
	h.set(true)
	if r := h.set(true); r.Outcome != spec.Noop {
		t.Fatalf("repeat set(true) = %s", r.Outcome)
	}
	wantState(t, h.get(), false, "true")
}

// PEND-4: during an open turn, set to another state queues.
func TestPEND4_Queued(t *testing.T) {
	h := defaults(t)
	h.prompt()
	r := h.set(true)
	if r.Outcome != spec.Queued {
		t.Fatalf("outcome %s", r.Outcome)
	}
	planEvents(t, r)
	wantState(t, h.get(), false, "true")
}

// PEND-5: set back to the logged state during a turn cancels; the default
// choice cancel-pending=clear leaves nothing pending.
func TestPEND5_CancelledClears(t *testing.T) {
	h := defaults(t)
	h.prompt()
	h.set(true)
	if r := h.set(false); r.Outcome != spec.Cancelled {
		t.Fatalf("outcome %s", r.Outcome)
	}
	wantState(t, h.get(), false, "none")
	planEvents(t, h.step())
}

// PEND-5, choice cancel-pending=keep-equal: pending equals the logged state
// until the next pre-step, which appends nothing.
func TestPEND5_CancelKeepEqualChoice(t *testing.T) {
	h := newHarness(t, Options{Choices: Choices{CancelPending: "keep-equal"}}, sim.Options{})
	h.prompt()
	h.set(true)
	h.set(false)
	wantState(t, h.get(), false, "false")
	planEvents(t, h.step())
	wantState(t, h.get(), false, "none")
}

// PEND-6: with no open turn (also while checkpointing) set commits at once;
// a leftover opposite selection is cancelled with nothing appended.
func TestPEND6_CommitBetweenTurns(t *testing.T) {
	h := defaults(t)
	h.prompt()
	h.step()
	h.set(true)
	h.endTurn()
	if st, open := h.rt.Status("main"); st != sim.StatusRunning || open {
		t.Fatalf("not checkpointing: %s %v", st, open)
	}
	r := h.set(false)
	if r.Outcome != spec.Cancelled {
		t.Fatalf("leftover cancel = %s", r.Outcome)
	}
	planEvents(t, r)
	r = h.set(true)
	if r.Outcome != spec.Committed {
		t.Fatalf("checkpointing set = %s", r.Outcome)
	}
	planEvents(t, r, true)
}

// PEND-6, choice idle-append-failure: error by default, pending otherwise.
func TestPEND6_IdleAppendFailure(t *testing.T) {
	h := defaults(t)
	h.do(sim.Action{Fault: &sim.FaultAction{Appends: 1}})
	r := h.set(true)
	if r.Error == "" || r.Outcome != "" {
		t.Fatalf("want an error, got %+v", r)
	}
	wantState(t, h.get(), false, "none")

	h = newHarness(t, Options{Choices: Choices{IdleAppendFailure: "pending"}}, sim.Options{})
	h.do(sim.Action{Fault: &sim.FaultAction{Appends: 1}})
	if r := h.set(true); r.Outcome != spec.Queued {
		t.Fatalf("outcome %s", r.Outcome)
	}
	wantState(t, h.get(), false, "true")
}

// PEND-7: get reports pending exactly when a selection waits.
func TestPEND7_GetReportsPending(t *testing.T) {
	h := defaults(t)
	wantState(t, h.get(), false, "none")
	h.prompt()
	h.set(true)
	wantState(t, h.get(), false, "true")
	h.step()
	wantState(t, h.get(), true, "none")
}

// PEND-8: a selection after the last accepted pre-step is lost on restart;
// committed state is not.
func TestPEND8_RestartLosesOnlyPending(t *testing.T) {
	h := defaults(t)
	h.set(true)
	h.prompt()
	h.step()
	h.set(false)
	h.do(sim.Action{Restart: &struct{}{}})
	wantState(t, h.get(), true, "none")
}

// STEP-1: the listener is prepended: it wraps listeners registered before.
func TestSTEP1_Prepended(t *testing.T) {
	h := newHarness(t, Options{}, sim.Options{Listeners: []sim.ListenerSpec{{Name: "early", Registered: "before"}}})
	if h.rt.Registration().Listener != sim.Prepend {
		t.Fatal("not prepended")
	}
	h.prompt()
	h.set(true)
	r := h.step(func(s *sim.StepAction) { s.Listeners = map[string]string{"early": sim.Reject} })
	if r.PreStep == nil || r.PreStep.Downstream.Kind != sim.Reject {
		t.Fatalf("plugin did not see the earlier listener's rejection: %+v", r.PreStep)
	}
	planEvents(t, r)
}

// STEP-2: retries through the pre-step are observed.
func TestSTEP2_RetryObserved(t *testing.T) {
	h := defaults(t)
	h.prompt()
	h.step(func(s *sim.StepAction) { s.Request = "fail" })
	h.set(true)
	r := h.do(sim.Action{Retry: &sim.StepAction{Agent: "main"}})
	planEvents(t, r, true)
}

// STEP-3: downstream first; append only on acceptance.
func TestSTEP3_DownstreamFirstAppendOnAccept(t *testing.T) {
	for _, d := range []string{sim.Reject, sim.Abort} {
		h := defaults(t)
		h.prompt()
		h.set(true)
		r := h.step(func(s *sim.StepAction) { s.Decision = d })
		planEvents(t, r)
		wantState(t, h.get(), false, "true")
	}
	h := defaults(t)
	h.prompt()
	h.set(true)
	r := h.step()
	var kinds []string
	for _, e := range r.Effects {
		kinds = append(kinds, e.Effect.Kind)
	}
	if strings.Join(kinds, ",") != "downstream,append" {
		t.Fatalf("effects %v, want downstream then append", kinds)
	}
}

// STEP-4: prompt admission appends no plan/mode.
func TestSTEP4_AdmissionAppendsNothing(t *testing.T) {
	h := defaults(t)
	planEvents(t, h.prompt())
}

// STEP-5: a failed append leaves the step going and the selection pending.
func TestSTEP5_FailedAppendContained(t *testing.T) {
	h := defaults(t)
	h.prompt()
	h.set(true)
	h.do(sim.Action{Fault: &sim.FaultAction{Appends: 1}})
	r := h.step()
	if r.Decision != sim.Accept || len(r.Requests) != 1 {
		t.Fatalf("step blocked: %+v", r.Decision)
	}
	planEvents(t, r)
	wantState(t, h.get(), false, "true")
	planEvents(t, h.step(), true)
}

// STEP-6: exactly one notice, only when the last header showed the other
// state.
func TestSTEP6_NarrationExactlyWhen(t *testing.T) {
	h := defaults(t)
	if r := h.set(true); len(r.Notices("main")) != 0 {
		t.Fatal("narrated with no header")
	}
	h.prompt()
	h.step()
	h.set(false)
	if r := h.step(); len(r.Notices("main")) != 1 {
		t.Fatalf("notices %d", len(r.Notices("main")))
	}
	// Idle path: the notice is injected and logged by the next step.
	h.endTurn()
	r := h.set(true)
	if len(r.Effects) != 2 || r.Effects[1].Effect.Kind != sim.EffectInject {
		t.Fatalf("idle notice not injected: %+v", r.Effects)
	}
	h.prompt()
	if s := h.step(); len(s.Notices("main")) != 1 {
		t.Fatal("injected notice not logged")
	}
}

// STEP-7: the step's request already reflects the appended state.
func TestSTEP7_RequestReflectsAppend(t *testing.T) {
	h := defaults(t)
	h.prompt()
	h.set(true)
	r := h.step()
	if !sectionShown(r) {
		t.Fatal("section absent from the step that appended plan mode")
	}
}

// section-source=pending renders the pending selection (differs from the
// log only when the append fails).
func TestSectionSourcePendingChoice(t *testing.T) {
	h := newHarness(t, Options{Choices: Choices{SectionSource: "pending"}}, sim.Options{})
	h.prompt()
	h.set(true)
	h.do(sim.Action{Fault: &sim.FaultAction{Appends: 1}})
	if r := h.step(); !sectionShown(r) {
		t.Fatal("pending choice did not render the pending state")
	}
}

// CFG-1: exactly {section: string}.
func TestCFG1_ConfigValidation(t *testing.T) {
	bad := []string{`{}`, `{"section":""}`, `{"section":"  "}`, `{"section":1}`, `{"section":"x","y":1}`, `[]`, `null`, `nope`}
	for _, c := range bad {
		if _, err := ResolveConfig(json.RawMessage(c)); err == nil {
			t.Errorf("config %s accepted", c)
		}
	}
	cfg, err := ResolveConfig(json.RawMessage(`{"section":" Plan. "}`))
	if err != nil || cfg.Section != " Plan. " {
		t.Fatalf("valid config: %+v %v", cfg, err)
	}
	p := NewPort(Options{})
	if _, err := p.Load(sim.LoadRequest{}); err == nil {
		t.Fatal("load before start accepted")
	}
	p.Start()
	if r, _ := p.Load(sim.LoadRequest{Config: json.RawMessage(`{"section":"x","z":0}`)}); !strings.Contains(r.Error, "z") {
		t.Fatalf("unknown key not named: %q", r.Error)
	}
}

// CFG-2: the exact text at order 50 while active, nothing while inactive.
func TestCFG2_Section(t *testing.T) {
	h := defaults(t)
	h.prompt()
	if r := h.step(); sectionShown(r) {
		t.Fatal("section while inactive")
	}
	h.set(true)
	r := h.step()
	s, ok := r.Requests[0].Section(spec.SectionName)
	if !ok || s.Order != 50 || s.Text != "Plan first." {
		t.Fatalf("section %+v", s)
	}
}

// EXIT-1: the tool catalog does not change with the state.
func TestEXIT1_StableCatalog(t *testing.T) {
	h := defaults(t)
	h.prompt()
	a := h.step().Requests[0].Tools
	h.set(true)
	b := h.step().Requests[0].Tools
	if fmt.Sprint(a) != fmt.Sprint(b) || len(a) != 1 || a[0].Name != spec.ExitTool {
		t.Fatalf("catalog %v vs %v", a, b)
	}
}

// EXIT-2, EXIT-3: outside plan mode and without a # heading, it fails.
func TestEXIT2_EXIT3_Preconditions(t *testing.T) {
	h := defaults(t)
	h.prompt()
	if o := h.exit("# P", sim.Review{Answer: sim.Approve}); o.OK || o.Asked {
		t.Fatalf("ran outside plan mode: %+v", o)
	}
	h.endTurn()
	h.set(true)
	h.prompt()
	for _, plan := range []string{"", "Plan", "## Plan", "#Plan", "   "} {
		if o := h.exit(plan, sim.Review{Answer: sim.Approve}); o.OK || o.Asked {
			t.Errorf("plan %q accepted: %+v", plan, o)
		}
	}
	if o := h.exit("  # Plan\n- a", sim.Review{Answer: sim.Approve}); !o.OK {
		t.Errorf("indented heading refused: %+v", o)
	}
	res := h.step(func(s *sim.StepAction) {
		s.Model = &sim.Model{Calls: []sim.ToolCall{{Name: spec.ExitTool, Args: json.RawMessage(`{"plan":1}`)}}}
	})
	if res.Tools[0].OK {
		t.Error("non-string plan accepted")
	}
}

// EXIT-4, EXIT-5: review; approval is a silent pending exit.
func TestEXIT4_EXIT5_ApprovalIsSilentPendingExit(t *testing.T) {
	h := defaults(t)
	h.set(true)
	h.prompt()
	o := h.exit("# Plan", sim.Review{Answer: sim.Approve})
	if !o.OK || string(o.Result) != `{"approved":true}` || !o.Asked {
		t.Fatalf("approval: %+v", o)
	}
	wantState(t, h.get(), true, "false")
	r := h.step()
	planEvents(t, r, false)
	if len(r.Notices("main")) != 0 {
		t.Fatal("exit narrated")
	}
}

// EXIT-6: keep planning fails with the feedback; approval with feedback
// text is keep planning too.
func TestEXIT6_KeepPlanning(t *testing.T) {
	h := defaults(t)
	h.set(true)
	h.prompt()
	for _, rv := range []sim.Review{{Answer: sim.KeepPlanning, Feedback: "more tests"}, {Answer: sim.Approve, Feedback: "more tests"}} {
		o := h.exit("# Plan", rv)
		if o.OK || !strings.Contains(o.Error, "more tests") {
			t.Fatalf("%+v: %+v", rv, o)
		}
		wantState(t, h.get(), true, "none")
	}
	if o := h.exit("# Plan", sim.Review{Answer: sim.KeepPlanning}); o.OK {
		t.Fatal("keep planning without feedback succeeded")
	}
}

// EXIT-7: no channel, dismissal or a reload during review fail the call.
func TestEXIT7_NoImplicitExit(t *testing.T) {
	h := newHarness(t, Options{}, sim.Options{})
	h.set(true)
	h.prompt()
	if o := h.exit("# Plan", sim.Review{Answer: sim.Approve}); o.OK {
		t.Fatal("approved without a channel")
	}
	h = defaults(t)
	h.set(true)
	h.prompt()
	for _, rv := range []sim.Review{{Answer: sim.Dismiss}, {Answer: sim.Approve, Reload: true}} {
		if o := h.exit("# Plan", rv); o.OK {
			t.Fatalf("%+v succeeded", rv)
		}
		wantState(t, h.get(), true, "none")
	}
}

// CMD-1: /plan exists only with the commands service.
func TestCMD1_RegisteredWithCommandsService(t *testing.T) {
	h := newHarness(t, Options{}, sim.Options{})
	if r := h.command("/plan"); r.Command.Registered {
		t.Fatal("registered without the service")
	}
	if r := defaults(t).command("/plan"); !r.Command.Registered {
		t.Fatal("not registered with the service")
	}
}

// CMD-2, CMD-3, CMD-4: bare /plan, /plan <message>, /plan off.
func TestCMD2_CMD3_CMD4_PlanCommand(t *testing.T) {
	h := defaults(t)
	r := h.command("/plan")
	planEvents(t, r, true)
	r = h.command("/plan off")
	planEvents(t, r, false)
	r = h.command("/plan Draft it")
	planEvents(t, r, true)
	var steered bool
	for _, e := range r.Effects {
		steered = steered || (e.Effect.Kind == sim.EffectSteer && e.Effect.Message.Text == "Draft it")
	}
	if !steered {
		t.Fatal("message not steered")
	}
	// The steer woke the agent: a turn is open; /plan off queues the exit
	// and a second /plan cancels it.
	if r := h.command("/plan off"); r.Command.Kind != "success" {
		t.Fatal(r.Command)
	}
	wantState(t, h.get(), true, "false")
	h.command("/plan")
	wantState(t, h.get(), true, "none")
	// An entry queued during a turn is cancelled by /plan off.
	h2 := defaults(t)
	h2.prompt()
	h2.command("/plan")
	h2.command("/plan off")
	wantState(t, h2.get(), false, "none")
	planEvents(t, h2.step())
	if r := h2.command("/plan off"); r.Command.Kind != "success" {
		t.Fatal("noop off failed")
	}
}

// A command append failure is reported as a command error.
func TestCMD2_CommandAppendFailure(t *testing.T) {
	h := defaults(t)
	h.do(sim.Action{Fault: &sim.FaultAction{Appends: 2}})
	if r := h.command("/plan"); r.Command.Kind != "error" {
		t.Fatalf("got %+v", r.Command)
	}
	if r := h.command("/plan off"); r.Command.Kind != "success" {
		t.Fatalf("noop off: %+v", r.Command)
	}
}

// SVC-1: the service surface: get's shape and set's four outcomes.
func TestSVC1_Surface(t *testing.T) {
	h := defaults(t)
	seen := map[string]bool{}
	seen[h.set(false).Outcome] = true
	seen[h.set(true).Outcome] = true
	h.prompt()
	seen[h.set(false).Outcome] = true
	seen[h.set(true).Outcome] = true
	for _, o := range []string{spec.Noop, spec.Committed, spec.Queued, spec.Cancelled} {
		if !seen[o] {
			t.Errorf("outcome %s never returned", o)
		}
	}
}

// SVC-2 is the runtime's: without the package nothing plan-related exists
// (see examples/svc-without-plugin.yaml); the reference registers all
// four pieces when loaded.
func TestSVC2_RegistersItsPieces(t *testing.T) {
	reg := defaults(t).rt.Registration()
	if reg.Listener != sim.Prepend || len(reg.Tools) != 1 || len(reg.Sections) != 1 || len(reg.Commands) != 1 {
		t.Fatalf("registration %+v", reg)
	}
}

// SVC-3: nothing in the reference reads or writes sandbox or approval
// settings: its only effects are on the log, the queues and the review.
func TestSVC3_OnlyPlanEffects(t *testing.T) {
	h := defaults(t)
	h.set(true)
	h.prompt()
	h.exit("# P", sim.Review{Answer: sim.Approve})
	for _, e := range h.rt.Log("main") {
		if strings.Contains(e.Type, "sandbox") || strings.Contains(e.Type, "approval") {
			t.Fatalf("touched %s", e.Type)
		}
	}
}

// Reload drops pending selections (choice reload-pending=drop) or keeps them.
func TestReloadPendingChoice(t *testing.T) {
	for _, c := range []struct {
		choice string
		want   string
	}{{"drop", "none"}, {"keep", "true"}} {
		h := newHarness(t, Options{Choices: Choices{ReloadPending: c.choice}}, sim.Options{})
		h.prompt()
		h.set(true)
		h.do(sim.Action{Reload: &struct{}{}})
		wantState(t, h.get(), false, c.want)
	}
}

func TestChoices(t *testing.T) {
	if _, err := ParseChoices(map[string]string{"nope": "x"}); err == nil {
		t.Error("unknown choice accepted")
	}
	if _, err := ParseChoices(map[string]string{spec.ChoiceCancelPending: "x"}); err == nil {
		t.Error("unknown value accepted")
	}
	c, err := ParseChoices(map[string]string{spec.ChoiceCancelPending: "keep-equal"})
	if err != nil || c.Map()[spec.ChoiceCancelPending] != "keep-equal" || c.Map()[spec.ChoiceFoldEnd] != "clamp" {
		t.Fatalf("%+v %v", c, err)
	}
}

func TestLookupMutant(t *testing.T) {
	if _, err := LookupMutant("nope"); err == nil || !strings.Contains(err.Error(), "fold-first") {
		t.Fatalf("err %v", err)
	}
	seen := map[Mutant]bool{}
	for _, m := range Catalogue {
		if seen[m.Name] {
			t.Fatalf("duplicate mutant %s", m.Name)
		}
		seen[m.Name] = true
		if _, err := LookupMutant(string(m.Name)); err != nil {
			t.Fatal(err)
		}
	}
}

// The port refuses requests that do not fit: unknown agents, calls before
// start, sync events out of order.
func TestPortRefusesBadRequests(t *testing.T) {
	p := NewPort(Options{})
	if _, err := p.Get(sim.Call{Agent: "a"}); err == nil {
		t.Error("get before start")
	}
	p.Start()
	p.Load(sim.LoadRequest{Config: json.RawMessage(`{"section":"x"}`)})
	if _, err := p.Get(sim.Call{Agent: "a"}); err == nil {
		t.Error("unknown agent")
	}
	p.Open(sim.OpenRequest{Agent: "a"})
	if _, err := p.Get(sim.Call{Agent: "a", Sync: []sim.Event{{Seq: 3, Type: "x"}}}); err == nil {
		t.Error("out-of-order sync")
	}
	if r, _ := p.Command(sim.CommandRequest{Call: sim.Call{Agent: "a"}, Name: "other"}); r.Kind != "error" {
		t.Error("unknown command")
	}
}

// SVC-4: the service catalog is generated from the doc comments of Get and
// Set, so they must state the contract: the pending field and the four
// outcomes with their meaning.
func TestSVC4_ServiceDocComments(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "controller.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Doc != nil {
			docs[fn.Name.Name] = fn.Doc.Text()
		}
	}
	for name, words := range map[string][]string{
		"Get": {"logged", "pending", "accepted in-turn pre-step"},
		"Set": {"committed", "queued", "cancelled", "noop", "open-turn fold", "checkpointing"},
	} {
		for _, w := range words {
			if !strings.Contains(docs[name], w) {
				t.Errorf("doc comment of Controller.%s does not mention %q", name, w)
			}
		}
	}
}

// Every known mutant says how it deviates, in exactly one way, and every
// mutation is a known mutant.
func TestEveryMutantHasOneMutation(t *testing.T) {
	known := map[Mutant]bool{}
	for _, m := range Known() {
		known[m.Name] = true
		mu, ok := mutations[m.Name]
		if !ok {
			t.Errorf("mutant %s has no mutation", m.Name)
		}
		if (mu.hook == nil) == (mu.wire == nil) {
			t.Errorf("mutant %s: a mutation sets hooks or wraps the port, exactly one of them", m.Name)
		}
	}
	for m := range mutations {
		if !known[m] {
			t.Errorf("mutation %s is neither in the catalogue nor a variant", m)
		}
	}
}

// The controller states the specification only: controller.go names no
// mutant, nor the mutant set; mutants reach it through its hooks.
func TestControllerNamesNoMutant(t *testing.T) {
	fset := token.NewFileSet()
	names := map[string]bool{"Mutant": true, "Mutants": true, "Has": true, "mutations": true}
	mutants, err := parser.ParseFile(fset, "mutants.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range mutants.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					names[n.Name] = true
				}
			}
		}
	}
	if len(names) < len(Known()) {
		t.Fatalf("read %d names from mutants.go, want the %d mutants among them", len(names), len(Known()))
	}
	ctl, err := parser.ParseFile(fset, "controller.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(ctl, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && names[id.Name] {
			t.Errorf("%s: controller.go names %s", fset.Position(id.Pos()), id.Name)
		}
		return true
	})
}

// Every port method a suite calls after start is refused before it, and
// an implementation's declared choices are what Declares says over its
// Choices (an empty value declares none).
func TestPortBeforeStartAndDeclaredChoices(t *testing.T) {
	p := NewPort(Options{})
	c := sim.Call{Agent: "a"}
	calls := map[string]func() error{
		"open":     func() error { return p.Open(sim.OpenRequest{Agent: "a"}) },
		"set":      func() error { _, err := p.Set(sim.SetRequest{Call: c, Active: true}); return err },
		"pre-step": func() error { _, err := p.PreStep(sim.PreStepRequest{Call: c}); return err },
		"assemble": func() error { _, err := p.Assemble(sim.AssembleRequest{Call: c}); return err },
		"exit":     func() error { _, err := p.ExitTool(sim.ExitToolRequest{Call: c}); return err },
		"command":  func() error { _, err := p.Command(sim.CommandRequest{Call: c, Name: spec.Command}); return err },
		"reload":   func() error { _, err := p.Reload(); return err },
		"unload":   func() error { _, err := p.Unload(); return err },
		"pre-tool": func() error {
			_, err := p.PreTool(sim.PreToolRequest{Call: c, Name: "read_file"})
			return err
		},
	}
	for name, call := range calls {
		if err := call(); err == nil {
			t.Errorf("%s before start: no error", name)
		}
	}
	id, err := NewPort(Options{Choices: AlternativeChoices(), Declares: map[string]string{spec.ChoiceFoldEnd: "", spec.ChoiceCancelPending: spec.CancelPendingClear}}).Start()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := id.Choices[spec.ChoiceFoldEnd]; ok || id.Choices[spec.ChoiceCancelPending] != spec.CancelPendingClear {
		t.Errorf("declared choices %v: want fold-end undeclared and cancel-pending=clear", id.Choices)
	}
}

// AlternativeChoices takes the other reading of every silent point that
// has one, and Factory builds a fresh implementation at each call.
func TestAlternativeChoicesAndFactory(t *testing.T) {
	alt := AlternativeChoices().Map()
	for _, ch := range spec.Choices {
		if len(ch.Values) > 1 && alt[ch.Name] != ch.Values[1].Name {
			t.Errorf("%s: %q, want its second value %q", ch.Name, alt[ch.Name], ch.Values[1].Name)
		}
	}
	f := Factory(Options{})
	a, b := f(), f()
	if a == b {
		t.Error("Factory returned the same port twice")
	}
}

// Under logged-pending=clear a selection that an outside writer's
// plan/mode put in the log is no longer waiting (get shows no pending);
// under keep it still waits, and its pre-step appends nothing (LOG-4).
func TestOutsideWriterAndAPendingSelection(t *testing.T) {
	for _, c := range []struct {
		reading string
		pending string
	}{{spec.LoggedPendingClear, "none"}, {spec.LoggedPendingKeep, "true"}} {
		h := newHarness(t, Options{Choices: Choices{LoggedPending: c.reading}}, sim.Options{})
		h.prompt()
		h.step()
		h.set(true)
		h.do(sim.Action{Append: &sim.AppendAction{Agent: "main", Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":true}`)}})
		wantState(t, h.get(), true, c.pending)
		planEvents(t, h.step())
	}
}

// Under idle-revert-notice=net an idle change waits for the next accepted
// pre-step to be narrated, and a change reverted before it owes nothing.
func TestIdleRevertNoticeNet(t *testing.T) {
	h := newHarness(t, Options{Choices: Choices{IdleRevertNotice: spec.IdleRevertNoticeNet}}, sim.Options{})
	h.prompt()
	h.step()
	h.endTurn()
	h.set(true)
	h.prompt()
	if r := h.step(); countNotices(r) != 1 {
		t.Errorf("the idle change is narrated %d times at the next step, want once", countNotices(r))
	}
	h.endTurn()
	h.set(false)
	h.set(true)
	h.prompt()
	if r := h.step(); countNotices(r) != 0 {
		t.Errorf("a change reverted before the next request is narrated %d times", countNotices(r))
	}
}

func countNotices(r sim.Result) int {
	n := 0
	for _, e := range r.Appended {
		var m sim.Message
		if e.Event.Type == spec.TypeUserMessage && json.Unmarshal(e.Event.Data, &m) == nil && m.IsPlanNotice() {
			n++
		}
	}
	return n
}

// Two mutants on one decision point compose: each bend sees the decision
// of the one before, and the earlier instead answers first.
func TestMutantsCompose(t *testing.T) {
	h := newHarness(t, Options{Mutants: Mutants{PlanWithoutHeading, HeadingAfterText}}, sim.Options{Services: sim.Services{UserQuestions: true}})
	h.set(true)
	h.prompt()
	if o := h.exit("no heading", sim.Review{Answer: sim.Approve}); !o.OK {
		t.Errorf("plan-without-heading with heading-after-text: a plan without a heading is refused: %+v", o)
	}
	h = newHarness(t, Options{Mutants: Mutants{ApproveWithoutReview, NoChannelApproves}}, sim.Options{Services: sim.Services{UserQuestions: true}})
	h.set(true)
	h.prompt()
	if o := h.exit("# Plan\n1. a", sim.Review{Answer: sim.KeepPlanning}); !o.OK || o.Asked {
		t.Errorf("approve-without-review with no-channel-approves: %+v, want approved unasked", o)
	}
}
