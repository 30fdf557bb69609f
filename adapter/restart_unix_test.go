//go:build unix

package adapter_test

import (
	"errors"
	"syscall"
	"testing"

	"github.com/plankit/plankit/adapter"
)

// A restart really ends the process and starts another.
func TestRestartIsARealProcess(t *testing.T) {
	pool := newPool(t, adapter.Options{Command: []string{plankitBin(t), "serve"}})
	port := pool.Port()
	if _, err := port.Start(); err != nil {
		t.Fatal(err)
	}
	first := port.PID()
	if err := port.Stop(); err != nil {
		t.Fatal(err)
	}
	if port.PID() != 0 {
		t.Fatal("a stopped port still has a process")
	}
	if err := syscall.Kill(first, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("process %d still exists after Stop (kill 0: %v)", first, err)
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
