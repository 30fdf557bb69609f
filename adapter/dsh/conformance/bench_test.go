package main

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
func packagePool(b *testing.B) *adapter.Pool {
	b.Helper()
	if _, err := os.Stat("adapter/dsh/node_modules/@deepseek-ai/dsh-plan-mode"); err != nil {
		b.Skip("the real package is not installed (npm ci --prefix adapter/dsh)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		b.Skip("node is not on PATH")
	}
	pool, err := adapter.NewPool(adapter.Options{Command: []string{"node", "adapter/dsh/host.mjs"}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	return pool
}

// BenchmarkTraceAgainstPackage runs one deviation trace against the real
// package per iteration: a fresh host process (node start-up, module
// loading, cordis Context) and the trace's requests. A conformance check
// runs one such process per scenario, so this is the unit of its wall time.
func BenchmarkTraceAgainstPackage(b *testing.B) {
	b.Chdir(repoRoot)
	pool := packagePool(b)
	tr, err := trace.ReadFile("examples/dsh/step-6-cancelled-selection-narrated.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if run := trace.Execute(tr, pool.Port()); run.Err != nil {
			b.Fatal(run.Err)
		}
	}
}

// BenchmarkHostRequest measures one get() round trip to a running host:
// the protocol's per-request cost without process start-up.
func BenchmarkHostRequest(b *testing.B) {
	b.Chdir(repoRoot)
	port := packagePool(b).Port()
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
