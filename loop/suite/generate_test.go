package suite

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/plankit/plankit/loop"
)

// allCaps is a runtime that declares every capability.
var allCaps = loop.Capabilities{Retry: loop.RetryPreStep, Commands: true, UserQuestions: true, HostTools: true, HostListeners: true,
	DuringStream: true, OutsideAppend: true, FailAppend: true, Resume: true, Reload: true, ReviewReplies: true, EmptySteps: true,
	Unload: true, CommandOutcomes: true, AssemblyTools: true}

// drawnBy counts, over many seeds of every property's focus and of the
// wide scripts, the steps each draw of the table drew for a runtime with
// caps.
func drawnBy(caps loop.Capabilities) map[string]int {
	all := map[string]int{}
	add := func(m map[string]int) {
		for k, v := range m {
			all[k] += v
		}
	}
	for _, p := range properties {
		for seed := range 200 {
			_, d := generate(rand.New(rand.NewPCG(uint64(seed), 0)), caps, 0, false, p.focus)
			add(d)
		}
	}
	for seed := range 200 {
		_, d := generate(rand.New(rand.NewPCG(uint64(seed), 1)), caps, 12, true, focus{})
		add(d)
	}
	return all
}

// The generators draw every draw of the step table (for a runtime with
// every capability), and never a draw whose capability the runtime lacks:
// what is drawn comes from the table, and nothing of it is left out.
func TestGeneratorsDrawEveryDrawOfTheTable(t *testing.T) {
	drawn := drawnBy(allCaps)
	var gated []loop.Draw
	for _, k := range loop.StepKinds() {
		for _, d := range k.Draws() {
			if drawn[d.Name] == 0 {
				t.Errorf("draw %s (step %s) is never drawn", d.Name, k.Name())
			}
			if d.Needs != "" {
				gated = append(gated, d)
			}
		}
	}
	if len(gated) < 6 {
		t.Fatalf("only %d capability-gated draws", len(gated))
	}
	for _, d := range gated {
		caps := allCaps
		switch d.Needs {
		case "commands":
			caps.Commands = false
		case "outsideAppend":
			caps.OutsideAppend = false
		case "failAppend":
			caps.FailAppend = false
		case "resume":
			caps.Resume = false
		case "reload":
			caps.Reload = false
		case "unload":
			caps.Unload = false
		case "duringStream":
			caps.DuringStream = false
		default:
			t.Fatalf("draw %s needs %s, which this test cannot take away", d.Name, d.Needs)
		}
		if n := drawnBy(caps)[d.Name]; n != 0 {
			t.Errorf("draw %s needs %s, yet is drawn %d times for a runtime without it", d.Name, d.Needs, n)
		}
	}
	for _, m := range []loop.Mix{generalMix, wideMix} {
		for _, w := range m.Draws {
			if !slices.ContainsFunc(loop.StepKinds(), func(k loop.StepKind) bool {
				return slices.ContainsFunc(k.Draws(), func(d loop.Draw) bool { return d.Name == w.Draw })
			}) {
				t.Errorf("a mix weights %s, which no kind of step draws", w.Draw)
			}
		}
	}
}
