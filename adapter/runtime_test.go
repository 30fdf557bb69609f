package adapter_test

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/sim"
)

func runtimePool(t *testing.T, args ...string) *adapter.Pool {
	t.Helper()
	pool, err := adapter.NewRuntimePool(adapter.Options{Command: append([]string{build(t, "./adapter/testdata/fakeruntime")}, args...), Timeout: 2 * time.Second, NoSpare: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

var oneTurn = loop.Trace{Config: []byte(`{"section":"Plan first."}`), Steps: []loop.Step{{Turn: &loop.TurnRequest{Agent: "main", Prompt: "Go."}}}}

// The runtime driver shares the plugin driver's process handling: crashes
// are reported with the stderr tail, hangs time out, replies that say
// unsupported skip, and observations that contradict the log are
// protocol failures.
func TestRuntimeDriverFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	rec, err := loop.Run(runtimePool(t, "ok", "none").Runtime(), oneTurn)
	if err != nil || len(rec.Logs["main"]) == 0 {
		t.Fatalf("ok: %v (%d events)", err, len(rec.Logs["main"]))
	}
	_, err = loop.Run(runtimePool(t, "crash", "turn").Runtime(), oneTurn)
	var re *adapter.RequestError
	if !errors.As(err, &re) || re.Kind != adapter.KindExited || !strings.Contains(err.Error(), "the loop fell over") {
		t.Errorf("crash: %v", err)
	}
	_, err = loop.Run(runtimePool(t, "hang", "turn").Runtime(), oneTurn)
	if !errors.As(err, &re) || re.Kind != adapter.KindTimeout {
		t.Errorf("hang: %v", err)
	}
	_, err = loop.Run(runtimePool(t, "unsupported", "turn").Runtime(), oneTurn)
	if !loop.IsSkip(err) {
		t.Errorf("unsupported: %v, want a skip", err)
	}
	// A host that caught an exception inside a handler says so: an
	// implementation error carrying the exception's text, not a command
	// reply to judge.
	cmd := loop.Trace{Config: []byte(`{"section":"Plan first."}`), Steps: []loop.Step{{Command: &loop.CommandRequest{Agent: "main", Input: "/plan"}}}}
	_, err = loop.Run(runtimePool(t, "exception", "command").Runtime(), cmd)
	if !errors.As(err, &re) || re.Kind != adapter.KindException || !strings.Contains(err.Error(), "TypeError: agent.steer is not a function") {
		t.Errorf("exception: %v", err)
	}
	// A runtime that declares commandOutcomes (the built-in runtime does)
	// says what every successful command reply announces (minor 5).
	_, err = loop.Run(runtimePool(t, "unannounced", "command").Runtime(), cmd)
	if !errors.As(err, &re) || re.Kind != adapter.KindProtocol || !strings.Contains(err.Error(), "without saying which outcome it announces") {
		t.Errorf("unannounced: %v", err)
	}
	// A runtime that does not declare assemblyTools (an older minor
	// version) is not sent a load with a tool a later prompt-assembly
	// listener adds: it is unsupported, so the check is skipped.
	rt := runtimePool(t, "noassembly", "start").Runtime()
	if _, err := rt.Start(); err != nil {
		t.Fatal(err)
	}
	_, err = rt.Load(loop.LoadRequest{HostTools: []loop.HostTool{{Name: "search", Assembly: true}}})
	if !loop.IsSkip(err) || !strings.Contains(err.Error(), "assemblyTools") {
		t.Errorf("noassembly: %v, want a skip naming assemblyTools", err)
	}
	_ = rt.Stop()
	_, err = loop.Run(runtimePool(t, "gap", "turn").Runtime(), oneTurn)
	var oe *loop.ObservationError
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "has seq 1") {
		t.Errorf("gap: %v", err)
	}
}

// A runtime's restarts follow --restarts by the plugin level's rule: under
// auto a runtime made for a check about what a restart loses (or made
// without a check) restarts for real the first time and resets after,
// unless a get reported a selection pending; a check in the fixed sample
// restarts for real every time; any other check resets. Under real and
// reset every restart is that kind.
func TestRuntimeRestartPolicy(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	restart := loop.Step{Restart: &struct{}{}}
	twice := loop.Trace{Config: []byte(`{"section":"Plan first."}`), Steps: []loop.Step{restart, restart}}
	// a selection left pending by the turn's streaming, then a get that
	// reports it, before the second restart
	pending := loop.Trace{Config: []byte(`{"section":"Plan first."}`), Steps: []loop.Step{restart,
		{Turn: &loop.TurnRequest{Agent: "main", Prompt: "Go.", Script: loop.Script{Responses: []loop.Response{{Text: "x", During: []loop.HostAction{{ID: "s", Set: &loop.ActiveArg{Active: true}}}}}}}},
		{Get: &loop.AgentRequest{Agent: "main"}}, restart}}
	sampled, other := "", ""
	for i := 0; sampled == "" || other == ""; i++ {
		id := fmt.Sprintf("rt-invariants/%02d", i)
		if adapter.RealRestarts(sim.Check{ID: id}) {
			sampled = cmp.Or(sampled, id)
		} else {
			other = cmp.Or(other, id)
		}
	}
	for _, c := range []struct {
		name  string
		mode  adapter.RestartMode
		rt    func(*adapter.Pool) loop.Runtime
		trace loop.Trace
		want  adapter.RestartCounts
	}{
		{"auto, no check", adapter.RestartAuto, func(p *adapter.Pool) loop.Runtime { return p.Runtime() }, twice, adapter.RestartCounts{Real: 1, Reset: 1}},
		{"auto, PEND-8", adapter.RestartAuto, func(p *adapter.Pool) loop.Runtime { return p.RuntimeFor(sim.Check{ID: other, ProcessLocal: true}) }, twice, adapter.RestartCounts{Real: 1, Reset: 1}},
		{"auto, PEND-8, pending", adapter.RestartAuto, func(p *adapter.Pool) loop.Runtime { return p.RuntimeFor(sim.Check{ID: other, ProcessLocal: true}) }, pending, adapter.RestartCounts{Real: 2}},
		{"auto, sampled", adapter.RestartAuto, func(p *adapter.Pool) loop.Runtime { return p.RuntimeFor(sim.Check{ID: sampled}) }, twice, adapter.RestartCounts{Real: 2}},
		{"auto, other", adapter.RestartAuto, func(p *adapter.Pool) loop.Runtime { return p.RuntimeFor(sim.Check{ID: other}) }, pending, adapter.RestartCounts{Reset: 2}},
		{"real", adapter.RestartReal, func(p *adapter.Pool) loop.Runtime { return p.RuntimeFor(sim.Check{ID: other}) }, twice, adapter.RestartCounts{Real: 2}},
		{"reset", adapter.RestartReset, func(p *adapter.Pool) loop.Runtime { return p.Runtime() }, pending, adapter.RestartCounts{Reset: 2}},
		// a runtime without reuse is restarted for real, and counted so
		{"reset, no reuse", adapter.RestartReset, func(p *adapter.Pool) loop.Runtime { return p.Runtime() }, twice, adapter.RestartCounts{Real: 2}},
	} {
		mode := "ok"
		if strings.HasSuffix(c.name, "no reuse") {
			mode = "noreuse"
		}
		pool, err := adapter.NewRuntimePool(adapter.Options{Command: []string{build(t, "./adapter/testdata/fakeruntime"), mode, "start"}, Timeout: 2 * time.Second, Restarts: c.mode})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := loop.Run(c.rt(pool), c.trace)
		pool.Close()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := pool.Restarts(); got != c.want {
			t.Errorf("%s: restarts %+v, want %+v", c.name, got, c.want)
		}
		if c.trace.Steps[len(c.trace.Steps)-1].Restart != nil && len(c.trace.Steps) > 2 {
			if g := rec.Steps[2].Get; g == nil || g.Pending == nil || !*g.Pending {
				t.Errorf("%s: the get before the last restart reported %+v, want a selection pending", c.name, g)
			}
		}
	}
}
