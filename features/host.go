package features

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/internal/third_party/godog"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// registerHost binds the steps about the host around plan mode: its own
// tools beside the plugin's (EXIT-1, SVC-3) and a runtime that skips an
// accepted step whose decision carries no messages (PEND-2, STEP-6).
func (w *world) registerHost(sc *godog.ScenarioContext) {
	sc.Step(re(`^the host registers the tools "([^"]*)" before plan mode loads$`), w.hostTools)
	sc.Step(re(`^a prompt-assembly listener after plan mode's adds the tool "([^"]*)"$`), w.assemblyTool)
	sc.Step(re(`^the runtime skips an accepted step whose decision carries no messages$`), w.skipEmptySteps)
	sc.Step(re(`^a pre-step listener "([^"]*)" is registered after the plugin and takes the step's messages for itself$`), w.dropListener)

	sc.Step(re(`^a step is accepted and the model calls the host tools? "([^"]*)"$`), w.callHostTools)
	sc.Step(re(`^a step is proposed and "([^"]*)" takes its messages for itself$`), w.stepDropped)

	sc.Step(re(`^the request's tool catalog is the host's tools "([^"]*)" in that order plus exit_plan_mode$`), w.hostCatalog)
	sc.Step(re(`^every host tool call ran and succeeded$`), w.hostToolsRan)
	sc.Step(re(`^the runtime skipped the step: no step started and the turn ended without a request$`), w.stepSkipped)
	sc.Step(re(`^the plan-mode notice is injected for a later step$`), w.noticeInjected)
}

func splitList(list string) []string {
	var out []string
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (w *world) hostTools(list string) error {
	if err := w.configure(); err != nil {
		return err
	}
	w.opts.HostTools = append(w.opts.HostTools, splitList(list)...)
	return nil
}

func (w *world) assemblyTool(name string) error {
	if err := w.configure(); err != nil {
		return err
	}
	w.opts.AssemblyTools = append(w.opts.AssemblyTools, name)
	return nil
}

func (w *world) skipEmptySteps() error {
	if err := w.configure(); err != nil {
		return err
	}
	w.opts.EmptySteps = sim.EmptyStepsSkip
	return nil
}

func (w *world) dropListener(name string) error {
	if err := w.configure(); err != nil {
		return err
	}
	w.opts.Listeners = append(w.opts.Listeners, sim.ListenerSpec{Name: name, Registered: "after", Behaviour: sim.Drop})
	return nil
}

// callHostTools is one accepted step whose model calls the named host
// tools, in order, in one tool batch.
func (w *world) callHostTools(list string) error {
	var calls []sim.ToolCall
	for _, n := range splitList(list) {
		calls = append(calls, sim.ToolCall{Name: n, Args: sim.JSON(map[string]string{"path": "README.md"})})
	}
	_, err := w.do(sim.Action{Step: &sim.StepAction{Agent: mainAgent, Model: &sim.Model{Calls: calls}}})
	return err
}

func (w *world) stepDropped(listener string) error {
	_, err := w.do(sim.Action{Step: &sim.StepAction{Agent: mainAgent, Listeners: map[string]string{listener: sim.Drop}}})
	return err
}

// hostCatalog: the request's catalog holds exactly the host's tools, in
// the host's order, and exit_plan_mode once; where plan mode puts its own
// tool among them is not the specification's business.
func (w *world) hostCatalog(list string) error {
	q, err := w.lastRequest()
	if err != nil {
		return err
	}
	got := toolNames(q.Tools)
	host := slices.DeleteFunc(slices.Clone(got), func(n string) bool { return n == spec.ExitTool })
	if want := splitList(list); !slices.Equal(host, want) {
		return fmt.Errorf("the request's catalog %v holds the host's tools %v, want %v in that order", got, host, want)
	}
	if n := len(got) - len(host); n != 1 {
		return fmt.Errorf("the request's catalog %v holds exit_plan_mode %d times, want once", got, n)
	}
	return nil
}

func (w *world) hostToolsRan() error {
	ran := 0
	for _, t := range w.last.Tools {
		if t.Name == spec.ExitTool {
			continue
		}
		ran++
		if !t.OK {
			return fmt.Errorf("the host tool %s failed: %s", t.Name, t.Error)
		}
	}
	if ran == 0 {
		return fmt.Errorf("the last action (%s) ran no host tool", w.last.Action.Name())
	}
	return nil
}

func (w *world) stepSkipped() error {
	var types []string
	for _, e := range w.last.Appended {
		if e.Agent == mainAgent {
			types = append(types, e.Event.Type)
		}
	}
	if w.last.Decision != sim.Accept || len(w.last.Requests) != 0 || slices.Contains(types, spec.TypeStepStart) || !slices.Contains(types, spec.TypeTurnEnd) {
		return fmt.Errorf("the step's decision is %q with %d request(s) (appended %v), want an accepted step the runtime skipped, ending the turn", w.last.Decision, len(w.last.Requests), types)
	}
	return nil
}

func (w *world) noticeInjected() error {
	for _, e := range w.last.Effects {
		if e.Agent == mainAgent && e.Effect.Kind == sim.EffectInject && e.Effect.Message != nil && e.Effect.Message.IsPlanNotice() {
			return nil
		}
	}
	return fmt.Errorf("%s injected no plan-mode notice", w.last.Action.Name())
}
