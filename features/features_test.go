package features

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/catalog/coverage"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// TestReferenceConforms runs the whole suite against the reference: every
// scenario passes or is skipped for a choice the reference did not make.
func TestReferenceConforms(t *testing.T) {
	res, err := Run(context.Background(), Options{NewPort: reference.Factory(reference.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	if res.Impl != nil {
		t.Fatal(res.Impl)
	}
	for _, c := range res.Cases {
		switch c.Status {
		case report.Passed:
		case report.Skipped:
			if !strings.Contains(c.Message, "choice") {
				t.Errorf("%s skipped: %s", c.ID, c.Message)
			}
		default:
			t.Errorf("%s (%s:%d) %s: %s", c.ID, c.URI, c.Line, c.Status, c.Message)
		}
	}
}

// TestEveryClauseIsCovered checks that every clause has at least
// coverage.MinScenarios scenarios (the one threshold, which the coverage
// check and the recipe test read too), with no tag naming an unknown
// clause. (catalog's tests compare the clause list with SPEC.md.)
func TestEveryClauseIsCovered(t *testing.T) {
	cases, err := Scenarios("")
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, c := range cases {
		for _, cl := range c.Clauses {
			if !slices.Contains(spec.ClauseIDs(), cl) {
				t.Errorf("%s is tagged with %s, which is not a clause of SPEC.md", c.ID, cl)
			}
			count[cl]++
		}
	}
	for _, cl := range spec.ClauseIDs() {
		if count[cl] < coverage.MinScenarios {
			t.Errorf("clause %s has %d scenarios, want at least %d", cl, count[cl], coverage.MinScenarios)
		}
	}
}

// TestStrictMode: an undefined step fails its scenario, it is never
// silently skipped or passed.
func TestStrictMode(t *testing.T) {
	res, err := Run(context.Background(), Options{NewPort: reference.Factory(reference.Options{}), Features: os.DirFS("testdata/strict")})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]report.Case{}
	for _, c := range res.Cases {
		got[c.ID] = c
	}
	if c := got["undefined-step"]; c.Status != report.Failed || !strings.Contains(c.Message, "undefined") {
		t.Errorf("undefined step: %s %q", c.Status, c.Message)
	}
	if c := got["passing"]; c.Status != report.Passed {
		t.Errorf("passing: %s %q", c.Status, c.Message)
	}
	if c := got["failing"]; c.Status != report.Failed || !strings.Contains(c.Message, "state.active: expected true, got false") {
		t.Errorf("failing: %s %q", c.Status, c.Message)
	}
	if c := got["choice-dependent"]; c.Status != report.Passed {
		t.Errorf("choice-dependent, choice declared equal: %s %q", c.Status, c.Message)
	}
	// An implementation that declares no choices gets choice-dependent
	// scenarios skipped, with the choice named.
	res, err = Run(context.Background(), Options{NewPort: func() sim.Port { return silentPort{reference.NewPort(reference.Options{})} }, Features: os.DirFS("testdata/strict")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Cases {
		if c.ID == "choice-dependent" && (c.Status != report.Skipped || !strings.Contains(c.Message, "fold-end=clamp, which the implementation does not declare")) {
			t.Errorf("undeclared choice: %s %q", c.Status, c.Message)
		}
	}
}

// silentPort is the reference declaring none of its choices.
type silentPort struct{ *reference.Port }

func (p silentPort) Start() (sim.Identity, error) {
	id, err := p.Port.Start()
	id.Choices = nil
	return id, err
}

// TestReferenceConformsUnderEveryChoice runs the suite against the
// reference with each alternative pick of a silent point: nothing fails,
// and the scenarios of the other pick are skipped naming the choice.
func TestReferenceConformsUnderEveryChoice(t *testing.T) {
	for _, choice := range spec.Choices {
		name := choice.Name
		if len(choice.Levels) > 0 && !slices.Contains(choice.Levels, spec.LevelPlugin) {
			continue // the runtime's: its scenarios are runtime-level
		}
		for _, v := range choice.ValueNames()[1:] {
			t.Run(name+"="+v, func(t *testing.T) {
				ch, err := reference.ParseChoices(map[string]string{name: v})
				if err != nil {
					t.Fatal(err)
				}
				res, err := Run(context.Background(), Options{NewPort: reference.Factory(reference.Options{Choices: ch})})
				if err != nil {
					t.Fatal(err)
				}
				skippedForIt := 0
				for _, c := range res.Cases {
					if c.Failing() {
						t.Errorf("%s: %s", c.ID, c.Message)
					}
					if c.Status == report.Skipped && strings.Contains(c.Message, "declares "+name+"="+v) {
						skippedForIt++
					}
				}
				if skippedForIt == 0 {
					t.Errorf("no scenario depends on %s=%s's alternative", name, v)
				}
			})
		}
	}
}

// unknownChoicePort is the reference declaring a fold-end value plankit
// does not know.
type unknownChoicePort struct{ *reference.Port }

func (p unknownChoicePort) Start() (sim.Identity, error) {
	id, err := p.Port.Start()
	id.Choices[spec.ChoiceFoldEnd] = "wrap"
	return id, err
}

// A declared value plankit does not know stops the suite at start as an
// implementation error (every scenario reported as not judged), instead of
// skipping the scenarios of that choice.
func TestUnknownChoiceIsRefused(t *testing.T) {
	res, err := Run(context.Background(), Options{NewPort: func() sim.Port { return unknownChoicePort{reference.NewPort(reference.Options{})} }})
	if err != nil {
		t.Fatalf("Run: %v, want the refusal reported as Result.Impl", err)
	}
	err = res.Impl
	if !errors.Is(err, ErrImpl) || !strings.Contains(err.Error(), `fold-end="wrap"`) || !strings.Contains(err.Error(), "known values: clamp, error, slice") {
		t.Fatalf("err = %v, want ErrImpl naming the choice and the known values", err)
	}
	if len(res.Cases) == 0 {
		t.Fatal("no scenario reported: every one should be listed as not judged")
	}
	for _, c := range res.Cases {
		if c.Status != report.Errored {
			t.Fatalf("%s: status %s, want %s", c.ID, c.Status, report.Errored)
		}
	}
}
