package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLintPlanReview(t *testing.T) {
	code, out, errs := run(t, "lint", "../../lint/testdata/dsh/plan-review.jsonl")
	if code != ExitPass {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"plan-review.jsonl:9: state: plan mode active at request/header",
		"plan-review.jsonl:27: state: plan mode inactive at request/header",
		"0 findings, 0 errors",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// A simulated log of a mutant is linted through the real entry point: sim
// writes it, lint reads it and exits 1 naming the clause.
func TestLintSimMutantLog(t *testing.T) {
	trace := "../../lint/testdata/traces/exit.yaml"
	for _, c := range []struct {
		mutant, clause string
		code           int
	}{{"", "", ExitPass}, {"exit-outside-plan", "EXIT-2", ExitFail}} {
		args := []string{"sim", "--format", "jsonl", trace}
		if c.mutant != "" {
			args = append(args, "--mutant", c.mutant)
		}
		_, log, _ := run(t, args...)
		path := filepath.Join(t.TempDir(), "run.jsonl")
		if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := run(t, "lint", path)
		if code != c.code || (c.clause != "" && !strings.Contains(out, ": "+c.clause+": ")) {
			t.Fatalf("mutant %q: exit %d (want %d), want clause %q\n%s%s", c.mutant, code, c.code, c.clause, out, errs)
		}
	}
}

func TestLintInputErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("{\"type\":\"session\"}\n{oops\n"), 0o644)
	code, out, _ := run(t, "lint", bad)
	if code != ExitUsage || !strings.Contains(out, "bad.jsonl:2: error: not a JSON object") {
		t.Fatalf("malformed line: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, "lint", filepath.Join(dir, "missing.jsonl"))
	if code != ExitUsage || !strings.Contains(out, "cannot read") {
		t.Fatalf("missing file: exit %d\n%s", code, out)
	}
	if code, _, _ := run(t, "lint", "--format", "yaml", bad); code != ExitUsage {
		t.Fatalf("unknown format: exit %d", code)
	}
	for _, c := range []string{"section-source=later", "fold-end=error"} {
		if code, _, errs := run(t, "lint", "--choice", c, "../../lint/testdata/dsh/plan-review.jsonl"); code != ExitUsage || !strings.Contains(errs, "--choice") {
			t.Fatalf("--choice %s: exit %d %s", c, code, errs)
		}
	}
	code, out, _ = run(t, "lint", "--format", "json", "../../lint/testdata/dsh/plan-review.jsonl")
	if code != ExitPass || !strings.Contains(out, `"exit": 0`) || !strings.Contains(out, `"active": true`) {
		t.Fatalf("json: exit %d\n%s", code, out)
	}
}

// TestLintSaysWhatItLeftOut: a log of many malformed lines, from a file or
// standard input, in text or JSON, shows the first entries, says how many
// were left out, and counts them all in the summary and the exit code.
func TestLintSaysWhatItLeftOut(t *testing.T) {
	p := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(p, []byte(strings.Repeat("\n", 30_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := run(t, "lint", p)
	if code != ExitUsage || !strings.Contains(out, p+": 20000 more entries left out") || !strings.Contains(out, "30000 errors") || strings.Count(out, "\n") > 10_010 {
		t.Fatalf("text: exit %d\n%s", code, out[max(0, len(out)-400):])
	}
	code, out, _ = run(t, "lint", "--format", "json", p)
	var doc struct {
		Files []struct {
			Entries []json.RawMessage
			Omitted map[string]int
		}
		Exit int
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != ExitUsage || doc.Exit != 2 || len(doc.Files) != 1 || len(doc.Files[0].Entries) != 10_000 || doc.Files[0].Omitted["error"] != 20_000 {
		t.Fatalf("json: exit %d, %v", code, err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	stdin := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = stdin }()
	code, out, _ = run(t, "lint", "-")
	if code != ExitUsage || !strings.Contains(out, "-: 20000 more entries left out") {
		t.Fatalf("stdin: exit %d\n%s", code, out[max(0, len(out)-400):])
	}
}
