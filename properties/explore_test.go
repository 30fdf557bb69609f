package properties

import (
	"context"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
)

func TestExploreReference(t *testing.T) {
	res, err := Explore(context.Background(), ExploreOptions{NewPort: reference.Factory(reference.Options{}), Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil {
		t.Fatalf("violation against the reference: %s", res.Violation)
	}
	if res.States < 50 || res.Transitions <= res.States {
		t.Fatalf("exploration too small: %+v", res)
	}
	t.Logf("%+v", res)
}

func TestExploreFindsMutant(t *testing.T) {
	v := mutantViolation(t, reference.AppendOnAbort)
	if n := len(v.Actions); n != 3 {
		t.Fatalf("breadth first should find the shortest violation (prompt, set, aborted step), got %d actions: %s", n, v)
	}
}

// mutantViolation explores the reference with mutant m to depth 4 and
// returns the violation found; finding none fails t.
func mutantViolation(t *testing.T, m reference.Mutant) *Failure {
	t.Helper()
	res, err := Explore(context.Background(), ExploreOptions{NewPort: reference.Factory(reference.Options{Mutants: reference.Mutants{m}}), Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation == nil {
		t.Fatalf("%s survived exploration to depth 4: %+v", m, res)
	}
	return res.Violation
}

func BenchmarkExploreDepth6(b *testing.B) {
	for b.Loop() {
		res, err := Explore(context.Background(), ExploreOptions{NewPort: reference.Factory(reference.Options{}), Depth: 6})
		if err != nil || res.Violation != nil {
			b.Fatal(err, res.Violation)
		}
		b.ReportMetric(float64(res.States), "states")
		b.ReportMetric(float64(res.Transitions), "transitions")
	}
}

// TestExploreChoicesAndRetries: the model follows the implementation's
// declared choices and the runtime's retry mode, so exploring the
// reference configured differently finds no violation either.
func TestExploreChoicesAndRetries(t *testing.T) {
	alt := reference.AlternativeChoices()
	same := Setup{Services: sim.Services{Commands: true, UserQuestions: false}, Retries: sim.RetriesSameStep}
	for name, o := range map[string]ExploreOptions{
		"choices":   {NewPort: reference.Factory(reference.Options{Choices: alt}), Depth: 4},
		"same-step": {NewPort: reference.Factory(reference.Options{}), Depth: 4, Setup: &same},
		"both":      {NewPort: reference.Factory(reference.Options{Choices: alt}), Depth: 4, Setup: &same},
	} {
		res, err := Explore(context.Background(), o)
		if err != nil || res.Violation != nil {
			t.Fatalf("%s: %v %v", name, err, res.Violation)
		}
	}
}

// The alphabet can say "keep planning after an approval in the same tool
// batch", so exploring finds an implementation that leaves the approved
// exit in force (EXIT-6): plan mode on, a prompt, the batch, one more step.
func TestExploreFindsKeepPlanningKeepsExit(t *testing.T) {
	t.Logf("found: %s", mutantViolation(t, reference.KeepPlanningKeepsExit))
}
