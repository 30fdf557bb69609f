package properties

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// Chooser is the source of every random choice a generator makes: rapid's
// draws under `go test`, a seeded PRNG under Run. Intn returns a value in
// [0, n).
type Chooser interface {
	Intn(label string, n int) int
}

// MaxAgents bounds forks: main, side and up to two forks.
const MaxAgents = 4

// Kind is one kind of generated action with its precondition.
type Kind struct {
	Name string
	// Make draws an action of this kind that is valid in m, or returns
	// false when none is.
	Make func(m *Model, c Chooser) (sim.Action, bool)
}

func pickAgent(m *Model, c Chooser, ok func(string) bool) (string, bool) {
	var names []string
	for _, n := range m.Agents() {
		if ok == nil || ok(n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "", false
	}
	return names[c.Intn("agent", len(names))], true
}

func oneOf[T any](c Chooser, label string, xs ...T) T { return xs[c.Intn(label, len(xs))] }

var plans = []string{"# Plan\n\n1. Read the code.\n2. Change it.", "Just do it.", ""}

// reviews are the scripted review answers of the exit tool.
var reviews = []sim.Review{
	{Answer: sim.Approve},
	{Answer: sim.Approve, Feedback: "also add tests"},
	{Answer: sim.KeepPlanning},
	{Answer: sim.KeepPlanning, Feedback: "split step 2"},
	{Answer: sim.Dismiss},
	{Answer: sim.Approve, Reload: true},
}

func drawStep(c Chooser, retry bool) *sim.StepAction {
	s := &sim.StepAction{}
	switch c.Intn("decision", 10) {
	case 0:
		s.Decision = sim.Reject
	case 1:
		s.Decision = sim.Abort
	case 2:
		s.Listeners = map[string]string{AuditListener: oneOf(c, "audit", sim.Reject, sim.Abort)}
	}
	if c.Intn("request", 5) == 0 {
		s.Request = "fail"
	} else if c.Intn("exit", 3) == 0 {
		plan := plans[0]
		if c.Intn("plan", 4) == 0 {
			plan = oneOf(c, "badplan", plans[1:]...)
		}
		r := oneOf(c, "review", reviews...)
		s.Model = &sim.Model{Calls: []sim.ToolCall{{Name: spec.ExitTool, Args: sim.JSON(map[string]string{"plan": plan}), Review: &r}}}
	}
	_ = retry
	return s
}

// Kinds is every generated action kind.
var Kinds = []Kind{
	{"prompt", func(m *Model, c Chooser) (sim.Action, bool) {
		a, ok := pickAgent(m, c, func(n string) bool { return !m.Open(n) })
		return sim.Action{Prompt: &sim.TextAction{Agent: a, Text: oneOf(c, "text", "Tidy the README.", "Plan the refactor.")}}, ok
	}},
	{"set", func(m *Model, c Chooser) (sim.Action, bool) {
		a, ok := pickAgent(m, c, nil)
		return sim.Action{Set: &sim.SetAction{Agent: a, Active: c.Intn("active", 2) == 1}}, ok
	}},
	{"get", func(m *Model, c Chooser) (sim.Action, bool) {
		a, ok := pickAgent(m, c, nil)
		return sim.Action{Get: &sim.AgentAction{Agent: a}}, ok
	}},
	{"command", func(m *Model, c Chooser) (sim.Action, bool) {
		a, ok := pickAgent(m, c, nil)
		return sim.Action{Command: &sim.CommandAction{Agent: a, Input: oneOf(c, "input", CommandInputs...)}}, ok
	}},
	{"step", func(m *Model, c Chooser) (sim.Action, bool) {
		a, ok := pickAgent(m, c, func(n string) bool { return m.Open(n) && !m.AwaitingRetry(n) })
		if !ok {
			return sim.Action{}, false
		}
		s := drawStep(c, false)
		s.Agent = a
		return sim.Action{Step: s}, true
	}},
	{"step-exit", func(m *Model, c Chooser) (sim.Action, bool) {
		// A step whose model presents a complete plan, mostly approved:
		// the exit tool's path through review to the silent exit.
		a, ok := pickAgent(m, c, func(n string) bool { return m.Open(n) && !m.AwaitingRetry(n) })
		if !ok {
			return sim.Action{}, false
		}
		r := sim.Review{Answer: sim.Approve}
		if c.Intn("approve", 3) == 0 {
			r = oneOf(c, "review", reviews[1:]...)
		}
		calls := []sim.ToolCall{{Name: spec.ExitTool, Args: sim.JSON(map[string]string{"plan": plans[0]}), Review: &r}}
		if c.Intn("batch", 3) == 0 {
			// A second call in the same tool batch, after the first one's
			// answer (EXIT-5, EXIT-6): the logged state still gates it.
			r2 := oneOf(c, "review2", reviews...)
			calls = append(calls, sim.ToolCall{Name: spec.ExitTool, Args: sim.JSON(map[string]string{"plan": plans[0]}), Review: &r2})
		}
		return sim.Action{Step: &sim.StepAction{Agent: a, Model: &sim.Model{Calls: calls}}}, true
	}},
	{"retry", func(m *Model, c Chooser) (sim.Action, bool) {
		a, ok := pickAgent(m, c, func(n string) bool { return m.AwaitingRetry(n) })
		if !ok {
			return sim.Action{}, false
		}
		s := drawStep(c, true)
		s.Agent = a
		return sim.Action{Retry: s}, true
	}},
	{"end-turn", func(m *Model, c Chooser) (sim.Action, bool) {
		a, ok := pickAgent(m, c, m.Open)
		return sim.Action{EndTurn: &sim.EndTurnAction{Agent: a}}, ok
	}},
	{"idle", func(m *Model, c Chooser) (sim.Action, bool) {
		a, ok := pickAgent(m, c, func(n string) bool { return !m.Open(n) })
		return sim.Action{Idle: &sim.AgentAction{Agent: a}}, ok
	}},
	{"fault", func(m *Model, c Chooser) (sim.Action, bool) {
		return sim.Action{Fault: &sim.FaultAction{Appends: 1 + c.Intn("appends", 2)}}, true
	}},
	{"fault-pending", func(m *Model, c Chooser) (sim.Action, bool) {
		// A fault armed while a selection waits in an open turn: the next
		// pre-step's append fails, so the following tool batch runs with
		// the selection still pending (EXIT-2, EXIT-5, STEP-5).
		_, ok := pickAgent(m, c, func(n string) bool { a := m.agent(n); return a.open && a.pending != nil })
		return sim.Action{Fault: &sim.FaultAction{Appends: 1}}, ok
	}},
	{"restart", func(m *Model, c Chooser) (sim.Action, bool) {
		return sim.Action{Restart: &struct{}{}}, true
	}},
	{"reload", func(m *Model, c Chooser) (sim.Action, bool) {
		return sim.Action{Reload: &struct{}{}}, true
	}},
	{"fork", func(m *Model, c Chooser) (sim.Action, bool) {
		if len(m.agents) >= MaxAgents {
			return sim.Action{}, false
		}
		a, ok := pickAgent(m, c, nil)
		return sim.Action{Fork: &sim.ForkAction{Agent: a, As: fmt.Sprintf("fork-%d", len(m.agents)-1)}}, ok
	}},
	{"compact", func(m *Model, c Chooser) (sim.Action, bool) {
		a, ok := pickAgent(m, c, nil)
		return sim.Action{Compact: &sim.AgentAction{Agent: a}}, ok
	}},
	{"fold", func(m *Model, c Chooser) (sim.Action, bool) {
		return drawFold(m, c), true
	}},
	{"step-host-tool", func(m *Model, c Chooser) (sim.Action, bool) {
		// A step whose model calls the host's own tools, in or out of
		// plan mode (EXIT-1, SVC-3).
		a, ok := pickAgent(m, c, func(n string) bool { return m.Open(n) && !m.AwaitingRetry(n) })
		if !ok || !m.Setup.HostTools {
			return sim.Action{}, false
		}
		tools := append(slices.Clone(HostTools), AssemblyTools...)
		var calls []sim.ToolCall
		for range 1 + c.Intn("host-calls", 2) {
			calls = append(calls, sim.ToolCall{Name: oneOf(c, "host-tool", tools...), Args: sim.JSON(map[string]string{"path": "README.md"})})
		}
		return sim.Action{Step: &sim.StepAction{Agent: a, Model: &sim.Model{Calls: calls}}}, true
	}},
	{"step-empty", func(m *Model, c Chooser) (sim.Action, bool) {
		// A step whose messages the audit listener takes for itself, so
		// the decision carries none: a runtime that skips such steps must
		// not be made to run one by a notice (PEND-2, STEP-6).
		a, ok := pickAgent(m, c, func(n string) bool { return m.Open(n) && !m.AwaitingRetry(n) })
		return sim.Action{Step: &sim.StepAction{Agent: a, Listeners: map[string]string{AuditListener: sim.Drop}}}, ok
	}},
}

// drawFold draws a foldPlanMode call: over an agent's log with or without
// an end (in range or at the edges), or over given events where plan/mode
// is mixed with other events (LOG-2).
func drawFold(m *Model, c Chooser) sim.Action {
	f := &sim.FoldAction{}
	if c.Intn("fold-events", 3) == 0 {
		n := c.Intn("fold-len", 6)
		for i := 0; i < n; i++ {
			switch c.Intn("fold-event", 4) {
			case 0:
				f.Events = append(f.Events, sim.FoldEventSpec{Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":true}`)})
			case 1:
				f.Events = append(f.Events, sim.FoldEventSpec{Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":false}`)})
			case 2:
				f.Events = append(f.Events, sim.FoldEventSpec{Type: spec.TypeUserMessage, Data: sim.MessageData(sim.UserMessage("active: true"))})
			default:
				f.Events = append(f.Events, sim.FoldEventSpec{Type: spec.TypeTurnStart, Data: json.RawMessage(`{"turn":1}`)})
			}
		}
	} else {
		a, _ := pickAgent(m, c, nil)
		f.Agent = a
		n := m.LogLen(a)
		f.Events = nil
		var end int
		switch c.Intn("fold-end", 5) {
		case 0:
			return sim.Action{Fold: f}
		case 1:
			end = -1 - c.Intn("neg", 2)
		case 2:
			end = n + 1 + c.Intn("over", 3)
		default:
			end = c.Intn("end", n+1)
		}
		f.End = &end
		return sim.Action{Fold: f}
	}
	if c.Intn("fold-has-end", 2) == 0 {
		end := c.Intn("fold-end", len(f.Events)+3) - 1
		f.End = &end
	}
	return sim.Action{Fold: f}
}

// Weights bias the draw of kinds; a missing kind has weight 1.
type Weights map[string]int

// Draw picks a valid action from the weighted kinds.
func Draw(m *Model, c Chooser, w Weights) sim.Action {
	for {
		total := 0
		for _, k := range Kinds {
			total += weight(w, k.Name)
		}
		n := c.Intn("kind", total)
		for _, k := range Kinds {
			n -= weight(w, k.Name)
			if n < 0 {
				if act, ok := k.Make(m, c); ok && m.Valid(act) {
					return act
				}
				break
			}
		}
	}
}

func weight(w Weights, name string) int {
	if v, ok := w[name]; ok {
		return v
	}
	if v, ok := defaultWeights[name]; ok {
		return v
	}
	return 1
}

// defaultWeights are the weights of kinds that only the properties naming
// them draw: the host's tool calls and steps left with no messages.
var defaultWeights = Weights{"step-host-tool": 0, "step-empty": 0}

// DrawSetup draws a run's configuration: which services are composed and
// how request-recovery retries run.
func DrawSetup(c Chooser) Setup {
	s := Setup{Services: sim.Services{Commands: true, UserQuestions: true}, Retries: sim.RetriesPreStep}
	switch c.Intn("services", 6) {
	case 0:
		s.Services.Commands = false
	case 1:
		s.Services.UserQuestions = false
	}
	if c.Intn("retries", 3) == 0 {
		s.Retries = sim.RetriesSameStep
	}
	return s
}

// DrawHost draws, beside a drawn setup, whether the host has tools of its
// own and whether its runtime skips an accepted step that carries no
// messages. Drawn whatever the implementation declares, so the draws that
// follow do not depend on it; Setup.Within clears what it cannot be shown.
func DrawHost(c Chooser, s Setup) Setup {
	s.HostTools = c.Intn("host-tools", 4) != 0
	if c.Intn("empty-steps", 2) == 0 {
		s.EmptySteps = sim.EmptyStepsSkip
	}
	return s
}

// CommandInputs are the slash commands the generators type: bare /plan, the
// exact off, a message, and the input details CMD-2..4 decide — surrounding
// whitespace, a blank argument, off in other cases or with trailing text,
// and another command name.
var CommandInputs = []string{
	"/plan", "/plan off", "/plan sketch the migration first",
	"/plan  off ", "/plan   ", "/plan OFF", "/plan off now", "/plans",
}
