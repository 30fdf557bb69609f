package features

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/internal/third_party/godog"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// registerReview binds the steps about every way a plan review ends (the
// seam's structured replies and its failures) and about notices across a
// whole turn (retries).
func (w *world) registerReview(sc *godog.ScenarioContext) {
	sc.Step(re(`^the model calls exit_plan_mode with the plan "([^"]*)" and the review seam replies:$`), w.exitToolReply)
	sc.Step(re(`^the model calls exit_plan_mode with the plan "([^"]*)" and the review seam replies with no answer$`), func(plan string) error {
		return w.callExit(planArgs(plan), &sim.Review{Reply: &sim.ReviewReply{Answers: []sim.ReviewAnswer{}}})
	})
	sc.Step(re(`^the model calls exit_plan_mode with the plan "([^"]*)" and the review seam (throws|is aborted by the step's signal|refuses the agent|has no way to ask)$`), w.exitToolSeamFails)
	sc.Step(re(`^the turn has ended with the reason "([a-z-]+)"$`), w.turnEndedWith)
	sc.Step(re(`^the turn carries exactly (no|one|two) plan-mode notices?$`), w.turnNotices)
}

func planArgs(plan string) json.RawMessage {
	return sim.JSON(map[string]string{"plan": unescape(plan)})
}

// seamFailures maps the step's words to sim's review failures.
var seamFailures = map[string]string{
	"throws":                          sim.ReviewThrows,
	"is aborted by the step's signal": sim.ReviewAborted,
	"refuses the agent":               sim.ReviewRefused,
	"has no way to ask":               sim.ReviewUnavailable,
}

func (w *world) exitToolSeamFails(plan, how string) error {
	return w.callExit(planArgs(plan), &sim.Review{Fail: seamFailures[how]})
}

// options maps the words of a reply table's selected column to the
// options' meanings.
var options = map[string]string{"approve": sim.Approve, "keep planning": sim.KeepPlanning}

// exitToolReply scripts the seam's reply as a table: one row per answer,
// columns question ("the review" or "another question"), selected (the
// options selected, comma-separated: approve, keep planning; empty for
// none) and custom (the free text; empty for none).
func (w *world) exitToolReply(plan string, table *godog.Table) error {
	rows, err := tableRows(table, "reply", false, "question", "selected", "custom")
	if err != nil {
		return err
	}
	reply := &sim.ReviewReply{Answers: []sim.ReviewAnswer{}}
	for _, row := range rows {
		var a sim.ReviewAnswer
		switch q := row["question"]; q {
		case "the review":
		case "another question":
			a.Question = "scope-check"
		default:
			return fmt.Errorf("scenario bug: question %q is neither \"the review\" nor \"another question\"", q)
		}
		if sel := strings.TrimSpace(row["selected"]); sel != "" {
			for _, s := range strings.Split(sel, ",") {
				o, ok := options[strings.TrimSpace(s)]
				if !ok {
					return fmt.Errorf("scenario bug: option %q is neither approve nor keep planning", s)
				}
				a.Selected = append(a.Selected, o)
			}
		}
		a.Custom = row["custom"]
		reply.Answers = append(reply.Answers, a)
	}
	return w.callExit(planArgs(plan), &sim.Review{Reply: reply})
}

// turnEndedWith checks that the last action ended the turn, with reason.
func (w *world) turnEndedWith(reason string) error {
	for i := len(w.last.Appended) - 1; i >= 0; i-- {
		a := w.last.Appended[i]
		if a.Agent != mainAgent || a.Event.Type != spec.TypeTurnEnd {
			continue
		}
		// The last turn/end, its reason read as every reader reads it.
		if got := sim.TurnEndReason(a.Event.Data); got != reason {
			return &observedError{attribution.ObsEvents, fmt.Errorf("the turn ended with the reason %q, want %q", got, reason)}
		}
		return nil
	}
	var types []string
	for _, a := range w.last.Appended {
		if a.Agent == mainAgent {
			types = append(types, a.Event.Type)
		}
	}
	return &observedError{attribution.ObsEvents, fmt.Errorf("%s did not end the turn (appended %s), want it ended %q", w.last.Action.Name(), strings.Join(types, ", "), reason)}
}

// turnNotices counts the plan-mode notices the main agent's log holds
// since its last turn/start: across every step and retry of the turn, the
// model is told of a change exactly once (STEP-6).
func (w *world) turnNotices(n string) error {
	log := w.rt.Log(mainAgent)
	start := 0
	for i, e := range log {
		if e.Type == spec.TypeTurnStart {
			start = i
		}
	}
	var texts []string
	for _, e := range log[start:] {
		if e.Type != spec.TypeUserMessage {
			continue
		}
		if m, err := sim.MessageOf(e.Data); err == nil && m.IsPlanNotice() {
			texts = append(texts, m.Text)
		}
	}
	if len(texts) != counts[n] {
		return &observedError{attribution.ObsNotices, fmt.Errorf("the turn logged %d plan-mode notice(s) %q, want %d", len(texts), texts, counts[n])}
	}
	return nil
}
