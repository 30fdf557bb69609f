package suite_test

import (
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"pgregory.net/rapid"
)

// draws makes rapid the source of a generated script's choices, so a
// failure is shrunk by rapid.
type draws struct{ t *rapid.T }

func (d draws) IntN(n int) int { return rapid.IntRange(0, n-1).Draw(d.t, "choice") }

// TestRapidInvariants: every runtime script rapid generates keeps the
// invariants against the built-in runtime, with either retry behaviour.
func TestRapidInvariants(t *testing.T) {
	for _, retry := range []string{loop.RetryPreStep, loop.RetrySameStep} {
		t.Run(retry, func(t *testing.T) {
			newRuntime := builtin(retry)
			caps := mustStart(t, newRuntime)
			rapid.Check(t, func(rt *rapid.T) {
				tr := suite.Generate(draws{rt}, caps)
				rec, err := loop.Run(newRuntime(), tr)
				if err != nil {
					rt.Fatal(err)
				}
				if fs := loop.Verdict(tr, rec); len(fs) > 0 {
					rt.Fatalf("%s", loop.Describe(fs))
				}
			})
		})
	}
}

func mustStart(t *testing.T, newRuntime func() loop.Runtime) loop.Capabilities {
	t.Helper()
	rt := newRuntime()
	id, err := rt.Start()
	if err != nil {
		t.Fatal(err)
	}
	_ = rt.Stop()
	return id.Capabilities
}
