package conformance

import (
	"os"
	"os/exec"
	"testing"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/trace"
)

// packagePool starts a pool of hosts around the installed package, or
// skips the benchmark when the package is not installed.
func packagePool(b *testing.B, noReuse bool) *adapter.Pool {
	b.Helper()
	if _, err := os.Stat("adapter/dsh/node_modules/@deepseek-ai/dsh-plan-mode"); err != nil {
		b.Skip("the real package is not installed (npm ci --prefix adapter/dsh)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		b.Skip("node is not on PATH")
	}
	pool, err := adapter.NewPool(adapter.Options{Command: []string{"node", "adapter/dsh/host.mjs"}, NoReuse: noReuse})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	return pool
}

// BenchmarkTraceAgainstPackage runs one deviation trace against the real
// package per iteration, the unit of a conformance check's wall time (one
// scenario): "reuse" hands each scenario a host process that a start reset
// (the host declares the reuse capability), "fresh-process" starts a new
// host process per scenario (node start-up, module loading).
func BenchmarkTraceAgainstPackage(b *testing.B) {
	b.Chdir(repoRoot)
	tr, err := trace.ReadFile("examples/dsh/step-6-cancelled-selection-narrated.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []struct {
		name    string
		noReuse bool
	}{{"reuse", false}, {"fresh-process", true}} {
		b.Run(mode.name, func(b *testing.B) {
			pool := packagePool(b, mode.noReuse)
			for b.Loop() {
				if run := trace.Execute(tr, pool.Port()); run.Err != nil {
					b.Fatal(run.Err)
				}
			}
		})
	}
}

// BenchmarkHostRequest measures one get() round trip to a running host:
// the protocol's per-request cost without process start-up.
func BenchmarkHostRequest(b *testing.B) {
	b.Chdir(repoRoot)
	port := packagePool(b, false).Port()
	if _, err := port.Start(); err != nil {
		b.Fatal(err)
	}
	defer port.Stop()
	if reply, err := port.Load(sim.LoadRequest{Config: []byte(`{"section":"Plan first."}`)}); err != nil || reply.Error != "" {
		b.Fatalf("load: %v %s", err, reply.Error)
	}
	if err := port.Open(sim.OpenRequest{Agent: "main"}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := port.Get(sim.Call{Agent: "main"}); err != nil {
			b.Fatal(err)
		}
	}
}
