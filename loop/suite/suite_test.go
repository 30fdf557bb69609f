package suite_test

import (
	"context"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
)

func builtin(retry string, mutants ...reference.Mutant) func() loop.Runtime {
	return func() loop.Runtime {
		b, err := loop.NewBuiltin(reference.NewPort(reference.Options{Mutants: mutants}), retry)
		if err != nil {
			panic(err)
		}
		return b
	}
}

func TestTheBuiltinRuntimePassesTheSuite(t *testing.T) {
	res, err := suite.Run(context.Background(), suite.Options{NewRuntime: builtin(loop.RetryPreStep)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Impl != nil {
		t.Fatal(res.Impl)
	}
	for _, c := range res.Cases {
		if c.Status != report.Passed {
			t.Errorf("%s: %s: %s", c.ID, c.Status, c.Message)
		}
	}
	if len(res.Cases) < 30 {
		t.Errorf("only %d scenarios", len(res.Cases))
	}
}

// The shipped loop's retry (same step, no pre-step) breaks STEP-2 and only
// that scenario; a runtime without retries skips it, naming the
// capability.
func TestRetryBehaviours(t *testing.T) {
	for _, c := range []struct {
		retry  string
		status string
	}{{loop.RetrySameStep, report.Failed}, {loop.RetryNone, report.Skipped}} {
		res, err := suite.Run(context.Background(), suite.Options{NewRuntime: builtin(c.retry)})
		if err != nil {
			t.Fatal(err)
		}
		for _, cs := range res.Cases {
			want := report.Passed
			if cs.ID == "rt-step-retry-observed" {
				want = c.status
			}
			if cs.Status != want {
				t.Errorf("retry %s: %s is %s (%s), want %s", c.retry, cs.ID, cs.Status, cs.Message, want)
			}
		}
	}
}
