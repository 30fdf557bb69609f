//go:build unix

package adapter_test

import (
	"errors"
	"fmt"
	"syscall"
	"testing"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/sim"
)

func gone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

// A restart really ends the process and starts another. Without reuse the
// process has ended when Stop returns.
func TestRestartIsARealProcess(t *testing.T) {
	pool := newPool(t, adapter.Options{Command: []string{plankitBin(t), "serve"}, NoReuse: true})
	port := pool.Port()
	if _, err := port.Start(); err != nil {
		t.Fatal(err)
	}
	first := port.PID()
	if err := port.Stop(); err != nil {
		t.Fatal(err)
	}
	if port.PID() != 0 || !gone(first) {
		t.Fatalf("process %d still exists after Stop", first)
	}
	id, err := port.Start()
	if err != nil {
		t.Fatal(err)
	}
	if second := port.PID(); second == first || second == 0 {
		t.Fatalf("restart reused pid %d", first)
	}
	if id.Name != "plankit-reference" || port.StartResult().Protocol != adapter.ProtocolVersion || !port.StartResult().Capabilities.Reload {
		t.Fatalf("unexpected start result %+v", port.StartResult())
	}
	if err := port.Stop(); err != nil {
		t.Fatal(err)
	}
}

// With reuse, a stopped process serves the next scenario after a start
// resets it, but a restart within a scenario still gets a new process and
// the old one is ended.
func TestReuseIsForOtherScenariosOnly(t *testing.T) {
	pool := newPool(t, adapter.Options{Command: []string{plankitBin(t), "serve"}})
	a := pool.Port()
	if _, err := a.Start(); err != nil {
		t.Fatal(err)
	}
	first := a.PID()
	if !a.StartResult().Capabilities.Reuse {
		t.Fatal("plankit serve does not declare reuse")
	}
	a.Stop()
	if _, err := a.Start(); err != nil { // a restart
		t.Fatal(err)
	}
	if a.PID() == first || !gone(first) {
		t.Fatalf("restart: pid %d -> %d, old one gone: %v", first, a.PID(), gone(first))
	}
	second := a.PID()
	if _, err := a.Load(sim.LoadRequest{Config: []byte(`{"section":"x"}`)}); err != nil {
		t.Fatal(err)
	}
	if err := a.Open(sim.OpenRequest{Agent: "main"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Get(sim.Call{Agent: "main"}); err != nil {
		t.Fatal(err)
	}
	a.Stop() // end of the scenario: parked

	b := pool.Port()
	if _, err := b.Start(); err != nil {
		t.Fatal(err)
	}
	if b.PID() != second {
		t.Fatalf("the next scenario got pid %d, not the parked %d", b.PID(), second)
	}
	// The start reset it: no agent from before is known.
	if _, err := b.Get(sim.Call{Agent: "main"}); err == nil {
		t.Fatal("a reused process still knows the previous scenario's agent")
	}
}

// restartOnce starts a port, loads and opens an agent, sets plan mode (a
// pending selection: process-local state) and restarts it. It returns the
// pids before and after (as the runtime does: StopForRestart, then Start)
// and whether the agent was still known after the
// restart, before any open.
func restartOnce(t *testing.T, port *adapter.Port) (before, after int, knownAfter bool) {
	t.Helper()
	if _, err := port.Start(); err != nil {
		t.Fatal(err)
	}
	before = port.PID()
	if _, err := port.Load(sim.LoadRequest{Config: []byte(`{"section":"x"}`)}); err != nil {
		t.Fatal(err)
	}
	if err := port.Open(sim.OpenRequest{Agent: "main"}); err != nil {
		t.Fatal(err)
	}
	if _, err := port.Set(sim.SetRequest{Call: sim.Call{Agent: "main"}, Active: true}); err != nil {
		t.Fatal(err)
	}
	if err := port.StopForRestart(); err != nil {
		t.Fatal(err)
	}
	if _, err := port.Start(); err != nil {
		t.Fatal(err)
	}
	_, err := port.Get(sim.Call{Agent: "main"})
	return before, port.PID(), err == nil
}

// Under RestartReset a restart sends start to the same process, which
// forgets everything; under RestartReal it is a new process; under
// RestartAuto a check about process-local state restarts for real and the
// others reset, except the fixed sample. The pool counts each kind.
func TestRestartModes(t *testing.T) {
	cmd := []string{plankitBin(t), "serve"}
	for _, c := range []struct {
		mode       adapter.RestartMode
		newProcess bool
		counts     adapter.RestartCounts
	}{
		{adapter.RestartReset, false, adapter.RestartCounts{Reset: 1}},
		{adapter.RestartReal, true, adapter.RestartCounts{Real: 1}},
	} {
		t.Run(string(c.mode), func(t *testing.T) {
			pool := newPool(t, adapter.Options{Command: cmd, Restarts: c.mode})
			before, after, known := restartOnce(t, pool.Port())
			if (before != after) != c.newProcess || c.newProcess && !gone(before) {
				t.Errorf("%s restart: pid %d -> %d, old one gone: %v; want a new process: %v", c.mode, before, after, gone(before), c.newProcess)
			}
			if known {
				t.Errorf("after a %s restart the process still knows the agent", c.mode)
			}
			if got := pool.Restarts(); got != c.counts {
				t.Errorf("counts %+v, want %+v", got, c.counts)
			}
		})
	}
	t.Run("auto", func(t *testing.T) {
		pool := newPool(t, adapter.Options{Command: cmd, Restarts: adapter.RestartAuto})
		local := sim.Check{ID: "pend-restart", ProcessLocal: true}
		if !adapter.RealRestarts(local) {
			t.Fatal("a process-local check is not restarted for real")
		}
		if before, after, _ := restartOnce(t, pool.PortFor(local)); before == after {
			t.Errorf("process-local check: restart kept pid %d", before)
		}
		var sampled, reset sim.Check
		for i := 0; sampled.ID == "" || reset.ID == ""; i++ {
			c := sim.Check{ID: fmt.Sprintf("prop/%02d", i)}
			if adapter.RealRestarts(c) {
				sampled = c
			} else {
				reset = c
			}
		}
		if before, after, _ := restartOnce(t, pool.PortFor(sampled)); before == after {
			t.Errorf("sampled check %s: restart kept pid %d", sampled.ID, before)
		}
		if before, after, _ := restartOnce(t, pool.PortFor(reset)); before != after {
			t.Errorf("check %s: restart changed pid %d -> %d, want a reset", reset.ID, before, after)
		}
		if got := pool.Restarts(); got != (adapter.RestartCounts{Real: 2, Reset: 1}) {
			t.Errorf("counts %+v, want 2 real and 1 reset", got)
		}
	})
	t.Run("auto: in a process-local check, the first restart and those while pending", func(t *testing.T) {
		pool := newPool(t, adapter.Options{Command: cmd, Restarts: adapter.RestartAuto})
		port := pool.PortFor(sim.Check{ID: "pend-restart", ProcessLocal: true})
		// The log has a turn open, so a set is a pending selection.
		open := []sim.Event{{Seq: 0, Type: "turn/start", Data: []byte(`{"turn":1}`)}}
		boot := func() {
			if _, err := port.Load(sim.LoadRequest{Config: []byte(`{"section":"x"}`)}); err != nil {
				t.Fatal(err)
			}
			if err := port.Open(sim.OpenRequest{Agent: "main", Events: open}); err != nil {
				t.Fatal(err)
			}
		}
		get := func() bool {
			g, err := port.Get(sim.Call{Agent: "main"})
			if err != nil {
				t.Fatal(err)
			}
			return g.Pending != nil
		}
		restart := func() (real bool) {
			before := port.PID()
			if err := port.StopForRestart(); err != nil {
				t.Fatal(err)
			}
			if _, err := port.Start(); err != nil {
				t.Fatal(err)
			}
			boot()
			return port.PID() != before
		}
		if _, err := port.Start(); err != nil {
			t.Fatal(err)
		}
		boot()
		if get() || !restart() {
			t.Error("the first restart of a process-local check was a reset")
		}
		if get() || restart() {
			t.Error("a later restart with nothing pending was real")
		}
		if reply, err := port.Set(sim.SetRequest{Call: sim.Call{Agent: "main"}, Active: true}); err != nil || reply.Outcome != "queued" {
			t.Fatalf("set in an open turn: %+v, %v", reply, err)
		}
		if !get() || !restart() {
			t.Error("a restart while a selection was pending was a reset")
		}
		if get() || restart() {
			t.Error("the selection survived the real restart, or the next restart was real")
		}
		if got := pool.Restarts(); got != (adapter.RestartCounts{Real: 2, Reset: 2}) {
			t.Errorf("counts %+v, want 2 real and 2 resets", got)
		}
	})
	t.Run("without reuse a reset is real", func(t *testing.T) {
		pool := newPool(t, adapter.Options{Command: cmd, Restarts: adapter.RestartReset, NoReuse: true})
		if before, after, _ := restartOnce(t, pool.Port()); before == after {
			t.Errorf("restart kept pid %d without reuse", before)
		}
		if got := pool.Restarts(); got != (adapter.RestartCounts{Real: 1}) {
			t.Errorf("counts %+v, want one real", got)
		}
	})
}

// The auto sample is about one check in RealSampleEvery.
func TestRealRestartSample(t *testing.T) {
	n := 0
	for i := range 1000 {
		if adapter.RealRestarts(sim.Check{ID: fmt.Sprintf("model-state-machine/%02d", i)}) {
			n++
		}
	}
	if want := 1000 / adapter.RealSampleEvery; n < want/2 || n > want*2 {
		t.Errorf("%d of 1000 checks sampled for real restarts, want about %d", n, want)
	}
}
