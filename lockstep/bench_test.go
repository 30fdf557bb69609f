package lockstep

import (
	"context"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
)

// BenchmarkLockstepSequence measures one random sequence of 40 actions
// compared side by side, the reference in-process on both sides; it
// reports sequences per second.
func BenchmarkLockstepSequence(b *testing.B) {
	impl := reference.Factory(reference.Options{})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Run(context.Background(), Options{NewImpl: impl, Seed: int64(i), Cases: 1, Out: b.TempDir()})
		if err != nil || res.Divergence != nil {
			b.Fatal(err, res.Divergence)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "sequences/s")
}

// BenchmarkRuntimeLockstepScript measures one random runtime script of 40
// steps compared side by side, the built-in runtime around the reference
// on both sides; it reports scripts per second.
func BenchmarkRuntimeLockstepScript(b *testing.B) {
	impl := reference.Factory(reference.Options{})
	newRuntime := func() loop.Runtime {
		r, _ := loop.NewBuiltin(impl(), loop.RetryPreStep)
		return r
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := RunRuntime(context.Background(), RuntimeOptions{NewImpl: newRuntime, Seed: int64(i), Cases: 1, Out: b.TempDir()})
		if err != nil || res.Runtime != nil {
			b.Fatal(err, res.Runtime)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "scripts/s")
}
