package suite_test

import (
	"context"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
)

// builtinVariant is the built-in runtime around the reference, departing
// from plankit's loop as the variant says.
func builtinVariant(variant string, mutants ...reference.Mutant) func() loop.Runtime {
	return func() loop.Runtime {
		b, err := loop.NewBuiltinVariant(reference.NewPort(reference.Options{Mutants: mutants}), loop.RetryPreStep, variant)
		if err != nil {
			panic(err)
		}
		return b
	}
}

// Every built-in runtime variant is a faithful runtime that differs from
// plankit's loop only where SPEC.md is silent, so the runtime-level check
// (its scenarios, then its properties) passes it by default: a runtime
// that logs no step events (steps are delimited by their requests), and
// one whose exit tool sits elsewhere in the catalog after plan mode is
// loaded anew (EXIT-1 compares catalogs across a change of plan state).
func TestFaithfulRuntimeVariantsPass(t *testing.T) {
	for _, v := range loop.BuiltinVariants {
		t.Run(v, func(t *testing.T) {
			res := runSuite(t, suite.Options{NewRuntime: builtinVariant(v)})
			if res.Impl != nil {
				t.Fatal(res.Impl)
			}
			ran := 0
			for _, c := range res.Cases {
				switch c.Status {
				case report.Failed, report.Errored:
					t.Errorf("%s: %s: %s", c.ID, c.Status, c.Message)
				case report.Passed:
					ran++
				}
			}
			if ran == 0 {
				t.Fatal("no scenario passed: the variant was not judged")
			}
			props, err := suite.Properties(context.Background(), suite.PropertyOptions{NewRuntime: builtinVariant(v), Seed: 1, Checks: 30})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range props {
				if c.Status == report.Failed || c.Status == report.Errored {
					t.Errorf("property %s: %s: %s", c.ID, c.Status, c.Message)
				}
			}
		})
	}
}

// The variants are not vacuous: the runtime without step events still
// has its deviations found (a mid-step append, named by its clause), and
// the runtime whose exit tool moves is still held to EXIT-1 across a flip
// of plan state.
func TestRuntimeVariantsStillFindDeviations(t *testing.T) {
	for _, c := range []struct {
		variant string
		mutant  reference.Mutant
		clause  string
	}{
		{loop.VariantNoStepEvents, reference.QueuedCommitsNow, "PEND-1"},
		{loop.VariantExitToolMovesOnReload, reference.HostToolsReorderedInPlan, "EXIT-1"},
	} {
		t.Run(c.variant+"/"+string(c.mutant), func(t *testing.T) {
			res := runSuite(t, suite.Options{NewRuntime: builtinVariant(c.variant, c.mutant)})
			named := 0
			for _, k := range res.Cases {
				if k.Status == report.Failed && len(k.Attributed) > 0 && k.Attributed[0] == c.clause {
					named++
				}
			}
			if named == 0 {
				t.Errorf("no failing scenario names %s first", c.clause)
			}
		})
	}
}
