package lockstep

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/report"

	"github.com/plankit/plankit/reference"
)

func TestReferenceAgreesWithItself(t *testing.T) {
	for _, ch := range []reference.Choices{{}, reference.AlternativeChoices()} {
		res, err := Run(context.Background(), Options{NewImpl: reference.Factory(reference.Options{Choices: ch}), Seed: 1, Cases: 300, Depth: 3, Out: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if res.Divergence != nil {
			t.Fatalf("the reference (%v) diverges from itself: %s", ch.Map(), res.Divergence.Summary())
		}
	}
}

// TestABudgetLooksPastOtherClauses: a search for a clause goes on, seed
// after seed, past divergences that name other clauses until its budget
// is spent; it ends at the first that names the clause.
func TestABudgetLooksPastOtherClauses(t *testing.T) {
	impl := reference.Factory(reference.Options{Mutants: reference.Mutants{reference.NoopQueues}})
	f, err := FindUnder(context.Background(), Options{NewImpl: impl, Out: t.TempDir()}, "SVC-4", Budget{Sequences: 12, PerSeed: 6})
	if err != nil || f.Divergence != nil || len(f.Others) < 2 || f.Drawn != 12 {
		t.Fatalf("SVC-4: want nothing found, the budget of 12 spent past other divergences, got %d drawn, %v (%v)", f.Drawn, f.Others, err)
	}
	// Which divergence comes first is the generators' business: the
	// search must end at one naming PEND-3 within the budget, whatever it
	// looked past before.
	f, err = FindUnder(context.Background(), Options{NewImpl: impl, Out: t.TempDir()}, "PEND-3", Budget{Sequences: 12, PerSeed: 6})
	if err != nil || f.Divergence == nil || !slices.Contains(f.Divergence.Clauses, "PEND-3") || f.Drawn > 12 {
		t.Fatalf("noop-queues not found under PEND-3 within the budget: %v %v", err, f.Others)
	}
}

// TestDivergenceShowsInTheLog: a steered message no trace can state is
// followed until the log shows it.
func TestDivergenceShowsInTheLog(t *testing.T) {
	res, err := Run(context.Background(), Options{NewImpl: reference.Factory(reference.Options{Mutants: reference.Mutants{reference.PlanMessageNotSteered}}), Seed: 1, Cases: 300, Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Divergence
	if d == nil || d.Observation != ObsSteer || !d.Stated || !d.Reproduced {
		t.Fatalf("want a steered-text divergence stated by a follow-up, got %+v", d)
	}
}

// TestAssumedVariantIsNotADivergence: with the variant assumed, the
// search goes on past it and finds nothing.
func TestAssumedVariantIsNotADivergence(t *testing.T) {
	m, _ := reference.LookupMutant(string(reference.ListenerAppended))
	res, err := Run(context.Background(), Options{NewImpl: ImplOf(m), Assume: []string{string(m.Name)}, Seed: 1, Cases: 300, Depth: 3, Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Divergence != nil {
		t.Fatalf("assumed %s still diverges: %s", m.Name, res.Divergence.Summary())
	}
}

// TestTwoDeviationsOneAssumed: an implementation with two deviations,
// one assumed, is reported with the other, explained by its variant.
func TestTwoDeviationsOneAssumed(t *testing.T) {
	impl := reference.Factory(reference.Options{Mutants: reference.Mutants{reference.ListenerAppended, reference.NoopQueues}})
	res, err := Run(context.Background(), Options{NewImpl: impl, Assume: []string{string(reference.ListenerAppended)}, Seed: 1, Cases: 300, Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	// Whichever observation shows it first, the divergence is the other
	// deviation's: noop-queues alone explains it (another variant may too),
	// the assumed one does not.
	d := res.Divergence
	alone := func(name reference.Mutant) func([]string) bool {
		return func(set []string) bool { return slices.Equal(set, []string{string(name)}) }
	}
	if d == nil || !slices.ContainsFunc(d.ExplainedBy, alone(reference.NoopQueues)) || slices.ContainsFunc(d.ExplainedBy, alone(reference.ListenerAppended)) {
		t.Fatalf("want a divergence explained by noop-queues, got %+v", d)
	}
}

// TestSameSeedSameTrace: the same seed writes the same trace byte for
// byte.
func TestSameSeedSameTrace(t *testing.T) {
	var traces [2][]byte
	for i := range traces {
		dir := t.TempDir()
		res, err := Run(context.Background(), Options{NewImpl: reference.Factory(reference.Options{Mutants: reference.Mutants{reference.NarrateTwice}}), Seed: 5, Cases: 300, Out: dir})
		if err != nil || res.Divergence == nil {
			t.Fatal(err, res.Divergence)
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.Base(res.Divergence.Trace)))
		if err != nil {
			t.Fatal(err)
		}
		traces[i] = b
	}
	if !bytes.Equal(traces[0], traces[1]) {
		t.Fatalf("two runs wrote different traces:\n%s\n---\n%s", traces[0], traces[1])
	}
}

// TestJobsSameResult: any number of workers finds the same first
// divergence (the first in case order, or in transition order) and writes
// the same output, result and trace.
func TestJobsSameResult(t *testing.T) {
	for _, c := range []struct {
		name   string
		mutant reference.Mutant
		cases  int
		depth  int
	}{
		{"agrees", "", 150, 3},
		{"random", reference.PendingSurvivesRestart, 300, 0},
		{"depth", reference.AppendOnAbort, 0, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			var ms reference.Mutants
			if c.mutant != "" {
				ms = reference.Mutants{c.mutant}
			}
			type run struct {
				out   string
				res   Result
				trace []byte
			}
			var runs []run
			for _, jobs := range []int{1, 4} {
				dir := t.TempDir()
				var out bytes.Buffer
				res, err := Run(context.Background(), Options{NewImpl: reference.Factory(reference.Options{Mutants: ms}), Seed: 1, Cases: c.cases, Depth: c.depth, Out: dir, Output: &out, Jobs: jobs})
				if err != nil {
					t.Fatal(err)
				}
				r := run{out: strings.ReplaceAll(out.String(), dir, "OUT"), res: *res}
				if d := res.Divergence; d != nil {
					if r.trace, err = os.ReadFile(d.Trace); err != nil {
						t.Fatal(err)
					}
					dd := *d
					dd.Trace = filepath.Base(d.Trace)
					r.res.Divergence = &dd
				}
				runs = append(runs, r)
			}
			one, four := runs[0], runs[1]
			if one.out != four.out {
				t.Errorf("output differs:\n--- jobs 1\n%s--- jobs 4\n%s", one.out, four.out)
			}
			if !reflect.DeepEqual(one.res, four.res) {
				t.Errorf("results differ:\n%+v\n%+v", one.res, four.res)
			}
			if !bytes.Equal(one.trace, four.trace) {
				t.Errorf("traces differ:\n%s\n---\n%s", one.trace, four.trace)
			}
			d := one.res.Divergence
			switch {
			case c.mutant == "" && d != nil:
				t.Fatalf("the reference diverged from itself: %s", d.Summary())
			case c.mutant != "" && d == nil:
				t.Fatalf("%s not found", c.mutant)
			case c.cases > 0 && d != nil && d.Case == 0:
				t.Fatalf("%s diverges in the first case: pick a mutant found later, so the order of cases is tested", c.mutant)
			case c.depth > 0 && d != nil && one.res.Transitions < 10:
				t.Fatalf("%s diverges after %d transitions: pick a mutant found later", c.mutant, one.res.Transitions)
			}
		})
	}
}

// TestReportCasesOfAnInterruptedSearch: a search ctx cut short is not run,
// a search finished before it keeps its verdict, never a failure.
func TestReportCasesOfAnInterruptedSearch(t *testing.T) {
	for _, tc := range []struct {
		interrupted string
		cases       int
		want        []string
	}{
		{"", 10, []string{report.Passed, report.Passed}},
		{"random", 10, []string{report.NotRun, report.NotRun}},
		{"depth", 10, []string{report.Passed, report.NotRun}},
		{"depth", 0, []string{report.NotRun}},
	} {
		r := Result{Cases: tc.cases, Steps: 5, Depth: 3, Interrupted: tc.interrupted}
		var got []string
		for _, c := range r.ReportCases() {
			got = append(got, c.Status)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("interrupted %q with %d cases: %v, want %v", tc.interrupted, tc.cases, got, tc.want)
		}
	}
}

// TestReportCasesOfABrokenSearch: a search the implementation's failure
// stopped, and any search after it, is an error (not judged), never a
// failure nor missing; a search finished before keeps its verdict.
func TestReportCasesOfABrokenSearch(t *testing.T) {
	for _, tc := range []struct {
		broken string
		cases  int
		want   []string
	}{
		{"random", 10, []string{report.Errored, report.Errored}},
		{"depth", 10, []string{report.Passed, report.Errored}},
		{"depth", 0, []string{report.Errored}},
	} {
		r := Result{Cases: tc.cases, Steps: 5, Depth: 3, Broken: tc.broken}
		var got []string
		for _, c := range r.ReportCases() {
			got = append(got, c.Status)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("broken %q with %d cases: %v, want %v", tc.broken, tc.cases, got, tc.want)
		}
	}
}
