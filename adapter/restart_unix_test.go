//go:build unix

package adapter_test

import (
	"errors"
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
