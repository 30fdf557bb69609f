package suite_test

import (
	"context"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/voice"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
)

// A runtime in another voice — its own words for notices and replies, its
// notice first among a request's messages, a tool and a base section of
// its own after plan:policy in every request and header — passes every
// runtime-level scenario and the runtime property: what is the runtime's
// own, and the words SPEC.md leaves open, are not judged.
func TestAnotherVoicePassesAtRuntimeLevel(t *testing.T) {
	newRef := reference.Factory(reference.Options{})
	newRT := func() loop.Runtime {
		b, err := loop.NewBuiltin(voice.Plugin(newRef()), loop.RetryPreStep)
		if err != nil {
			t.Fatal(err)
		}
		return voice.Runtime(b)
	}
	res := runSuite(t, suite.Options{NewRuntime: newRT})
	if res.Impl != nil {
		t.Fatal(res.Impl)
	}
	for _, c := range res.Cases {
		if c.Status != report.Passed && !(c.Status == report.Skipped && strings.Contains(c.Message, "depends on choice")) {
			t.Errorf("%s: %s: %s", c.ID, c.Status, c.Message)
		}
	}
	cases, err := suite.Properties(context.Background(), suite.PropertyOptions{NewRuntime: newRT, Seed: 1, Checks: 40, CounterexampleDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Status != report.Passed {
			t.Errorf("%s: %s: %s", c.ID, c.Status, c.Message)
		}
	}
}
