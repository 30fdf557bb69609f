package trace

import (
	"testing"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

func TestMarshalRoundTrips(t *testing.T) {
	in := &Trace{Name: "round trip", Clauses: []string{"PEND-4"}, Script: []Entry{
		{Action: sim.Action{Prompt: &sim.TextAction{Agent: "main", Text: "hi"}}},
		{Action: sim.Action{Set: &sim.SetAction{Agent: "main", Active: true}}, Expect: &Expect{Outcome: spec.Queued}},
	}}
	out, b := roundTrip(t, in)
	if len(out.Script) != 2 || out.Script[1].Set == nil || out.Script[1].Expect.Outcome != spec.Queued {
		t.Fatalf("round trip lost data:\n%s", b)
	}
	if out.Script[1].Pos.Line == 0 {
		t.Fatalf("entry position not recorded")
	}
}

func TestMarshalKeepsEmptyExpectations(t *testing.T) {
	in := &Trace{Name: "empty lists", Script: []Entry{
		{Action: sim.Action{Prompt: &sim.TextAction{Agent: "main", Text: "hi"}}, Expect: &Expect{PlanMode: []bool{}, Appended: []EventExpect{}, Tools: []string{}}},
	}}
	out, b := roundTrip(t, in)
	x := out.Script[0].Expect
	if x == nil || x.PlanMode == nil || x.Appended == nil || x.Tools == nil {
		t.Fatalf("empty expectations were dropped:\n%s", b)
	}
}

// roundTrip marshals in and parses the YAML back, returning both.
func roundTrip(t *testing.T, in *Trace) (*Trace, []byte) {
	t.Helper()
	b, err := Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Parse("roundtrip.yaml", b)
	if err != nil {
		t.Fatalf("parse of marshalled trace: %v\n%s", err, b)
	}
	return out, b
}
