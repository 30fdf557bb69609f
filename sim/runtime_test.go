package sim_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

func newRuntime(t testing.TB, opts sim.Options) *sim.Runtime {
	t.Helper()
	if opts.Config == nil {
		opts.Config = json.RawMessage(`{"section":"Plan first."}`)
	}
	if opts.Agents == nil {
		opts.Agents = []string{"main"}
	}
	rt, _, err := sim.New(reference.NewPort(reference.Options{}), opts)
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

func do(t testing.TB, rt *sim.Runtime, a sim.Action) sim.Result {
	t.Helper()
	r, err := rt.Do(a)
	if err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	return r
}

var (
	prompt = sim.Action{Prompt: &sim.TextAction{Agent: "main", Text: "go"}}
	step   = sim.Action{Step: &sim.StepAction{Agent: "main"}}
)

// Actions that do not fit the runtime's state are input errors, never
// panics or silent no-ops.
func TestInputErrors(t *testing.T) {
	cases := []struct {
		name   string
		before []sim.Action
		act    sim.Action
		msg    string
	}{
		{"step without a turn", nil, step, "no open turn"},
		{"retry without a failure", []sim.Action{prompt}, sim.Action{Retry: &sim.StepAction{Agent: "main"}}, "no failed request"},
		{"step while awaiting retry", []sim.Action{prompt, {Step: &sim.StepAction{Agent: "main", Request: "fail"}}}, step, "awaits a retry"},
		{"unknown agent", nil, sim.Action{Get: &sim.AgentAction{Agent: "ghost"}}, `unknown agent "ghost"`},
		{"prompt in an open turn", []sim.Action{prompt}, prompt, "open turn"},
		{"idle in an open turn", []sim.Action{prompt}, sim.Action{Idle: &sim.AgentAction{Agent: "main"}}, "open turn"},
		{"end-turn without a turn", nil, sim.Action{EndTurn: &sim.EndTurnAction{Agent: "main"}}, "no open turn"},
		{"bad decision", []sim.Action{prompt}, sim.Action{Step: &sim.StepAction{Agent: "main", Decision: "maybe"}}, "decision"},
		{"bad request", []sim.Action{prompt}, sim.Action{Step: &sim.StepAction{Agent: "main", Request: "slow"}}, "request"},
		{"undeclared listener", []sim.Action{prompt}, sim.Action{Step: &sim.StepAction{Agent: "main", Listeners: map[string]string{"x": "accept"}}}, "does not declare"},
		{"negative fault", nil, sim.Action{Fault: &sim.FaultAction{Appends: -1}}, "negative"},
		{"fork onto an existing agent", nil, sim.Action{Fork: &sim.ForkAction{Agent: "main", As: "main"}}, "already exists"},
		{"fork without a name", nil, sim.Action{Fork: &sim.ForkAction{Agent: "main"}}, "needs a name"},
		{"unload twice", []sim.Action{{Unload: &sim.UnloadAction{}}}, sim.Action{Unload: &sim.UnloadAction{}}, "needs a loaded plan-mode plugin"},
		{"empty action", nil, sim.Action{}, "empty action"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt := newRuntime(t, sim.Options{})
			for _, a := range c.before {
				do(t, rt, a)
			}
			before := len(rt.Log("main"))
			_, err := rt.Do(c.act)
			var in *sim.InputError
			if !errors.As(err, &in) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("got %v, want an input error mentioning %q", err, c.msg)
			}
			if after := len(rt.Log("main")); after != before {
				t.Errorf("a refused action appended %d events", after-before)
			}
		})
	}
}

func TestWithoutPluginPlanActionsAreInputErrors(t *testing.T) {
	rt, _, err := sim.New(nil, sim.Options{NoPlugin: true, Agents: []string{"main"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []sim.Action{
		{Set: &sim.SetAction{Agent: "main", Active: true}},
		{Reload: &struct{}{}},
		{Load: &sim.LoadAction{}},
		{Fold: &sim.FoldAction{}},
	} {
		if _, err := rt.Do(a); err == nil {
			t.Errorf("%s accepted without a plugin", a.Name())
		}
	}
	do(t, rt, prompt)
	r := do(t, rt, step)
	if len(r.Requests) != 1 || len(r.Requests[0].Sections) != 1 || len(r.Requests[0].Tools) != 0 {
		t.Fatalf("request without plugin: %+v", r.Requests)
	}
	do(t, rt, sim.Action{Restart: &struct{}{}})
}

func TestBadListenerRegistration(t *testing.T) {
	_, _, err := sim.New(reference.NewPort(reference.Options{}), sim.Options{Listeners: []sim.ListenerSpec{{Name: "x", Registered: "sideways"}}})
	if err == nil {
		t.Fatal("accepted")
	}
}

// failingPort fails every call after start: the implementation could not
// be run, which the runtime reports as an *ImplError naming the operation.
type failingPort struct{ *reference.Port }

var errCrash = errors.New("process exited")

func (failingPort) Set(sim.SetRequest) (sim.SetReply, error) { return sim.SetReply{}, errCrash }
func (failingPort) PreStep(sim.PreStepRequest) (sim.PreStepReply, error) {
	return sim.PreStepReply{}, errCrash
}

func TestImplErrors(t *testing.T) {
	rt, _, err := sim.New(failingPort{reference.NewPort(reference.Options{})}, sim.Options{Config: json.RawMessage(`{"section":"x"}`), Agents: []string{"main"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []sim.Action{{Set: &sim.SetAction{Agent: "main", Active: true}}, prompt, step} {
		_, err := rt.Do(a)
		if a.Prompt != nil {
			continue
		}
		var ie *sim.ImplError
		if !errors.As(err, &ie) || !errors.Is(err, errCrash) {
			t.Fatalf("%s: %v", a.Name(), err)
		}
	}
}

// The pre-step chain honours next() semantics and the plugin's position:
// accepting listeners add their messages as the decision travels back out,
// so the outermost adds last, and a prepended plugin's notice comes after
// every other listener's messages. A listener not prepended runs where it
// was registered: after the host's listeners registered after its first
// load once it registers again (a reload, a load after an unload), and
// back between them after a restart registers everything again.
func TestChainOrderAndMessages(t *testing.T) {
	reload := sim.Action{Reload: &struct{}{}}
	restart := sim.Action{Restart: &struct{}{}}
	unload := sim.Action{Unload: &sim.UnloadAction{}}
	load := sim.Action{Load: &sim.LoadAction{}}
	for _, c := range []struct {
		mutants reference.Mutants
		before  []sim.Action
		want    string
	}{
		{nil, nil, "late,early,notice"},
		{nil, []sim.Action{reload}, "late,early,notice"},
		{reference.Mutants{reference.ListenerAppended}, nil, "late,notice,early"},
		{reference.Mutants{reference.ListenerAppended}, []sim.Action{reload}, "notice,late,early"},
		{reference.Mutants{reference.ListenerAppended}, []sim.Action{unload, load}, "notice,late,early"},
		{reference.Mutants{reference.ListenerAppended}, []sim.Action{reload, restart}, "late,notice,early"},
	} {
		rt, _, err := sim.New(reference.NewPort(reference.Options{Mutants: c.mutants}), sim.Options{
			Config: json.RawMessage(`{"section":"x"}`), Agents: []string{"main"},
			Listeners: []sim.ListenerSpec{
				{Name: "early", Registered: "before", Messages: []string{"early"}},
				{Name: "late", Registered: "after", Messages: []string{"late"}},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range c.before {
			do(t, rt, a)
		}
		do(t, rt, prompt)
		do(t, rt, step)
		do(t, rt, sim.Action{Set: &sim.SetAction{Agent: "main", Active: true}})
		r := do(t, rt, step)
		var texts []string
		for _, m := range r.Requests[0].Messages {
			if m.IsPlanNotice() {
				texts = append(texts, "notice")
			} else {
				texts = append(texts, m.Text)
			}
		}
		if got := strings.Join(texts, ","); got != c.want {
			t.Errorf("mutants %v after %d actions: messages %s, want %s", c.mutants, len(c.before), got, c.want)
		}
	}
}

// Restart closes an interrupted turn, drops queues and reloads the plugin
// over the same durable log.
func TestRestart(t *testing.T) {
	rt := newRuntime(t, sim.Options{})
	do(t, rt, prompt)
	do(t, rt, sim.Action{Inject: &sim.TextAction{Agent: "main", Text: "later"}})
	r := do(t, rt, sim.Action{Restart: &struct{}{}})
	if len(r.Appended) != 1 || r.Appended[0].Event.Type != spec.TypeTurnEnd {
		t.Fatalf("restart appended %+v", r.Appended)
	}
	if st, open := rt.Status("main"); st != sim.StatusIdle || open {
		t.Fatalf("status %s open %v", st, open)
	}
	do(t, rt, prompt)
	s := do(t, rt, step)
	if n := len(s.Requests[0].Messages); n != 1 {
		t.Fatalf("queue survived restart: %d messages", n)
	}
}

// Fork of an agent in a turn starts the child between turns.
func TestForkClosesOpenTurnInChild(t *testing.T) {
	rt := newRuntime(t, sim.Options{})
	do(t, rt, prompt)
	do(t, rt, sim.Action{Fork: &sim.ForkAction{Agent: "main", As: "child"}})
	if _, open := rt.Status("child"); open {
		t.Fatal("child has an open turn")
	}
	if _, open := rt.Status("main"); !open {
		t.Fatal("parent lost its turn")
	}
	if got := rt.Agents(); fmt.Sprint(got) != "[main child]" {
		t.Fatalf("agents %v", got)
	}
}

// Starting from a recorded log derives the turn position from the log.
func TestStartFromLog(t *testing.T) {
	rt := newRuntime(t, sim.Options{})
	do(t, rt, prompt)
	do(t, rt, step)
	events := rt.Log("main")
	rt2 := newRuntime(t, sim.Options{Logs: map[string][]sim.Event{"main": events}})
	if _, open := rt2.Status("main"); !open {
		t.Fatal("open turn not recovered")
	}
	r := do(t, rt2, step)
	if r.Appended[0].Event.Data == nil || !strings.Contains(string(r.Appended[0].Event.Data), `"step":2`) {
		t.Fatalf("step numbering not recovered: %s", r.Appended[0].Event.Data)
	}
}

// Same actions, same bytes.
func TestDeterministic(t *testing.T) {
	script := []sim.Action{
		prompt, {Set: &sim.SetAction{Agent: "main", Active: true}}, step,
		{Step: &sim.StepAction{Agent: "main", Request: "fail"}}, {Retry: &sim.StepAction{Agent: "main"}},
		{Command: &sim.CommandAction{Agent: "main", Input: "/plan off"}}, step,
		{Fork: &sim.ForkAction{Agent: "main", As: "b"}}, {Compact: &sim.AgentAction{Agent: "b"}},
	}
	runOnce := func() string {
		rt := newRuntime(t, sim.Options{Services: sim.Services{Commands: true, UserQuestions: true}})
		var b strings.Builder
		for _, a := range script {
			r := do(t, rt, a)
			j, _ := json.Marshal(r)
			b.Write(j)
		}
		return b.String()
	}
	first, second := runOnce(), runOnce()
	if first != second {
		t.Fatal("two runs of the same script differ")
	}
}

func TestLogAndMessages(t *testing.T) {
	l := sim.NewLog([]sim.Event{{Seq: 7, Type: "a", Data: json.RawMessage(`{"b":1,"a":2}`)}})
	if e := l.Events()[0]; e.Seq != 0 || string(e.Data) != `{"a":2,"b":1}` {
		t.Fatalf("not renumbered or canonical: %+v", e)
	}
	if string(sim.Canonical(json.RawMessage(`{bad`))) != `"{bad"` {
		t.Fatal("invalid JSON dropped")
	}
	if string(sim.Canonical(nil)) != "null" {
		t.Fatal("empty data")
	}
	if l.Since(5) != nil {
		t.Fatal("since past the end")
	}
	m := sim.Message{Role: "user", Text: "hi", Source: sim.Source{Kind: "plugin", Plugin: "plan-mode"}}
	back, err := sim.MessageOf(sim.MessageData(m))
	if err != nil || back != m || !back.IsPlanNotice() {
		t.Fatalf("round trip %+v %v", back, err)
	}
	if _, err := sim.MessageOf(json.RawMessage(`1`)); err == nil {
		t.Fatal("bad message data accepted")
	}
	if sim.UserMessage("x").IsPlanNotice() {
		t.Fatal("user message is a notice")
	}
}
