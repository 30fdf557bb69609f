package features

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/plankit/plankit/internal/third_party/godog"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// registerGiven binds the steps that set a scenario up: the configuration
// before the runtime starts and the composite starting points.
func (w *world) registerGiven(sc *godog.ScenarioContext) {
	// Configuration (before the runtime starts).
	sc.Step(re(`^plan mode is configured with the section "([^"]*)"$`), w.configSection)
	sc.Step(re(`^plan mode is configured with the section:$`), w.configSectionDoc)
	sc.Step(re(`^plan mode is configured with the raw config (.+)$`), w.configRaw)
	sc.Step(re(`^the (commands|user-questions) service is not composed$`), w.serviceMissing)
	sc.Step(re(`^the runtime runs without the plan-mode package$`), w.noPlugin)
	sc.Step(re(`^a pre-step listener "([^"]*)" is registered (before|after) the plugin(?: and adds the message "([^"]*)")?$`), w.listener)
	sc.Step(re(`^the runtime retries failed requests (through the pre-step|inside the same step)$`), w.retries)

	// Composite starting points.
	sc.Step(re(`^an agent with plan mode (active|inactive)$`), w.agentIn)
	sc.Step(re(`^an agent with plan mode (active|inactive) and an open turn$`), w.agentOpen)
	sc.Step(re(`^an agent with plan mode (active|inactive) mid-turn, after a request that showed it$`), w.agentAfterRequest)
	sc.Step(re(`^an agent with plan mode (active|inactive) and the turn (open|closed) and (nothing|active|inactive) pending$`), w.agentMatrix)
	sc.Step(re(`^plan mode is loaded$`), w.start)
}

// ---- configuration ----

func (w *world) configSection(text string) error {
	if err := w.configure(); err != nil {
		return err
	}
	w.section = text
	w.opts.Config = sim.JSON(map[string]string{"section": text})
	return nil
}

func (w *world) configSectionDoc(doc *godog.DocString) error {
	return w.configSection(doc.Content)
}

func (w *world) configRaw(raw string) error {
	if err := w.configure(); err != nil {
		return err
	}
	if !json.Valid([]byte(raw)) {
		return fmt.Errorf("scenario bug: config %s is not JSON", raw)
	}
	w.opts.Config = json.RawMessage(raw)
	return nil
}

func (w *world) serviceMissing(name string) error {
	if err := w.configure(); err != nil {
		return err
	}
	if name == "commands" {
		w.opts.Services.Commands = false
	} else {
		w.opts.Services.UserQuestions = false
	}
	return nil
}

func (w *world) noPlugin() error {
	if err := w.configure(); err != nil {
		return err
	}
	w.opts.NoPlugin = true
	return nil
}

func (w *world) listener(name, where, message string) error {
	if err := w.configure(); err != nil {
		return err
	}
	l := sim.ListenerSpec{Name: name, Registered: where}
	if message != "" {
		l.Messages = []string{message}
	}
	w.opts.Listeners = append(w.opts.Listeners, l)
	return nil
}

func (w *world) retries(how string) error {
	if err := w.configure(); err != nil {
		return err
	}
	w.opts.Retries = sim.RetriesPreStep
	if how == "inside the same step" {
		w.opts.Retries = sim.RetriesSameStep
	}
	return nil
}

// ---- starting points ----

func (w *world) start() error {
	_, err := w.runtime()
	if err != nil {
		return err
	}
	if w.load.Error != "" {
		return fmt.Errorf("plan mode refused to load: %s", w.load.Error)
	}
	return nil
}

func (w *world) agentIn(s string) error {
	if err := w.start(); err != nil {
		return err
	}
	if s == "active" {
		res, err := w.do(sim.Action{Set: &sim.SetAction{Agent: mainAgent, Active: true}})
		if err != nil {
			return err
		}
		if res.Outcome != spec.Committed || !slices.Equal(res.PlanEvents(mainAgent), []bool{true}) {
			return fmt.Errorf("setup: selecting plan mode on an idle agent returned %q and appended %s, want committed with plan/mode active", res.Outcome, describeEvents(w.planEvents(mainAgent)))
		}
	}
	return nil
}

func (w *world) agentOpen(s string) error {
	if err := w.agentIn(s); err != nil {
		return err
	}
	return w.prompt("Start working on the task.")
}

func (w *world) agentAfterRequest(s string) error {
	if err := w.agentOpen(s); err != nil {
		return err
	}
	if err := w.step("accepted"); err != nil {
		return err
	}
	return w.requestShows(s)
}

// agentMatrix reaches a row of the set-outcome matrix: a logged state, an
// open or closed turn, and possibly a pending selection (a closed turn's
// pending selection is a leftover made after the turn's last accepted
// pre-step).
func (w *world) agentMatrix(logged, turn, pending string) error {
	if pending == logged {
		return fmt.Errorf("scenario bug: a pending selection equal to the logged state")
	}
	switch {
	case turn == "closed" && pending == "nothing":
		return w.agentIn(logged)
	case turn == "open" && pending == "nothing":
		return w.agentOpen(logged)
	case turn == "open":
		if err := w.agentOpen(logged); err != nil {
			return err
		}
	default:
		if err := w.agentAfterRequest(logged); err != nil {
			return err
		}
	}
	if err := w.selects(map[string]string{"active": "plan mode", "inactive": "the default mode"}[pending]); err != nil {
		return err
	}
	if w.last.Outcome != spec.Queued {
		return fmt.Errorf("setup: selecting %s during an open turn returned %q, want queued", pending, w.last.Outcome)
	}
	if turn == "closed" {
		return w.endTurn()
	}
	return nil
}
