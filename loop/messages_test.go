package loop

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

func ev(seq int, typ, data string) sim.Event {
	return sim.Event{Seq: seq, Type: typ, Data: json.RawMessage(data)}
}

// A plan/mode rendered into a request's messages, where the log holds it,
// is LOG-1; the same transcript without it, or an unexplained message away
// from any plan/mode, is not judged.
func TestPlanModeInMessages(t *testing.T) {
	log := []sim.Event{
		ev(0, spec.TypeTurnStart, `{"turn":1}`),
		ev(1, spec.TypePlanMode, `{"active":true}`),
		ev(2, spec.TypeUserMessage, `{"role":"user","content":[{"type":"text","text":"Plan."}],"source":{"kind":"user"}}`),
		ev(3, spec.TypeRequestHeader, `{"reason":"initial"}`),
	}
	user := func(text string) Message { return Message{Role: "user", Text: text, Source: &sim.Source{Kind: "user"}} }
	faithful := []ModelRequest{{At: 3, Messages: []Message{user("Plan.")}}}
	if fs := planModeInMessages("main", log, faithful); len(fs) != 0 {
		t.Fatalf("faithful request: %v", fs)
	}
	rendered := []ModelRequest{{At: 3, Messages: []Message{user("[plan mode on]"), user("Plan.")}}}
	fs := planModeInMessages("main", log, rendered)
	if len(fs) != 1 || fs[0].Rule != attribution.InvPlanModeNotInMessages || fs[0].Clause != "LOG-1" || !strings.Contains(fs[0].Message, "seq 1") {
		t.Fatalf("rendered plan/mode: %v", fs)
	}
	elsewhere := []ModelRequest{{At: 3, Messages: []Message{user("Plan."), user("a reminder")}}}
	if fs := planModeInMessages("main", log, elsewhere); len(fs) != 0 {
		t.Fatalf("a message away from any plan/mode: %v", fs)
	}
}

// A request sent after the model ended its turn, whose step appended
// plan/mode, is PEND-2; a request after tool calls is the loop going on.
func TestForcedSteps(t *testing.T) {
	events := []sim.Event{
		ev(0, spec.TypeTurnStart, `{"turn":1}`),
		ev(1, spec.TypeRequestHeader, `{"reason":"initial"}`),
		ev(2, spec.TypeAssistant, `{"turn":1,"step":1}`),
		ev(3, spec.TypePlanMode, `{"active":true}`),
		ev(4, spec.TypeRequestHeader, `{"reason":"change"}`),
	}
	reqs := []ModelRequest{{At: 2}, {At: 5}}
	record := func(r Response) Record {
		turn := &TurnRequest{Agent: "main", Prompt: "Go.", Script: Script{Responses: []Response{r, {Text: "done"}}}}
		return Record{Steps: []StepDone{{Step: Step{Turn: turn}, Obs: Observation{Events: events, Requests: reqs}}}}
	}
	fs := forcedSteps(record(Response{Text: "ok"}))
	if len(fs) != 1 || fs[0].Rule != attribution.InvSelectionNoStep || fs[0].Clause != "PEND-2" {
		t.Fatalf("a step forced after the turn ended: %v", fs)
	}
	if fs := forcedSteps(record(Response{Calls: []Call{{ID: "c1", Name: "read", Args: json.RawMessage(`{}`)}}})); len(fs) != 0 {
		t.Fatalf("a step after tool calls: %v", fs)
	}
}
