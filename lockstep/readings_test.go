package lockstep

import (
	"context"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/spec"
)

// undeclaredReading is the reference following value of a followed choice
// and declaring nothing for it: an implementation that took an honest
// reading SPEC.md leaves open and did not say so.
func undeclaredReading(choice, value string) reference.Options {
	ch, err := reference.ParseChoices(map[string]string{choice: value})
	if err != nil {
		panic(err)
	}
	return reference.Options{Choices: ch, Declares: map[string]string{choice: ""}}
}

// Every reading of every followed choice (plan-argument, unloaded-header,
// logged-pending, idle-revert-notice; fault-scope at the runtime level)
// passes lockstep at both levels when the implementation declares none:
// the search plays a diverging sequence against the reference under each
// reading that can part on it.
func TestEveryReadingOfAFollowedChoicePasses(t *testing.T) {
	for _, c := range spec.Choices {
		if !c.Followed {
			continue
		}
		for _, v := range c.ValueNames()[1:] {
			t.Run(c.Name+"="+v, func(t *testing.T) {
				newImpl := reference.Factory(undeclaredReading(c.Name, v))
				if len(c.Levels) == 0 || c.Levels[0] == spec.LevelPlugin {
					res, err := Run(context.Background(), Options{NewImpl: newImpl, Seed: 1, Cases: 200, Depth: 3, Out: t.TempDir()})
					if err != nil {
						t.Fatal(err)
					}
					if res.Divergence != nil {
						t.Errorf("plugin level: %s", res.Divergence.Summary())
					}
				}
				newRT := func() loop.Runtime {
					b, err := loop.NewBuiltin(newImpl(), loop.RetryPreStep)
					if err != nil {
						t.Fatal(err)
					}
					b.FaultsFailOutsideAppends = c.Name == spec.ChoiceFaultScope && v == spec.FaultScopeEveryAppend
					return b
				}
				res, err := RunRuntime(context.Background(), RuntimeOptions{NewImpl: newRT, Seed: 1, Cases: 80, Depth: 2, Out: t.TempDir()})
				if err != nil {
					t.Fatal(err)
				}
				if res.Runtime != nil {
					t.Errorf("runtime level: %s", res.Runtime.Summary())
				}
			})
		}
	}
}
