package properties

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

func TestRunPassesAgainstReference(t *testing.T) {
	alt := reference.AlternativeChoices()
	for _, choices := range []reference.Choices{{}, alt} {
		var out strings.Builder
		cases, err := Run(context.Background(), Options{NewPort: reference.Factory(reference.Options{Choices: choices}), Seed: 1, CounterexampleDir: t.TempDir(), Output: &out})
		if err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		if len(cases) != len(Catalog()) {
			t.Fatalf("%d cases for %d properties", len(cases), len(Catalog()))
		}
		for _, c := range cases {
			if c.Status != report.Passed || c.Kind != report.KindProperty || len(c.Clauses) == 0 {
				t.Errorf("choices %+v: %s: %s %s", choices, c.ID, c.Status, c.Message)
			}
		}
		if got := cases[0].Choices; len(got) != 6 || (choices == alt) != slices.Contains(got, "cancel-pending=keep-equal") {
			t.Errorf("state machine case choices %v for %+v", got, choices)
		}
	}
}

// crashingPort is an implementation that dies at its first pre-step.
type crashingPort struct{ *reference.Port }

func (crashingPort) PreStep(sim.PreStepRequest) (sim.PreStepReply, error) {
	return sim.PreStepReply{}, errors.New("process exited")
}

// TestRunReportsImplError: an implementation that cannot be run is an
// error wrapping *sim.ImplError, not a property failure.
func TestRunReportsImplError(t *testing.T) {
	newPort := func() sim.Port { return crashingPort{reference.NewPort(reference.Options{})} }
	cases, err := Run(context.Background(), Options{NewPort: newPort, Seed: 1, Checks: 5, CounterexampleDir: t.TempDir()})
	var ie *sim.ImplError
	if !errors.As(err, &ie) {
		t.Fatalf("want an *sim.ImplError, got %v (cases %+v)", err, cases)
	}
	if _, err := Explore(context.Background(), ExploreOptions{NewPort: newPort, Depth: 3}); !errors.As(err, &ie) {
		t.Fatalf("explore: want an *sim.ImplError, got %v", err)
	}
}

func TestRunSeedIsDeterministic(t *testing.T) {
	newPort := reference.Factory(reference.Options{Mutants: reference.Mutants{reference.NarrateAlways}})
	var a, b strings.Builder
	dir := t.TempDir()
	for _, out := range []*strings.Builder{&a, &b} {
		if _, err := Run(context.Background(), Options{NewPort: newPort, Seed: 11, Checks: 30, Only: []string{NameNarration}, CounterexampleDir: dir, Output: out}); err != nil {
			t.Fatal(err)
		}
	}
	if a.String() != b.String() || !strings.Contains(a.String(), "FAIL") {
		t.Fatalf("two runs with one seed differ or found nothing:\n%s\n%s", a.String(), b.String())
	}
	if _, err := Run(context.Background(), Options{NewPort: newPort, Only: []string{"no-such"}}); err == nil {
		t.Fatal("an unknown property name must be an error")
	}
}

// pickyPort rejects every config, valid ones included.
type pickyPort struct{ *reference.Port }

func (p pickyPort) Load(req sim.LoadRequest) (sim.LoadReply, error) {
	return sim.LoadReply{Error: "config refused"}, nil
}

func (p pickyPort) Reload() (sim.LoadReply, error) {
	return sim.LoadReply{Error: "config refused"}, nil
}

// TestRejectedValidConfigReplays: an implementation refusing the valid
// config fails with a one-action trace that replays the refusal.
func TestRejectedValidConfigReplays(t *testing.T) {
	newPort := func() sim.Port { return pickyPort{reference.NewPort(reference.Options{})} }
	cases, err := Run(context.Background(), Options{NewPort: newPort, Seed: 1, Checks: 3, Only: []string{NameStateMachine}, CounterexampleDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	c := cases[0]
	if c.Status != report.Failed || strings.Contains(c.Message, "cannot express") || !strings.Contains(c.Message, "config refused") {
		t.Fatalf("%+v", c)
	}
}

// The model honours fold-end=slice: the reference implementing slice
// passes, and the reference implementing clamp while declaring slice
// fails. A value plankit does not know stops the run at start.
func TestFoldEndSlice(t *testing.T) {
	slice := reference.Choices{FoldEnd: "slice"}
	// The properties that draw fold(end) actions: the choice refines LOG-2
	// and no other property reads it.
	folds := []string{NameFoldPurity, NameStateMachine}
	cases, err := Run(context.Background(), Options{NewPort: reference.Factory(reference.Options{Choices: slice}), Seed: 3, Checks: 200, Only: folds, CounterexampleDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Status != report.Passed {
			t.Errorf("fold-end=slice: %s: %s %s", c.ID, c.Status, c.Message)
		}
	}
	lying := func() sim.Port {
		return reference.NewPort(reference.Options{Declares: map[string]string{spec.ChoiceFoldEnd: "slice"}})
	}
	cases, err = Run(context.Background(), Options{NewPort: lying, Seed: 3, Checks: 200, Only: folds, CounterexampleDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(cases, func(c report.Case) bool { return c.Status == report.Failed }) {
		t.Error("clamp declared as slice passed every property")
	}
	unknown := func() sim.Port {
		return reference.NewPort(reference.Options{Declares: map[string]string{spec.ChoiceFoldEnd: "wrap"}})
	}
	_, err = Run(context.Background(), Options{NewPort: unknown, Seed: 3, Checks: 5, CounterexampleDir: t.TempDir()})
	var ie *sim.ImplError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), `fold-end="wrap"`) || !strings.Contains(err.Error(), "known values: clamp, error, slice") {
		t.Errorf("an unknown fold-end value: err = %v, want an implementation error naming it and the known values", err)
	}
}

// TestProgressMarksExpectedFailures: a failing property the manifest
// expects is XFAIL in the progress, with the entry that expects it; one it
// does not expect is FAIL. The cases are the same either way.
func TestProgressMarksExpectedFailures(t *testing.T) {
	newPort := reference.Factory(reference.Options{Mutants: reference.Mutants{reference.NarrateAlways}})
	for _, tc := range []struct {
		where, want string
	}{
		{"", "FAIL " + NameNarration + " ("},
		{"m.txt:3", "XFAIL " + NameNarration + " ("},
	} {
		var out strings.Builder
		cases, err := Run(context.Background(), Options{NewPort: newPort, Seed: 11, Checks: 30, Only: []string{NameNarration}, CounterexampleDir: t.TempDir(), Output: &out,
			Expected: func(c report.Case) string {
				if c.ID != NameNarration || c.Status != report.Failed {
					t.Errorf("asked about %s (%s)", c.ID, c.Status)
				}
				return tc.where
			}})
		if err != nil || len(cases) != 1 || cases[0].Status != report.Failed {
			t.Fatalf("cases %+v, err %v", cases, err)
		}
		if !strings.Contains(out.String(), "\n"+tc.want) || (tc.where != "" && !strings.Contains(out.String(), "[expected by "+tc.where+"]")) {
			t.Errorf("progress does not say %q:\n%s", tc.want, out.String())
		}
	}
}
