package properties

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/trace"
)

// TestCounterexampleReplays: a broken implementation fails a property, the
// property writes a shrunk trace, and replaying that trace shows the same
// failure against the broken implementation and passes against the
// reference.
func TestCounterexampleReplays(t *testing.T) {
	for m, prop := range map[reference.Mutant]string{
		reference.AppendOnReject:          NameAppendAccept,
		reference.NarrateTwice:            NameNarration,
		reference.PendingSurvivesRestart:  NameRecovery,
		reference.ConfigUnknownKeyIgnored: NameConfig,
		reference.OffKeepsPending:         NameStateMachine,
	} {
		t.Run(string(m), func(t *testing.T) {
			mutant := reference.Factory(reference.Options{Mutants: reference.Mutants{m}})
			dir := t.TempDir()
			var out strings.Builder
			cases, err := Run(context.Background(), Options{NewPort: mutant, Seed: 3, Checks: 100, Only: []string{prop}, CounterexampleDir: dir, Output: &out})
			if err != nil {
				t.Fatal(err)
			}
			var failed *report.Case
			for i := range cases {
				if cases[i].Status == report.Failed {
					failed = &cases[i]
					break
				}
			}
			if failed == nil {
				t.Fatalf("no property failed against %s:\n%s", m, out.String())
			}
			if !strings.Contains(out.String(), "seed 3") || !strings.Contains(out.String(), failed.Counterexample) {
				t.Fatalf("output does not name the seed and the trace:\n%s", out.String())
			}
			if strings.Contains(failed.Message, "cannot express") {
				t.Fatalf("counterexample does not reproduce: %s", failed.Message)
			}
			tr, err := trace.ReadFile(failed.Counterexample)
			if err != nil {
				b, _ := os.ReadFile(failed.Counterexample)
				t.Fatalf("%v\n%s", err, b)
			}
			b, _ := os.ReadFile(failed.Counterexample)
			t.Logf("%s\n%s", out.String(), b)
			if len(tr.Script) > 12 {
				t.Errorf("counterexample not shrunk: %d actions", len(tr.Script))
			}
			run := trace.Execute(tr, mutant())
			if run.Err != nil || !run.Failed() {
				t.Fatalf("replay against %s: err %v, failed %v", m, run.Err, run.Failed())
			}
			if run := trace.Execute(tr, reference.Factory(reference.Options{})()); run.Err != nil || run.Failed() {
				f, _ := run.FirstFailure()
				t.Fatalf("the counterexample's expectation fails against the reference: %v %v", run.Err, f.Failures)
			}
		})
	}
}
