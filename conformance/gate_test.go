package conformance

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/plankit/plankit/features"
	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

func TestGate(t *testing.T) {
	failed := report.Case{ID: "a", Status: report.Failed}
	notRun := report.Case{ID: "b", Status: report.NotRun}
	for _, c := range []struct {
		name    string
		rep     report.Run
		want    string
		verdict string
		input   bool
	}{
		{"fail", report.Run{Verdict: report.VerdictFail, Error: "1 check failed", Cases: []report.Case{failed}}, "1 check failed", report.VerdictFail, false},
		{"implementation", report.Run{Verdict: report.VerdictImpl, Error: "connection reset"}, "connection reset", report.VerdictImpl, false},
		{"implementation after failures", report.Run{Verdict: report.VerdictImpl, Error: "connection reset", Cases: []report.Case{failed, notRun}}, "connection reset (and 1 checks failed: see above)", report.VerdictImpl, false},
		{"interrupted", report.Run{Verdict: report.VerdictInterrupted, Error: "interrupted", Cases: []report.Case{failed, notRun, notRun}}, "interrupted; 2 checks not run", report.VerdictInterrupted, false},
		{"planted link", report.Run{Verdict: report.VerdictFail, Error: "1 check failed", Cause: fmt.Errorf("counterexample: %w", atomicfile.ErrSymlink)}, "counterexample: " + atomicfile.ErrSymlink.Error(), report.VerdictFail, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var f *Failure
			err := Gate(c.rep)
			if !errors.As(err, &f) {
				t.Fatalf("Gate = %v, want a *Failure", err)
			}
			if err.Error() != c.want || f.Verdict != c.verdict || f.Input != c.input {
				t.Errorf("Gate = %q (verdict %s, input %v), want %q (verdict %s, input %v)", err, f.Verdict, f.Input, c.want, c.verdict, c.input)
			}
		})
	}
	if err := Gate(report.Run{Verdict: report.VerdictPass}); err != nil {
		t.Errorf("a passing run: %v", err)
	}
}

func TestManifestFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "expected-failures.txt")
	if _, _, err := ManifestFile(path, false, inputlimit.Manifest, nil); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a missing manifest without fix: %v", err)
	}
	m, update, err := ManifestFile(path, true, inputlimit.Manifest, nil)
	if err != nil || m == nil || update == nil {
		t.Fatalf("a missing manifest to fix: %v, %v, update %v", m, err, update != nil)
	}
	wrote := 0
	_, update, _ = ManifestFile(path, true, inputlimit.Manifest, func() { wrote++ })
	fixed, err := update([]report.Case{{ID: "pend-cancel-before-boundary", Clauses: []string{"PEND-5"}, Status: report.Failed}})
	if err != nil || wrote != 1 || fixed.Path != path {
		t.Fatalf("update: %v, wrote %d times, manifest %+v", err, wrote, fixed)
	}
	m, update, err = ManifestFile(path, false, inputlimit.Manifest, nil)
	if err != nil || update != nil || len(m.Entries) != 1 {
		t.Fatalf("the rewritten manifest: %+v, %v, update %v", m, err, update != nil)
	}
}

func TestSize(t *testing.T) {
	scenarios, err := features.Scenarios("")
	if err != nil {
		t.Fatal(err)
	}
	pend5, err := features.Scenarios("@PEND-5")
	if err != nil {
		t.Fatal(err)
	}
	runtimeScenarios, err := suite.Scenarios("")
	if err != nil {
		t.Fatal(err)
	}
	newRuntime := func() loop.Runtime { return nil } // Size starts nothing
	for _, c := range []struct {
		name             string
		opts             Options
		scenarios, props int
	}{
		{"everything", Options{NewPort: conforming}, len(scenarios), len(properties.Catalog())},
		{"features", Options{NewPort: conforming, Only: Features}, len(scenarios), 0},
		{"properties", Options{NewPort: conforming, Only: Properties}, 0, len(properties.Catalog())},
		{"tags", Options{NewPort: conforming, Tags: "@PEND-5"}, len(pend5), 0},
		{"runtime level", Options{NewRuntime: newRuntime}, len(runtimeScenarios), len(suite.PropertyCases())},
	} {
		s, p, err := Size(c.opts)
		if err != nil || s != c.scenarios || p != c.props {
			t.Errorf("%s: %d scenarios, %d properties (%v), want %d and %d", c.name, s, p, err, c.scenarios, c.props)
		}
	}
	if _, _, err := Size(Options{}); err == nil {
		t.Error("no implementation: no error")
	}
}

// TestARuntimeIsCheckedThroughNewRuntime: Options.NewRuntime runs the
// runtime level's suites, which tell a mutant from the reference.
func TestARuntimeIsCheckedThroughNewRuntime(t *testing.T) {
	builtin := func(newPort func() sim.Port) func() loop.Runtime {
		return func() loop.Runtime {
			b, err := loop.NewBuiltin(newPort(), loop.RetryPreStep)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
	ok := mustRun(t, Options{NewRuntime: builtin(conforming), Seed: 1, Only: Features})
	bad := mustRun(t, Options{NewRuntime: builtin(cancelKeepsPending), Seed: 1, Only: Features})
	if ok.Verdict != report.VerdictPass || bad.Verdict != report.VerdictFail || len(failing(bad)) == 0 {
		t.Fatalf("reference: %s %v; mutant: %s %v", ok.Verdict, failing(ok), bad.Verdict, failing(bad))
	}
	if !slices.ContainsFunc(bad.Cases, func(c report.Case) bool { return c.Failing() && slices.Contains(c.Clauses, "PEND-5") }) {
		t.Errorf("no failing PEND-5 scenario: %v", failing(bad))
	}
}
