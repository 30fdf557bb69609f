package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
)

// unjudgedRun has one check of each kind of outcome: a judged pass and
// failure, a check the implementation's crash left unjudged, one an
// interruption left unrun.
func unjudgedRun() Run {
	return Run{Suite: "plankit", Verdict: VerdictImpl, Error: "adapter request seq 3 \"get\": the adapter process exited",
		Cases: []Case{
			{ID: "a", Kind: KindScenario, Feature: "F", URI: "f.feature", Clauses: []string{"PEND-1"}, Status: Passed,
				Steps: []Step{{Keyword: "Given ", Text: "x", Status: "passed"}}},
			{ID: "b", Kind: KindScenario, Feature: "F", URI: "f.feature", Clauses: []string{"PEND-1"}, Status: Failed, Message: "step \"y\": want 1, got 2",
				Steps: []Step{{Keyword: "Then ", Text: "y", Status: "failed", Error: "want 1, got 2"}}},
			{ID: "c", Kind: KindScenario, Feature: "F", URI: "f.feature", Clauses: []string{"PEND-1"}, Status: Errored, Message: "the adapter process exited",
				Steps: []Step{{Keyword: "Given ", Text: "x", Status: "passed"}, {Keyword: "When ", Text: "z", Status: "failed", Error: "exited"}, {Keyword: "Then ", Text: "y", Status: "skipped"}}},
			{ID: "p", Kind: KindProperty, Clauses: []string{"PEND-2"}, Status: Errored, Message: "not run: the implementation could not be run"},
			{ID: "q", Kind: KindProperty, Clauses: []string{"PEND-2"}, Status: NotRun, Message: "not run: the run was interrupted"},
		}}
}

func TestJUnitReportsUnjudgedChecksAsErrors(t *testing.T) {
	b, err := JUnit(unjudgedRun())
	if err != nil {
		t.Fatal(err)
	}
	var root JUnitSuites
	if err := xml.Unmarshal(b, &root); err != nil {
		t.Fatalf("invalid XML: %v\n%s", err, b)
	}
	// b failed; c and p errored, plus the run-level implementation error;
	// q was not run.
	if root.Failures != 1 || root.Errors != 3 || root.Skipped != 1 || root.Tests != 6 {
		t.Fatalf("tests %d failures %d errors %d skipped %d, want 6/1/3/1\n%s", root.Tests, root.Failures, root.Errors, root.Skipped, b)
	}
	for _, s := range root.Suites {
		for _, c := range s.Cases {
			if (c.Name == "c" || c.Name == "p") && (c.Error == nil || c.Failure != nil) {
				t.Errorf("%s: want an <error>, not a <failure>", c.Name)
			}
		}
	}
}

func TestCucumberNeverFailsAnUnjudgedCheck(t *testing.T) {
	b, err := Cucumber(unjudgedRun())
	if err != nil {
		t.Fatal(err)
	}
	var feats []cukeFeature
	if err := json.Unmarshal(b, &feats); err != nil {
		t.Fatal(err)
	}
	failed := map[string]bool{}
	var cMessage string
	for _, f := range feats {
		for _, el := range f.Elements {
			id := el.ID[strings.IndexByte(el.ID, ';')+1:]
			for _, st := range el.Steps {
				if st.Result.Status == "failed" {
					failed[id] = true
				}
				if id == "c" && st.Name == "z" {
					cMessage = st.Result.Error
					if st.Result.Status != "skipped" {
						t.Errorf("the step where the implementation broke is %s", st.Result.Status)
					}
				}
			}
		}
	}
	if len(failed) != 1 || !failed["b"] {
		t.Fatalf("failed elements %v, want only b\n%s", failed, b)
	}
	if cMessage == "" {
		t.Fatal("the step where the implementation broke carries no message")
	}
}

func TestTableDoesNotCountUnjudgedChecksAsDeviations(t *testing.T) {
	rows := Table(unjudgedRun().Cases, nil)
	want := []ClauseRow{{Clause: "PEND-1", Passed: 1, Failed: 1, Errors: 1}, {Clause: "PEND-2", Errors: 1, NotRun: 1}}
	if len(rows) != 2 || rows[0] != want[0] || rows[1] != want[1] {
		t.Fatalf("rows %+v, want %+v", rows, want)
	}
	var b bytes.Buffer
	WriteTable(&b, rows)
	if !strings.Contains(b.String(), "error  not-run") {
		t.Fatalf("table without the error and not-run columns:\n%s", b.String())
	}
	b.Reset()
	WriteTable(&b, Table(unjudgedRun().Cases[:2], nil))
	if strings.Contains(b.String(), "error") {
		t.Fatalf("error columns shown for a run without errors:\n%s", b.String())
	}
	j, _ := JSON(Run{Clauses: Table(unjudgedRun().Cases[:2], nil)})
	if bytes.Contains(j, []byte("notRun")) || bytes.Contains(j, []byte(`"errors"`)) {
		t.Fatalf("JSON rows of a fully judged run changed shape:\n%s", j)
	}
}

// A clause entry whose failing check was not judged is no unexpected pass.
func TestManifestIgnoresUnjudgedChecks(t *testing.T) {
	m, err := ParseManifest("m.txt", []byte("clause:PEND-2 -- known\n"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []Case{{ID: "x", Kind: KindProperty, Clauses: []string{"PEND-2"}, Status: Passed},
		{ID: "y", Kind: KindProperty, Clauses: []string{"PEND-2"}, Status: Errored}}
	if _, findings := m.Apply(cases, "2026-01-01", false); len(findings) != 0 {
		t.Fatalf("findings %q", findings)
	}
	cases[1].Status = Passed
	if _, findings := m.Apply(cases, "2026-01-01", false); len(findings) != 1 {
		t.Fatalf("findings %q, want the unexpected pass", findings)
	}
}

// A scenario that never ran and was listed without its steps (the
// implementation could not be started) still carries a step, skipped,
// with the reason: cucumber tools count a scenario without steps as
// passed.
func TestCucumberGivesANeverRunScenarioASkippedStep(t *testing.T) {
	for _, status := range []string{Errored, NotRun, Skipped} {
		r := Run{Cases: []Case{{ID: "s", Kind: KindScenario, Feature: "F", URI: "f.feature", Line: 4, Clauses: []string{"PEND-1"}, Status: status, Message: "not run: the implementation could not be started"}}}
		b, err := Cucumber(r)
		if err != nil {
			t.Fatal(err)
		}
		var feats []cukeFeature
		if err := json.Unmarshal(b, &feats); err != nil {
			t.Fatal(err)
		}
		steps := feats[0].Elements[0].Steps
		if len(steps) == 0 || steps[0].Result.Status != "skipped" || !strings.Contains(steps[0].Result.Error, "could not be started") {
			t.Errorf("%s: steps %+v, want a skipped step with the reason", status, steps)
		}
	}
}
