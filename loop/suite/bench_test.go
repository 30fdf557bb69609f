package suite_test

import (
	"context"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
)

// BenchmarkRuntimeScenarios runs every runtime-level scenario against the
// built-in runtime in-process.
func BenchmarkRuntimeScenarios(b *testing.B) {
	for b.Loop() {
		if _, err := suite.Run(context.Background(), suite.Options{NewRuntime: builtin(loop.RetryPreStep)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRuntimeProperty runs the property with the default 100
// generated scripts against the built-in runtime in-process.
func BenchmarkRuntimeProperty(b *testing.B) {
	for b.Loop() {
		if _, err := suite.Properties(context.Background(), suite.PropertyOptions{NewRuntime: builtin(loop.RetryPreStep), Seed: 1, CounterexampleDir: b.TempDir()}); err != nil {
			b.Fatal(err)
		}
	}
}
