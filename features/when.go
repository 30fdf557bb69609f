package features

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/plankit/plankit/internal/third_party/godog"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// registerWhen binds the steps that act on the runtime.
func (w *world) registerWhen(sc *godog.ScenarioContext) {
	sc.Step(re(`^the user prompts "([^"]*)"$`), w.prompt)
	sc.Step(re(`^the user (?:selects|has selected) (plan mode|the default mode)$`), w.selects)
	sc.Step(re(`^a step is (accepted|rejected|aborted)$`), w.step)
	sc.Step(re(`^a step is accepted and the model answers "([^"]*)"$`), w.stepText)
	sc.Step(re(`^a step's request fails$`), w.stepFails)
	sc.Step(re(`^the request is retried$`), w.retry)
	sc.Step(re(`^the turn ends$`), w.endTurn)
	sc.Step(re(`^the agent goes idle$`), w.idle)
	sc.Step(re(`^the process restarts$`), w.restart)
	sc.Step(re(`^the plan-mode service is reloaded$`), w.reload)
	sc.Step(re(`^the plan-mode plugin is unloaded$`), func() error {
		_, err := w.do(sim.Action{Unload: &sim.UnloadAction{}})
		return err
	})
	sc.Step(re(`^the plan-mode plugin is loaded again$`), func() error {
		_, err := w.do(sim.Action{Load: &sim.LoadAction{}})
		return err
	})
	sc.Step(re(`^the session is forked as "([^"]*)"$`), w.fork)
	sc.Step(re(`^the session is compacted$`), w.compact)
	sc.Step(re(`^the host fails the plugin's next (\d+) appends?$`), w.fault)
	sc.Step(re(`^the user types "([^"]*)"$`), w.command)
	sc.Step(re(`^the model calls exit_plan_mode with the plan "([^"]*)"(?: and the user (approves|keeps planning|dismisses the review)(?: with the feedback "([^"]*)")?)?$`), w.exitTool)
	sc.Step(re(`^the model calls exit_plan_mode (?:twice|\d+ times) in one tool batch:$`), w.exitToolBatch)
	sc.Step(re(`^the model calls exit_plan_mode with the arguments (\{.*\})$`), w.exitToolArgs)
	sc.Step(re(`^the model calls exit_plan_mode and the plan-mode service is reloaded during the review$`), w.exitToolReload)
	sc.Step(re(`^foldPlanMode runs over the events "([^"]*)" up to (the default end|-?\d+)$`), w.fold)
}

func (w *world) prompt(text string) error {
	_, err := w.do(sim.Action{Prompt: &sim.TextAction{Agent: mainAgent, Text: text}})
	return err
}

func (w *world) selects(mode string) error {
	_, err := w.do(sim.Action{Set: &sim.SetAction{Agent: mainAgent, Active: mode == "plan mode"}})
	return err
}

var decisions = map[string]string{"accepted": sim.Accept, "rejected": sim.Reject, "aborted": sim.Abort}

func (w *world) step(how string) error {
	_, err := w.do(sim.Action{Step: &sim.StepAction{Agent: mainAgent, Decision: decisions[how]}})
	return err
}

func (w *world) stepText(text string) error {
	_, err := w.do(sim.Action{Step: &sim.StepAction{Agent: mainAgent, Model: &sim.Model{Text: text}}})
	return err
}

func (w *world) stepFails() error {
	_, err := w.do(sim.Action{Step: &sim.StepAction{Agent: mainAgent, Request: "fail"}})
	return err
}

func (w *world) retry() error {
	_, err := w.do(sim.Action{Retry: &sim.StepAction{Agent: mainAgent}})
	return err
}

func (w *world) endTurn() error {
	_, err := w.do(sim.Action{EndTurn: &sim.EndTurnAction{Agent: mainAgent}})
	return err
}

func (w *world) idle() error {
	_, err := w.do(sim.Action{Idle: &sim.AgentAction{Agent: mainAgent}})
	return err
}

func (w *world) restart() error {
	_, err := w.do(sim.Action{Restart: &struct{}{}})
	return err
}

func (w *world) reload() error {
	_, err := w.do(sim.Action{Reload: &struct{}{}})
	return err
}

func (w *world) fork(as string) error {
	_, err := w.do(sim.Action{Fork: &sim.ForkAction{Agent: mainAgent, As: as}})
	return err
}

func (w *world) compact() error {
	_, err := w.do(sim.Action{Compact: &sim.AgentAction{Agent: mainAgent}})
	return err
}

func (w *world) fault(n int) error {
	_, err := w.do(sim.Action{Fault: &sim.FaultAction{Appends: n}})
	return err
}

func (w *world) command(input string) error {
	_, err := w.do(sim.Action{Command: &sim.CommandAction{Agent: mainAgent, Input: input}})
	return err
}

// unescape turns the \n written in a step into a newline.
func unescape(s string) string { return strings.ReplaceAll(s, `\n`, "\n") }

var answers = map[string]string{"approves": sim.Approve, "keeps planning": sim.KeepPlanning, "dismisses the review": sim.Dismiss}

func (w *world) exitTool(plan, answer, feedback string) error {
	args := sim.JSON(map[string]string{"plan": unescape(plan)})
	review := &sim.Review{Answer: answers[answer], Feedback: feedback}
	return w.callExit(args, review)
}

// exitToolBatch is one step whose model calls exit_plan_mode once per table
// row (columns plan, answer, feedback), in order: one tool batch, with no
// pre-step between the calls.
func (w *world) exitToolBatch(table *godog.Table) error {
	rows, err := tableRows(table, "batch", false, "plan", "answer", "feedback")
	if err != nil {
		return err
	}
	var calls []sim.ToolCall
	for _, row := range rows {
		answer, ok := answers[row["answer"]]
		if !ok {
			return fmt.Errorf("scenario bug: unknown answer %q (approves, keeps planning, dismisses the review)", row["answer"])
		}
		calls = append(calls, sim.ToolCall{Name: spec.ExitTool, Args: sim.JSON(map[string]string{"plan": unescape(row["plan"])}),
			Review: &sim.Review{Answer: answer, Feedback: row["feedback"]}})
	}
	_, err = w.do(sim.Action{Step: &sim.StepAction{Agent: mainAgent, Model: &sim.Model{Calls: calls}}})
	return err
}

func (w *world) exitToolArgs(args string) error {
	if !json.Valid([]byte(args)) {
		return fmt.Errorf("scenario bug: arguments %s are not JSON", args)
	}
	return w.callExit(json.RawMessage(args), &sim.Review{Answer: sim.Approve})
}

func (w *world) exitToolReload() error {
	args := sim.JSON(map[string]string{"plan": "# Plan\n\n1. Read the code.\n2. Change it."})
	return w.callExit(args, &sim.Review{Answer: sim.Approve, Reload: true})
}

func (w *world) callExit(args json.RawMessage, review *sim.Review) error {
	_, err := w.do(sim.Action{Step: &sim.StepAction{Agent: mainAgent, Model: &sim.Model{
		Calls: []sim.ToolCall{{Name: spec.ExitTool, Args: args, Review: review}},
	}}})
	return err
}

func (w *world) fold(list, end string) error {
	var specs []sim.FoldEventSpec
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		switch item {
		case "":
		case "active", "inactive":
			specs = append(specs, sim.FoldEventSpec{Type: spec.TypePlanMode, Data: sim.JSON(spec.PlanModeData{Active: item == "active"})})
		default:
			specs = append(specs, sim.FoldEventSpec{Type: item})
		}
	}
	act := &sim.FoldAction{Events: specs}
	if end != "the default end" {
		n, err := strconv.Atoi(end)
		if err != nil {
			return fmt.Errorf("scenario bug: end %q", end)
		}
		act.End = &n
	}
	if err := w.start(); err != nil {
		return err
	}
	_, err := w.do(sim.Action{Fold: act})
	return err
}
