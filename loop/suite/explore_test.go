package suite_test

import (
	"context"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/reference"
)

func TestExploreFindsNothingInTheBuiltinRuntimeAndAViolationInAMutant(t *testing.T) {
	res, err := suite.Explore(context.Background(), suite.ExploreOptions{NewRuntime: builtin(loop.RetryPreStep), Depth: 2})
	if err != nil || res.Violation != nil {
		t.Fatalf("%v %v", err, res.Findings)
	}
	if res.Sequences != res.Alphabet+res.Alphabet*res.Alphabet {
		t.Errorf("%d sequences over %d letters", res.Sequences, res.Alphabet)
	}
	res, err = suite.Explore(context.Background(), suite.ExploreOptions{NewRuntime: builtin(loop.RetryPreStep, reference.NarrateTwice), Depth: 2})
	if err != nil || res.Violation == nil {
		t.Fatalf("narrate-twice: %v, no violation", err)
	}
	if len(res.Violation.Steps) > 2 {
		t.Errorf("violation of %d steps", len(res.Violation.Steps))
	}
}
