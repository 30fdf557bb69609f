package trace

import (
	"testing"

	"github.com/plankit/plankit/sim"
)

func TestMarshalRoundTrips(t *testing.T) {
	in := &Trace{Name: "round trip", Clauses: []string{"PEND-4"}, Script: []Entry{
		{Action: sim.Action{Prompt: &sim.TextAction{Agent: "main", Text: "hi"}}},
		{Action: sim.Action{Set: &sim.SetAction{Agent: "main", Active: true}}, Expect: &Expect{Outcome: sim.Queued}},
	}}
	b, err := Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Parse("roundtrip.yaml", b)
	if err != nil {
		t.Fatalf("parse of marshalled trace: %v\n%s", err, b)
	}
	if len(out.Script) != 2 || out.Script[1].Set == nil || out.Script[1].Expect.Outcome != sim.Queued {
		t.Fatalf("round trip lost data:\n%s", b)
	}
	if out.Script[1].Pos.Line == 0 {
		t.Fatalf("entry position not recorded")
	}
}
