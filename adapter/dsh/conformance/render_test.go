package conformance

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/report"
	"github.com/sebdah/goldie/v2"
)

func testInputs(t *testing.T) Inputs {
	t.Helper()
	in := Inputs{Subject: PluginSubject, RunPath: "testdata/report.json", DeviationsPath: "testdata/deviations.yaml", Adapter: "node host.mjs", Output: "docs/conformance/page.md"}
	data, err := os.ReadFile(in.RunPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &in.Run); err != nil {
		t.Fatal(err)
	}
	if in.Notes, err = readNotes(in.DeviationsPath, false); err != nil {
		t.Fatal(err)
	}
	if in.Manifest, err = report.ReadManifest("testdata/manifest.txt"); err != nil {
		t.Fatal(err)
	}
	return in
}

// The page rendered from the fixtures in testdata is testdata/page.golden
// (go test ./adapter/dsh/conformance -update rewrites this fixture; review
// the diff).
func TestRenderGolden(t *testing.T) {
	page, err := render(testInputs(t))
	if err != nil {
		t.Fatal(err)
	}
	goldie.New(t, goldie.WithNameSuffix(".md")).Assert(t, "page.golden", page)
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
	cases := []struct {
		name, yaml, want string
		belongs          bool
	}{
		{"belongs at plugin level", "deviations:\n  - {id: a, title: T, clause: STEP-1, kind: bug, belongs: loop, trace: t.yaml, where: w, reasoning: r}\n", "deviations[0].belongs: only a runtime's deviations", false},
		{"runtime deviation without belongs", "deviations:\n  - {id: a, title: T, clause: STEP-1, kind: bug, trace: t.yaml, where: w, reasoning: r}\n", "deviations[0].belongs: want loop, plugin or meeting", true},
		{"unknown belongs", "deviations:\n  - {id: a, title: T, clause: STEP-1, kind: bug, belongs: host, trace: t.yaml, where: w, reasoning: r}\n", `deviations[0].belongs: want loop, plugin or meeting, got "host"`, true},
		{"unknown field", "deviations:\n  - id: a\n    colour: red\n", `unknown field "colour"`, false},
		{"bad kind", "deviations:\n  - {id: a, title: T, clause: STEP-1, kind: oops, trace: t.yaml, where: w, reasoning: r}\n", "deviations[0].kind: want bug or silent-point", false},
		{"bad clause", "deviations:\n  - {id: a, title: T, clause: step1, kind: bug, trace: t.yaml, where: w, reasoning: r}\n", "deviations[0].clause", false},
		{"no trace", "deviations:\n  - {id: a, title: T, clause: STEP-1, kind: bug, where: w, reasoning: r}\n", "deviations[0].trace: every deviation needs a trace", false},
		{"silent point without choice", "deviations:\n  - {id: a, title: T, clause: STEP-1, kind: silent-point, trace: t.yaml, where: w, reasoning: r}\n", "deviations[0].choice", false},
		{"check explained twice", "deviations:\n  - {id: a, title: T, clause: STEP-1, kind: bug, checks: [x], trace: t.yaml, where: w, reasoning: r}\n  - {id: b, title: T, clause: STEP-1, kind: bug, checks: [x], trace: t.yaml, where: w, reasoning: r}\n", `deviations[1].checks[0]: check "x" is already explained by deviation "a"`, false},
		{"no check finds it", "deviations:\n  - {id: a, title: T, clause: STEP-1, kind: bug, trace: t.yaml, where: w, reasoning: r}\n", "deviations[0].checks: name the checks that find it", false},
		{"choice text without value", "choices:\n  fold-end: it clamps\n", "choices.fold-end: start with the declared value", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "deviations.yaml")
			if err := os.WriteFile(path, []byte(c.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := readNotes(path, c.belongs)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("readNotes error = %v, want one naming %s and containing %q", err, path, c.want)
			}
		})
	}
}

// Page renders the committed inputs, and names a missing one.
func TestPage(t *testing.T) {
	f, err := Page(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != PluginSubject.PagePath || !bytes.HasPrefix(f.Content, []byte("<!-- Code generated by")) {
		t.Errorf("page %s starts %q, want %s with the generated note", f.Path, f.Content[:min(60, len(f.Content))], PluginSubject.PagePath)
	}
	if _, err := Page(t.TempDir()); err == nil || !strings.Contains(err.Error(), filepath.FromSlash(PluginSubject.ReportPath)) {
		t.Errorf("missing report: got %v, want an error naming %s", err, PluginSubject.ReportPath)
	}
}

// The runtime's page says, for each deviation, where it belongs.
func TestRuntimePageSaysWhereEachDeviationBelongs(t *testing.T) {
	f, err := PageOf(repoRoot, RuntimeSubject)
	if err != nil {
		t.Fatal(err)
	}
	notes, err := readNotes(filepath.Join(repoRoot, RuntimeSubject.DeviationsPath), true)
	if err != nil {
		t.Fatal(err)
	}
	page := string(f.Content)
	for _, d := range notes.Deviations {
		_, section, ok := strings.Cut(page, "<a id=\""+d.ID+"\"></a>")
		if !ok {
			t.Fatalf("the page has no section for deviation %s", d.ID)
		}
		section, _, _ = strings.Cut(section, "<a id=")
		if want := "- Belongs to: " + belongsText[d.Belongs] + "\n"; !strings.Contains(section, want) {
			t.Errorf("deviation %s: the page does not say %q", d.ID, want)
		}
	}
	if !strings.Contains(page, "check --level runtime --adapter") {
		t.Error("the refresh command does not run the runtime level")
	}
}
