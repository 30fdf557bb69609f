package compare

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

var update = flag.Bool("update", false, "rewrite testdata/dsh-plan-mode-mutated.txt")

func run(cases ...report.Case) report.Run {
	return report.Run{Suite: "plankit", SuiteVersion: "1.0.0", Seed: 1, Verdict: report.VerdictPass, Cases: cases}
}

func cs(id, status, msg string, clauses ...string) report.Case {
	return report.Case{ID: id, Kind: report.KindScenario, Status: status, Message: msg, Clauses: clauses}
}

// Every kind of change is told apart, and the unchanged are only counted.
func TestEveryKindOfChange(t *testing.T) {
	attributed := cs("moved", report.Failed, "same reason", "PEND-1", "PEND-2")
	attributed.Attributed = []string{"PEND-2"}
	old := run(
		cs("fixed", report.Failed, "wrong", "PEND-1"),
		cs("regressed", report.Passed, "", "PEND-1"),
		cs("was-skipped", report.Skipped, "depends on choice", "CFG-2"),
		cs("reason", report.Failed, "got 2", "STEP-6"),
		cs("moved", report.Failed, "same reason", "PEND-1", "PEND-2"),
		cs("same-failure", report.Failed, "got 3", "EXIT-1"),
		cs("manifest-only", report.Failed, "got 4", "EXIT-2"),
		cs("now-skipped", report.Passed, "", "CFG-1"),
		cs("failed-now-error", report.Failed, "bad", "SVC-1"),
		cs("gone", report.Passed, "", "LOG-1"),
		cs("same-pass", report.Passed, "", "LOG-2"),
		cs("still-skipped", report.Skipped, "depends on choice", "CFG-2"),
		cs("error-then-not-run", report.Errored, "crashed", "LOG-3"),
	)
	newer := run(
		cs("fixed", report.Passed, "", "PEND-1"),
		cs("regressed", report.ExpectedFailed, "got nothing [expected by m.txt:3: known]", "PEND-1"),
		cs("was-skipped", report.Failed, "section missing", "CFG-2"),
		cs("reason", report.Failed, "got 3", "STEP-6"),
		attributed,
		cs("same-failure", report.Failed, "got 3", "EXIT-1"),
		cs("manifest-only", report.ExpectedFailed, "got 4 [expected by m.txt:9: known]", "EXIT-2"),
		cs("now-skipped", report.Skipped, "depends on choice", "CFG-1"),
		cs("failed-now-error", report.Errored, "crashed", "SVC-1"),
		cs("same-pass", report.UnexpectedPass, "unexpected pass: remove id:same-pass from m.txt:2", "LOG-2"),
		cs("still-skipped", report.Skipped, "depends on choice", "CFG-2"),
		cs("error-then-not-run", report.NotRun, "interrupted", "LOG-3"),
		cs("added", report.Failed, "new check fails", "CMD-1"),
	)
	cmp, err := Reports("old.json", old, "new.json", newer, Options{AllowUnjudged: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, c := range cmp.Checks {
		got[c.Change] = append(got[c.Change], c.ID)
	}
	want := map[string][]string{
		New:      {"regressed", "was-skipped", "added"},
		Changed:  {"reason", "moved"},
		Fixed:    {"fixed"},
		OneSided: {"now-skipped", "failed-now-error", "error-then-not-run", "gone"},
	}
	for _, k := range Kinds {
		if !slices.Equal(got[k], want[k]) {
			t.Errorf("%s: %v, want %v", k, got[k], want[k])
		}
	}
	if cmp.Regressions != 3 {
		t.Errorf("regressions %d, want 3", cmp.Regressions)
	}
	if u := cmp.Unchanged; u != (Unchanged{Passing: 1, Failing: 2, NotJudged: 1}) {
		t.Errorf("unchanged %+v, want 1 passing (same-pass), 2 failing (same-failure, manifest-only), 1 not judged (still-skipped)", u)
	}
	for _, c := range cmp.Checks {
		switch c.ID {
		case "reason":
			if !c.ReasonChanged || c.ClausesChanged {
				t.Errorf("reason: %+v, want the reason changed and not the clauses", c)
			}
		case "moved":
			if c.ReasonChanged || !c.ClausesChanged || !slices.Equal(c.New.Clauses, []string{"PEND-2"}) {
				t.Errorf("moved: %+v, want the clauses changed to the attributed PEND-2 only", c)
			}
		case "regressed":
			if c.New.Reason != "got nothing" {
				t.Errorf("regressed: reason %q, want the manifest's note left out", c.New.Reason)
			}
		}
	}
	wantClauses := []Clause{
		{Clause: "PEND-1", Old: 2, New: 1, NowFailing: []string{"regressed"}, NoLongerFailing: []string{"fixed", "moved"}},
		{Clause: "CFG-2", Old: 0, New: 1, NowFailing: []string{"was-skipped"}},
		{Clause: "CMD-1", Old: 0, New: 1, NowFailing: []string{"added"}},
		{Clause: "SVC-1", Old: 1, New: 0, NoLongerFailing: []string{"failed-now-error"}},
	}
	if g, _ := json.Marshal(cmp.Clauses); !bytes.Equal(g, must(json.Marshal(wantClauses))) {
		t.Errorf("clauses:\n%s\nwant\n%s", g, must(json.Marshal(wantClauses)))
	}
}

// Without AllowUnjudged, a check the new report could not judge (error,
// not-run) is a regression whatever the old report says, so that a
// release that cannot be run does not pass the gate; a skipped one is not.
func TestUnjudgedChecksAreRegressions(t *testing.T) {
	old := run(cs("a", report.Passed, ""), cs("b", report.Errored, "crashed"), cs("c", report.Passed, ""), cs("d", report.Failed, "x", "PEND-1"), cs("e", report.Skipped, "choice"))
	newer := run(cs("a", report.Errored, "could not start"), cs("b", report.Errored, "crashed"), cs("c", report.NotRun, "interrupted"), cs("d", report.Errored, "could not start"), cs("e", report.Skipped, "choice"))
	newer.Verdict = report.VerdictImpl
	cmp, err := Reports("old.json", old, "new.json", newer, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range cmp.Checks {
		ids = append(ids, c.Change+" "+c.ID)
	}
	if want := []string{"unjudged a", "unjudged b", "unjudged c", "unjudged d"}; !slices.Equal(ids, want) {
		t.Errorf("checks %q, want %q", ids, want)
	}
	if cmp.Regressions != 4 || cmp.Unjudged != 4 {
		t.Errorf("regressions %d, unjudged %d; want 4, 4", cmp.Regressions, cmp.Unjudged)
	}
	if v := Verdict(cmp); !strings.HasPrefix(v, "Regression: 4 checks could not be judged in the new report") || !strings.Contains(v, "--allow-unjudged") {
		t.Errorf("verdict %q", v)
	}
	allowed, err := Reports("old.json", old, "new.json", newer, Options{AllowUnjudged: true})
	if err != nil {
		t.Fatal(err)
	}
	if allowed.Regressions != 0 || allowed.Unjudged != 0 || allowed.Unchanged.NotJudged != 2 {
		t.Errorf("with AllowUnjudged: regressions %d, unjudged %d, unchanged %+v; want 0, 0 and b and e not judged in both", allowed.Regressions, allowed.Unjudged, allowed.Unchanged)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// Nothing changed: no check listed, no regression.
func TestSameReport(t *testing.T) {
	r := run(cs("a", report.Passed, ""), cs("b", report.Failed, "x", "PEND-1"))
	cmp, err := Reports("a.json", r, "b.json", r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Checks) != 0 || len(cmp.Clauses) != 0 || cmp.Regressions != 0 || len(cmp.Notes) != 0 {
		t.Errorf("a report against itself: %+v", cmp)
	}
}

// How the runs were made differently is named.
func TestNotes(t *testing.T) {
	old, newer := run(cs("a", report.Passed, "")), run(cs("a", report.Passed, ""))
	old.Implementation = sim.Identity{Choices: map[string]string{"fold-end": "clamp", "plan-heading": "level-1"}}
	newer.Implementation = sim.Identity{Choices: map[string]string{"fold-end": "drop", "section-source": "log"}}
	newer.Seed, newer.Filter = 7, "--tags @PEND-5"
	cmp, err := Reports("a.json", old, "b.json", newer, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"seed: 1 → 7", "filter: (none) → --tags @PEND-5", "choice fold-end: clamp → drop", "choice plan-heading: level-1 → (none)", "choice section-source: (none) → log"}
	if !slices.Equal(cmp.Notes, want) {
		t.Errorf("notes %q, want %q", cmp.Notes, want)
	}
}

// Reports of different commands, suite versions or levels are not compared.
func TestMismatchedReports(t *testing.T) {
	base := run(cs("a", report.Passed, ""))
	diff := base
	diff.Suite = "plankit diff"
	later := base
	later.SuiteVersion = "1.1.0"
	other := run(cs("rt-a", report.Passed, ""))
	for _, tc := range []struct {
		name string
		new  report.Run
		want string
	}{
		{"command", diff, `old.json is a report of suite "plankit", new.json of suite "plankit diff"`},
		{"suite version", later, "different suite versions: old.json was made by suite 1.0.0, new.json by suite 1.1.0"},
		{"no check in common", other, "no check in common"},
	} {
		_, err := Reports("old.json", base, "new.json", tc.new, Options{})
		var m *MismatchError
		if !errors.As(err, &m) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a mismatch saying %q", tc.name, err, tc.want)
		}
	}
	if _, err := Reports("old.json", base, "new.json", run(), Options{}); err != nil {
		t.Errorf("a report without checks (a run that could not start) is comparable: %v", err)
	}
}

// A file that is not a plankit report is refused, naming the file and,
// for a syntax error, the line.
func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"{\n\"suite\": \"plankit\",\n  oops\n}", "r.json:3:4: not a plankit JSON report"},
		{`{"cases": []}`, "r.json: not a plankit JSON report: no suite"},
		{`{"suite":"plankit","verdict":"pass"}`, "r.json: no suiteVersion"},
		{`{"suite":"plankit","suiteVersion":"1.0.0","verdict":"pass","cases":[{"id":"a","status":"passed"},{"id":"a","status":"passed"}]}`, `r.json: cases[1]: check "a" is listed twice`},
		{`{"suite":"plankit","suiteVersion":"1.0.0","verdict":"pass","cases":[{"id":"a","status":"green"}]}`, `r.json: cases[0] (a): unknown status "green"`},
		{`[1, 2]`, "r.json: not a plankit JSON report"},
	} {
		if _, err := Parse("r.json", []byte(tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.data, err, tc.want)
		}
	}
}

// Reason takes off exactly what the manifest's Apply adds to a message,
// for an expected failure and an expired entry.
func TestReasonLeavesOutTheManifestsNote(t *testing.T) {
	m, err := report.ParseManifest("m.txt", []byte("id:a -- known [sic]\nid:b expires=2020-01-01 -- was known\n"))
	if err != nil {
		t.Fatal(err)
	}
	msg := "step \"x\": expected [1], got [2]"
	cases, _ := m.Apply([]report.Case{cs("a", report.Failed, msg, "PEND-1"), cs("b", report.Failed, msg, "PEND-1")}, "2026-01-01", true)
	for _, c := range cases {
		if c.Message == msg {
			t.Fatalf("%s: the manifest added nothing to the message: the test shows nothing", c.ID)
		}
		if got := Reason(c); got != msg {
			t.Errorf("%s (%s): reason %q, want %q", c.ID, c.Status, got, msg)
		}
	}
	c := cs("p", report.Failed, "case 0; counterexample out/cx/p-seed1-case0.yaml (first differing observation)", "PEND-1")
	c.Counterexample = "out/cx/p-seed1-case0.yaml"
	if got, want := Reason(c), "case 0; counterexample p-seed1-case0.yaml (first differing observation)"; got != want {
		t.Errorf("reason %q, want %q", got, want)
	}
}

// The published report of @deepseek-ai/dsh-plan-mode against the report of
// the same run on a copy of the package whose set() answers "queued" where
// the logged state already matches (scripts/dsh-mutated-report.sh writes
// both): the comparison names exactly the checks and clauses that changed,
// found here independently by reading the two reports' cases.
func TestPublishedDshReportAgainstAMutatedRun(t *testing.T) {
	const oldFile, newFile = "testdata/dsh-plan-mode-0.1.0-rc.8.json", "testdata/dsh-plan-mode-mutated.json"
	old, err := Read(oldFile, nil, 16<<20)
	if err != nil {
		t.Fatal(err)
	}
	newer, err := Read(newFile, nil, 16<<20)
	if err != nil {
		t.Fatal(err)
	}
	// Named as docs/ci-gate.md's command names them, from the module root.
	cmp, err := Reports("compare/"+oldFile, old, "compare/"+newFile, newer, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range cmp.Checks {
		ids = append(ids, c.Change+" "+c.ID)
	}
	want := []string{
		"new pend-set-matrix/cancel-open-keep-equal",
		"new pend-cancel-before-boundary",
		"new pend-cancel-exit-before-boundary",
		"new svc-set-outcomes-are-the-four",
		"new model-state-machine",
		"new pending-cancel-PEND-1-PEND-5",
		"new host-tools-and-empty-steps-EXIT-1-SVC-3-PEND-2",
		"new service-surface-SVC-1-SVC-4",
		"new service-lifecycle-SVC-1-SVC-2-PEND-8",
		"new review-outcomes-EXIT-4-EXIT-7",
		"changed step-no-narration-after-cancelled-round-trip",
	}
	if !slices.Equal(ids, want) {
		t.Errorf("changed checks:\n%s\nwant\n%s", strings.Join(ids, "\n"), strings.Join(want, "\n"))
	}
	var clauses []string
	for _, r := range cmp.Clauses {
		clauses = append(clauses, r.Clause)
	}
	if !slices.Equal(clauses, []string{"PEND-5", "SVC-4"}) {
		t.Errorf("changed clauses %v, want [PEND-5 SVC-4]", clauses)
	}
	if cmp.Regressions != 10 {
		t.Errorf("regressions %d, want 10", cmp.Regressions)
	}

	// The same, read independently: every case whose status, failing
	// clauses or reason differs.
	before := map[string]report.Case{}
	for _, c := range old.Cases {
		before[c.ID] = c
	}
	var independent []string
	for _, c := range newer.Cases {
		o := before[c.ID]
		if o.Status != c.Status || !slices.Equal(o.FailedClauses(), c.FailedClauses()) && c.Status != report.Passed || Reason(o) != Reason(c) {
			independent = append(independent, c.ID)
		}
	}
	listed := make([]string, len(cmp.Checks))
	for i, c := range cmp.Checks {
		listed[i] = c.ID
	}
	slices.Sort(independent)
	slices.Sort(listed)
	if !slices.Equal(independent, listed) {
		t.Errorf("the cases that differ are %v, the comparison lists %v", independent, listed)
	}

	// The text the docs show, byte for byte.
	var text bytes.Buffer
	if err := Text(&text, cmp); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "dsh-plan-mode-mutated.txt")
	if *update {
		if err := os.WriteFile(golden, text.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want, err := os.ReadFile(golden); err != nil || !bytes.Equal(text.Bytes(), want) {
		t.Errorf("the text output differs from %s (go test ./compare -run %s -update): %v\n%s", golden, t.Name(), err, text.Bytes())
	}
}

// Every format renders the same comparison the same way every time (no map
// order), and Markdown and JSON carry the changed checks.
func TestFormatsAreDeterministic(t *testing.T) {
	old := run(cs("a", report.Passed, "", "PEND-1"), cs("b", report.Failed, "x|y", "STEP-6", "PEND-2"), cs("c", report.Failed, "z", "CFG-1", "CMD-2", "EXIT-1"))
	newer := run(cs("a", report.Failed, "now <bad>", "PEND-1"), cs("b", report.Passed, "", "STEP-6", "PEND-2"), cs("c", report.Passed, "", "CFG-1", "CMD-2", "EXIT-1"))
	for _, format := range Formats {
		var first bytes.Buffer
		for i := range 20 {
			cmp, err := Reports("o.json", old, "n.json", newer, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := Write(&b, cmp, format); err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = b
				continue
			}
			if !bytes.Equal(b.Bytes(), first.Bytes()) {
				t.Fatalf("%s: run %d differs", format, i)
			}
		}
		if !strings.Contains(first.String(), "now") || !strings.Contains(first.String(), "CMD-2") {
			t.Errorf("%s: the changes are missing:\n%s", format, first.String())
		}
		if format == "markdown" && (!strings.Contains(first.String(), `x&#124;y`) || strings.Contains(first.String(), "<bad>")) {
			t.Errorf("markdown: a reason is not escaped for a table cell:\n%s", first.String())
		}
	}
}
