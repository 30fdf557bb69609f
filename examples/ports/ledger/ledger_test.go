package ledger_test

import (
	"context"
	"testing"

	"github.com/plankit/plankit/conformance"
	"github.com/plankit/plankit/examples/ports/ledger"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

// TestLedgerConforms runs the whole conformance suite against the faithful
// port at its own readings, as docs/checking-from-go-test.md shows.
func TestLedgerConforms(t *testing.T) {
	conformance.Test(t, conformance.Options{
		NewPort: func() sim.Port { return ledger.New() },
		Seed:    1,
	})
}

// TestLedgerDiffs searches for a divergence from the reference at diff's
// defaults (1000 random sequences, then every sequence to depth 4), in
// process: none, since the port is faithful.
func TestLedgerDiffs(t *testing.T) {
	conformance.Diff(t, conformance.DiffOptions{NewPort: func() sim.Port { return ledger.New() }, Out: t.TempDir()})
}

// TestLedgerExplores explores every sequence of the alphabet to depth 5
// (explore's default is 8, beyond what go test affords) with the spec's
// invariants checked after each action.
func TestLedgerExplores(t *testing.T) {
	conformance.Explore(t, conformance.ExploreOptions{NewPort: func() sim.Port { return ledger.New() }, Depth: 5, Out: t.TempDir()})
}

// intended is the clause each seeded mistake breaks.
var intended = map[string]string{
	"rejected-step-drops-selection": "STEP-3",
	"failed-append-drops-selection": "STEP-5",
	"cancel-keeps-entry":            "PEND-5",
	"notice-to-inbox":               "STEP-7",
	"unload-keeps-exit-tool":        "SVC-2",
	"blocks-host-tools":             "SVC-3",
	"heading-after-text":            "EXIT-3",
	"uppercase-off":                 "CMD-4",
	"wrong-reply-outcome":           "SVC-1",
	"approval-one-step-late":        "EXIT-5",
	"reload-keeps-pending":          "PEND-8",
	"restart-stale-state":           "LOG-3",
	"duplicate-pending-notice":      "STEP-6",
}

// TestEveryMistakeIsCaught holds that the suite fails each seeded mistake
// of the port, at its own readings, and that the clause the mistake breaks
// is among those it names first: the clause counted under the most failing
// checks.
func TestEveryMistakeIsCaught(t *testing.T) {
	if len(intended) != len(ledger.Mistakes) {
		t.Fatalf("intended lists %d mistakes, ledger.Mistakes %d", len(intended), len(ledger.Mistakes))
	}
	for _, name := range ledger.Mistakes {
		t.Run(name, func(t *testing.T) {
			rep, err := conformance.Run(context.Background(), conformance.Options{
				NewPort:           func() sim.Port { return ledger.New(ledger.Mistake(name)) },
				Seed:              1,
				CounterexampleDir: t.TempDir(),
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != report.VerdictFail {
				t.Fatalf("verdict %s: the mistake was not caught", rep.Verdict)
			}
			first := namedFirst(rep)
			for _, c := range first {
				if c == intended[name] {
					return
				}
			}
			t.Errorf("the suite names %v first; the mistake breaks %s", first, intended[name])
		})
	}
}

// namedFirst are the clauses named by the most failing checks, each check
// counting under the clauses of its first failing observation.
func namedFirst(rep report.Run) []string {
	count := map[string]int{}
	for _, c := range rep.Cases {
		if !c.Failing() {
			continue
		}
		for _, cl := range c.FailedClauses() {
			count[cl]++
		}
	}
	most := 0
	for _, n := range count {
		most = max(most, n)
	}
	var out []string
	for cl, n := range count {
		if n == most {
			out = append(out, cl)
		}
	}
	return out
}
