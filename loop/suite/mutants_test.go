package suite_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
)

// notObservable lists the reference mutants whose deviation a runtime does
// not show from outside, with why; every other mutant must be killed by
// the runtime-level suite.
var notObservable = map[reference.Mutant]string{
	reference.ListenerAppended: "where the plan-mode listener sits in the chain shows only in what host listeners see or add to a decision, which protocol v1 does not script; a selection made by a listener on either side is applied by the same accepted step",
}

// killedBy runs the runtime-level scenarios against the built-in runtime
// around a mutant and returns the IDs of the failing scenarios.
func killedBy(t *testing.T, m reference.Mutant) []string {
	res, err := suite.Run(context.Background(), suite.Options{NewRuntime: builtin(loop.RetryPreStep, m)})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range res.Cases {
		if c.Status == report.Failed {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

func TestMutantsAreKilledAtRuntimeLevel(t *testing.T) {
	var lines []string
	killed := 0
	for _, mi := range reference.Catalogue {
		ids := killedBy(t, mi.Name)
		why, excused := notObservable[mi.Name]
		switch {
		case len(ids) > 0 && excused:
			t.Errorf("%s is killed by %v but listed as not observable (%s)", mi.Name, ids, why)
		case len(ids) == 0 && !excused:
			t.Errorf("%s (%s: %s) survives the runtime-level suite", mi.Name, mi.Clause, mi.What)
		}
		if len(ids) > 0 {
			killed++
		}
		lines = append(lines, fmt.Sprintf("%s\t%d\t%s", mi.Name, len(ids), strings.Join(ids, " ")))
	}
	if os.Getenv("PLANKIT_MUTANT_TABLE") != "" {
		slices.Sort(lines)
		t.Logf("killed %d of %d\n%s", killed, len(reference.Catalogue), strings.Join(lines, "\n"))
	}
}
