package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The printed catalogs are the committed generated files, byte for byte.
func TestCatalogPrintsTheGeneratedFiles(t *testing.T) {
	for _, tc := range []struct{ args, file string }{
		{"catalog clauses", "clauses.md"},
		{"catalog clauses --format json", "clauses.json"},
		{"catalog events", "events.md"},
		{"catalog events -f json", "events.json"},
		{"catalog service", "service.md"},
		{"catalog service --format json", "service.json"},
	} {
		code, out, errs := run(t, strings.Fields(tc.args)...)
		if code != ExitPass {
			t.Fatalf("%s: exit %d: %s", tc.args, code, errs)
		}
		want, err := os.ReadFile(filepath.Join("../../catalog", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("%s differs from catalog/%s", tc.args, tc.file)
		}
		if strings.HasSuffix(tc.file, ".json") && !json.Valid([]byte(out)) {
			t.Errorf("%s: not JSON", tc.args)
		}
	}
}

func TestCatalogCoverageOnFixtures(t *testing.T) {
	code, out, errs := run(t, "catalog", "coverage", "--features", "../../catalog/coverage/testdata/features")
	if code != ExitFail {
		t.Fatalf("exit %d, want %d\n%s%s", code, ExitFail, out, errs)
	}
	for _, want := range []string{
		"FAIL ../../catalog/coverage/testdata/features/bad.feature:5: scenario bad-unknown cites unknown clause PEND-99",
		"depends on unknown choice cancel-pending=maybe",
		"FAIL LOG-3: no scenario cites it",
		"PEND-5          1           2  pend-cancel model-state-machine pending-cancel-PEND-1-PEND-5\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The properties are plankit's own, so every clause has one.
	if strings.Contains(out, "no property cites it") {
		t.Errorf("a clause lacks a property:\n%s", out)
	}
	code, out, _ = run(t, "catalog", "coverage", "--features", "../../catalog/coverage/testdata/features", "--format", "json")
	if code != ExitFail || !json.Valid([]byte(out)) {
		t.Errorf("json: exit %d, valid %v", code, json.Valid([]byte(out)))
	}
}

// A scenario suite that covers every clause leaves only the missing
// properties, which propertyChecks supplies once the registry is wired.
func TestCatalogCoverageCompleteScenarios(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("Feature: every clause\n")
	code, out, _ := run(t, "catalog", "clauses", "--format", "json")
	if code != ExitPass {
		t.Fatal(out)
	}
	var cat struct{ Clauses []struct{ ID string } }
	if err := json.Unmarshal([]byte(out), &cat); err != nil {
		t.Fatal(err)
	}
	for _, c := range cat.Clauses {
		b.WriteString("\n  @" + c.ID + " @id:" + strings.ToLower(c.ID) + "\n  Scenario: " + c.ID + "\n    Given an agent\n")
	}
	os.WriteFile(filepath.Join(dir, "all.feature"), []byte(b.String()), 0o644)
	code, out, _ = run(t, "catalog", "coverage", "--features", dir)
	problems := strings.Count(out, "\nFAIL ")
	// With a scenario for every clause and plankit's own properties,
	// coverage is complete.
	if code != ExitPass || problems != 0 {
		t.Errorf("exit %d, %d problems:\n%s", code, problems, out)
	}
}

func TestCatalogCoverageBrokenFeature(t *testing.T) {
	code, _, errs := run(t, "catalog", "coverage", "--features", "../../catalog/coverage/testdata/broken")
	if code != ExitUsage || !strings.Contains(errs, "catalog/coverage/testdata/broken/syntax.feature:6:3: expected: ") {
		t.Errorf("exit %d: %s", code, errs)
	}
}
