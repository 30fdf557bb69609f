package loop

import (
	"encoding/json"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
)

// A request/header logged while plan mode is unloaded carries no exit
// tool and no plan:policy, whatever the log's fold says (SVC-2); the log
// does not record the unload, so the lint rule on the catalog compares
// only headers that show plan mode composed. The built-in runtime around
// the reference passes its own checks on the script that once failed it:
// set true; unload; a turn; restart; "/plan  off "; a turn.
func TestBuiltinPassesItsChecksAcrossAnUnload(t *testing.T) {
	passesItsChecks(t, Trace{
		Config:   json.RawMessage(`{"section":"Plan first."}`),
		Services: &sim.Services{Commands: true, UserQuestions: true},
		Steps: []Step{
			{Set: &SetRequest{Agent: "main", Active: true}},
			{Unload: &struct{}{}},
			{Turn: &TurnRequest{Agent: "main", Prompt: "Go."}},
			{Restart: &struct{}{}},
			{Command: &CommandRequest{Agent: "main", Input: "/plan  off "}},
			{Turn: &TurnRequest{Agent: "main", Prompt: "Go on."}},
		},
	})
}

// passesItsChecks plays tr on the built-in runtime around the faithful
// reference and fails t unless it keeps every check; it returns the
// record.
func passesItsChecks(t *testing.T, tr Trace) Record {
	t.Helper()
	rt, err := NewBuiltin(reference.Factory(reference.Options{})(), RetryPreStep)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Run(rt, tr)
	if err != nil {
		t.Fatal(err)
	}
	if fs := Verdict(tr, rec); len(fs) > 0 {
		t.Errorf("the built-in runtime fails its own checks: %s", Describe(fs))
	}
	return rec
}

// A notice plan mode recorded before an unload (an idle commit's, waiting
// in the runtime's inbox) may still reach the next request while plan mode
// is unloaded: it was handed to the runtime, which SVC-2 does not speak of.
// The built-in runtime delivers it, and passes its own checks.
func TestBuiltinMayDeliverANoticeOwedBeforeAnUnload(t *testing.T) {
	rec := passesItsChecks(t, Trace{
		Config: json.RawMessage(`{"section":"Plan first."}`),
		Steps: []Step{
			{Turn: &TurnRequest{Agent: "main", Prompt: "Look."}},
			{Set: &SetRequest{Agent: "main", Active: true}},
			{Unload: &struct{}{}},
			{Turn: &TurnRequest{Agent: "main", Prompt: "Go."}},
		},
	})
	if Notices(rec.Steps[3]) != 1 {
		t.Fatalf("the turn after the unload logs %d notices, want the one owed", Notices(rec.Steps[3]))
	}
}

// A /plan <message> typed after a turn's last step waits in the runtime's
// queue for the next turn; a restart between turns, which no log records,
// loses it (PEND-8). The built-in runtime loses it and passes its own
// checks on the script rapid once drew: the command while the last
// response streams, a restart, a turn.
func TestBuiltinPassesItsChecksWhenARestartLosesASteer(t *testing.T) {
	passesItsChecks(t, Trace{
		Config:   json.RawMessage(`{"section":"Plan first."}`),
		Services: &sim.Services{Commands: true},
		Steps: []Step{
			{Turn: &TurnRequest{Agent: "main", Prompt: "Go.", Script: Script{Responses: []Response{{Text: "Done.", During: []HostAction{{ID: "h1", Command: &InputArg{Input: "/plan sketch the migration first"}}}}}}}},
			{Restart: &struct{}{}},
			{Turn: &TurnRequest{Agent: "main", Prompt: "Go on."}},
		},
	})
}
