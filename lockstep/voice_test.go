package lockstep

import (
	"context"
	"testing"

	"github.com/plankit/plankit/internal/voice"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
)

// An implementation in another voice — its own words for notices, replies
// and errors, its notice first among the step's messages, extra fields in
// an approval's result — diverges nowhere: lockstep compares what SPEC.md
// states, not the reference's wording or an order SPEC.md does not fix.
func TestAnotherVoiceDoesNotDiverge(t *testing.T) {
	newRef := reference.Factory(reference.Options{})
	res, err := Run(context.Background(), Options{NewImpl: func() sim.Port { return voice.Plugin(newRef()) }, Seed: 1, Cases: 300, Depth: 3, Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Divergence != nil {
		t.Fatalf("another voice diverges: %s", res.Divergence.Summary())
	}
}

// The same at the runtime level, where the runtime also has a tool and a
// base section of its own, after plan:policy: what is the runtime's own is
// not compared.
func TestAnotherVoiceDoesNotDivergeAtRuntimeLevel(t *testing.T) {
	newRef := reference.Factory(reference.Options{})
	newRT := func() loop.Runtime {
		b, err := loop.NewBuiltin(voice.Plugin(newRef()), loop.RetryPreStep)
		if err != nil {
			t.Fatal(err)
		}
		return voice.Runtime(b)
	}
	res, err := RunRuntime(context.Background(), RuntimeOptions{NewImpl: newRT, Seed: 1, Cases: 100, Depth: 2, Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Runtime != nil {
		t.Fatalf("another voice diverges: %s", res.Runtime.Summary())
	}
}
