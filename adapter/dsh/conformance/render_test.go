package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/report"
)

var update = flag.Bool("update", false, "rewrite testdata/page.golden.md")

func testInputs(t *testing.T) Inputs {
	t.Helper()
	in := Inputs{RunPath: "testdata/report.json", DeviationsPath: "testdata/deviations.yaml", Adapter: "node host.mjs", Output: "docs/conformance/page.md"}
	data, err := os.ReadFile(in.RunPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &in.Run); err != nil {
		t.Fatal(err)
	}
	if in.Notes, err = readNotes(in.DeviationsPath); err != nil {
		t.Fatal(err)
	}
	if in.Manifest, err = report.ReadManifest("testdata/manifest.txt"); err != nil {
		t.Fatal(err)
	}
	return in
}

func TestRenderGolden(t *testing.T) {
	page, err := render(testInputs(t))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "page.golden.md")
	if *update {
		if err := os.WriteFile(golden, page, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(page, want) {
		t.Errorf("page differs from %s (run go test ./adapter/dsh/conformance -update):\n%s", golden, page)
	}
}

func TestRenderRefusesAWrongPage(t *testing.T) {
	cases := []struct {
		name   string
		change func(in *Inputs)
		want   string
	}{
		{"unexplained failing check", func(in *Inputs) {
			in.Run.Cases[3].Status = report.Failed
		}, `check "step-notice" is failed in testdata/report.json but no deviation`},
		{"deviation names a passing check", func(in *Inputs) {
			in.Run.Cases[2].Status = report.Passed
		}, `names check "step-prepended", which is passed`},
		{"deviation names a check that does not exist", func(in *Inputs) {
			in.Notes.Deviations[1].Checks = []string{"no-such-check"}
		}, `names check "no-such-check", which the report testdata/report.json does not contain`},
		{"manifest entry without deviation", func(in *Inputs) {
			in.Manifest.Entries = append(in.Manifest.Entries, report.Entry{Line: 9, Kind: "id", Key: "pend-cancel", Reason: "x"})
		}, `testdata/manifest.txt:9: id:pend-cancel is not a check of any deviation`},
		{"deviation check missing from the manifest", func(in *Inputs) {
			in.Manifest.Entries = nil
		}, `check "step-prepended" of deviation "appended" is not listed in testdata/manifest.txt`},
		{"declared choice not explained", func(in *Inputs) {
			in.Run.Implementation.Choices["fold-end"] = "clamp"
		}, `declares fold-end=clamp but testdata/deviations.yaml does not say where`},
		{"explained value differs from the declared one", func(in *Inputs) {
			in.Run.Implementation.Choices["cancel-pending"] = "clear"
		}, `explains cancel-pending as "keep-equal" but the package declares clear`},
		{"explained choice not declared", func(in *Inputs) {
			in.Notes.Choices["reload-pending"] = "drop: gone"
		}, `explains choice reload-pending, which the package does not declare`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := testInputs(t)
			c.change(&in)
			_, err := render(in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("render error = %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestReadNotesNamesTheProblem(t *testing.T) {
	cases := []struct{ name, yaml, want string }{
		{"unknown field", "deviations:\n  - id: a\n    colour: red\n", `unknown field "colour"`},
		{"bad kind", "deviations:\n  - {id: a, title: T, clause: STEP-1, kind: oops, trace: t.yaml, where: w, reasoning: r}\n", "deviations[0].kind: want bug or silent-point"},
		{"bad clause", "deviations:\n  - {id: a, title: T, clause: step1, kind: bug, trace: t.yaml, where: w, reasoning: r}\n", "deviations[0].clause"},
		{"no trace", "deviations:\n  - {id: a, title: T, clause: STEP-1, kind: bug, where: w, reasoning: r}\n", "deviations[0].trace: every deviation needs a trace"},
		{"silent point without choice", "deviations:\n  - {id: a, title: T, clause: STEP-1, kind: silent-point, trace: t.yaml, where: w, reasoning: r}\n", "deviations[0].choice"},
		{"check explained twice", "deviations:\n  - {id: a, title: T, clause: STEP-1, kind: bug, checks: [x], trace: t.yaml, where: w, reasoning: r}\n  - {id: b, title: T, clause: STEP-1, kind: bug, checks: [x], trace: t.yaml, where: w, reasoning: r}\n", `deviations[1].checks[0]: check "x" is already explained by deviation "a"`},
		{"choice text without value", "choices:\n  fold-end: it clamps\n", "choices.fold-end: start with the declared value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "deviations.yaml")
			if err := os.WriteFile(path, []byte(c.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := readNotes(path)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("readNotes error = %v, want one naming %s and containing %q", err, path, c.want)
			}
		})
	}
}

func TestRunExitCodes(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"extra"}, &out, &errs); code != 2 {
		t.Errorf("unexpected argument: exit %d, want 2", code)
	}
	if code := run([]string{"-report", "testdata/missing.json"}, &out, &errs); code != 1 {
		t.Errorf("missing report: exit %d, want 1", code)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "page.md")
	args := []string{"-report", "testdata/report.json", "-deviations", "testdata/deviations.yaml", "-manifest", "testdata/manifest.txt", "-o", page}
	if code := run(append(args, "-check"), &out, &errs); code != 1 {
		t.Errorf("-check without a page: exit %d, want 1", code)
	}
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, errs.String())
	}
	if code := run(append(args, "-check"), &out, &errs); code != 0 {
		t.Errorf("-check after generating: exit %d, want 0: %s", code, errs.String())
	}
}
