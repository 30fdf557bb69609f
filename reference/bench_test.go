package reference

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// BenchmarkPortAtLogSize measures the reference's own per-operation cost
// (set, pre-step, assemble, get) with 10^3, 10^5 and 10^6 events already in
// the session: the cached folds keep it flat.
func BenchmarkPortAtLogSize(b *testing.B) {
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		events := make([]sim.Event, n)
		for i := range events {
			typ := spec.TypeUserMessage
			switch i % 50 {
			case 0:
				typ = spec.TypePlanMode
			case 1:
				typ = spec.TypeRequestHeader
			}
			events[i] = sim.Event{Seq: i, Type: typ, Data: json.RawMessage(fmt.Sprintf(`{"active":%v}`, i%100 == 0))}
		}
		events = append(events, sim.Event{Seq: n, Type: spec.TypeTurnStart, Data: json.RawMessage(`{"turn":1}`)})
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			p := NewPort(Options{})
			p.Start()
			p.Load(sim.LoadRequest{Config: json.RawMessage(`{"section":"x"}`)})
			if err := p.Open(sim.OpenRequest{Agent: "a", Events: events}); err != nil {
				b.Fatal(err)
			}
			call := sim.Call{Agent: "a"}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p.Set(sim.SetRequest{Call: call, Active: i%2 == 0})
				p.PreStep(sim.PreStepRequest{Call: call, Downstream: sim.Decision{Kind: sim.Enter}})
				p.Assemble(sim.AssembleRequest{Call: call})
				p.Get(call)
			}
		})
	}
}
