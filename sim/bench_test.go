package sim_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// recordedLog synthesises a durable log of about n events: closed turns of
// steps with requests, and a plan-mode flip every few turns.
func recordedLog(n int) []sim.Event {
	events := make([]sim.Event, 0, n+16)
	add := func(typ, data string) {
		events = append(events, sim.Event{Seq: len(events), Type: typ, Data: json.RawMessage(data)})
	}
	header := `{"header":{"system":[{"name":"runtime:base","order":0,"text":"base"}],"tools":[{"name":"exit_plan_mode"}]},"reason":"resume"}`
	for turn := 1; len(events) < n; turn++ {
		add(spec.TypeTurnStart, fmt.Sprintf(`{"turn":%d}`, turn))
		if turn%4 == 0 {
			add(spec.TypePlanMode, fmt.Sprintf(`{"active":%v}`, turn%8 == 0))
		}
		for step := 1; step <= 3; step++ {
			add(spec.TypeStepStart, fmt.Sprintf(`{"turn":%d,"step":%d}`, turn, step))
			add(spec.TypeUserMessage, `{"content":[{"type":"text","text":"go on"}],"role":"user","source":{"kind":"user"}}`)
			add(spec.TypeRequestHeader, header)
			add(spec.TypeAssistant, `{"message":{"content":[{"text":"OK.","type":"text"}],"role":"assistant"}}`)
			add(spec.TypeStepEnd, fmt.Sprintf(`{"turn":%d,"step":%d}`, turn, step))
		}
		add(spec.TypeTurnEnd, fmt.Sprintf(`{"turn":%d,"reason":{"kind":"completed"}}`, turn))
	}
	return events
}

// BenchmarkStep measures simulated steps per second against the in-process
// reference: each iteration selects a state mid-turn and runs one accepted
// step that appends it (pre-step, request derivation, model output).
func BenchmarkStep(b *testing.B) {
	rt := newRuntime(b, sim.Options{})
	benchSteps(b, rt)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}

// benchSteps opens a turn on rt, then times b.N accepted steps, each after
// selecting a state mid-turn, so that every step appends it.
// The loop calls Do itself: the tests' do helper (t.Helper walks the
// stack) would be timed with the step.
func benchSteps(b *testing.B, rt *sim.Runtime) {
	do(b, rt, prompt)
	sets := [2]sim.Action{
		{Set: &sim.SetAction{Agent: "main", Active: true}},
		{Set: &sim.SetAction{Agent: "main", Active: false}},
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := rt.Do(sets[i%2]); err != nil {
			b.Fatal(err)
		}
		if _, err := rt.Do(step); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStepAtLogSize measures the per-step cost when the session log
// already holds 10^3, 10^5 and 10^6 events. Flat figures show that no
// operation rescans the log.
func BenchmarkStepAtLogSize(b *testing.B) {
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		events := recordedLog(n)
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			rt := newRuntime(b, sim.Options{Logs: map[string][]sim.Event{"main": events}})
			benchSteps(b, rt)
		})
	}
}
