package coverage

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var clauses = []string{"LOG-1", "LOG-2", "PEND-1"}

func TestComputeFullCoverage(t *testing.T) {
	scenarios := []Check{
		{ID: "log-shape", Clauses: []string{"LOG-1", "LOG-2"}},
		{ID: "pend-boundary", Clauses: []string{"PEND-1"}},
		{ID: "pend-later", Clauses: []string{"PEND-1", "PEND-1"}},
	}
	properties := []Check{
		{ID: "fold-purity", Clauses: []string{"LOG-2", "LOG-1"}},
		{ID: "pending-cancel", Clauses: []string{"PEND-1"}},
	}
	m := Compute(clauses, scenarios, properties)
	if !m.OK() {
		t.Fatalf("problems: %v", m.Problems)
	}
	want := []Row{
		{Clause: "LOG-1", Scenarios: []string{"log-shape"}, Properties: []string{"fold-purity"}},
		{Clause: "LOG-2", Scenarios: []string{"log-shape"}, Properties: []string{"fold-purity"}},
		{Clause: "PEND-1", Scenarios: []string{"pend-boundary", "pend-later"}, Properties: []string{"pending-cancel"}},
	}
	if !reflect.DeepEqual(m.Rows, want) {
		t.Errorf("rows:\n%+v\nwant:\n%+v", m.Rows, want)
	}
	if m.Scenarios != 3 || m.Properties != 2 {
		t.Errorf("counts %d/%d", m.Scenarios, m.Properties)
	}
}

func TestComputeReportsEveryProblem(t *testing.T) {
	scenarios := []Check{
		{ID: "a", Clauses: []string{"LOG-1", "PEND-9"}, Where: "x.feature:3"},
		{ID: "a", Clauses: []string{"LOG-2"}, Where: "x.feature:9"},
		{ID: "", Name: "untagged", Clauses: []string{"LOG-1"}, Where: "x.feature:12"},
		{ID: "b", Clauses: nil, Where: "x.feature:20"},
	}
	properties := []Check{{ID: "p", Clauses: []string{"LOG-1", "XYZ-1"}}}
	m := Compute(clauses, scenarios, properties)
	var got []string
	for _, p := range m.Problems {
		got = append(got, p.String())
	}
	want := []string{
		"x.feature:3: scenario a cites unknown clause PEND-9",
		"x.feature:9: scenario ID a is used more than once",
		`x.feature:12: scenario "untagged" has no stable ID (tag it @id:...)`,
		"x.feature:20: scenario b cites no clause",
		"property p cites unknown clause XYZ-1",
		"LOG-2: no property cites it",
		"PEND-1: no scenario cites it",
		"PEND-1: no property cites it",
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if m.OK() {
		t.Error("OK with problems")
	}
}

// With no properties at all, every clause lacks one: the gate cannot pass
// on scenarios alone.
func TestComputeWithoutPropertiesFails(t *testing.T) {
	m := Compute(clauses, []Check{{ID: "s", Clauses: clauses}}, nil)
	n := 0
	for _, p := range m.Problems {
		if p.Kind == NoProperty {
			n++
		}
	}
	if n != len(clauses) || len(m.Problems) != n {
		t.Errorf("problems %v", m.Problems)
	}
}

func TestComputeIsDeterministic(t *testing.T) {
	s := []Check{{ID: "z", Clauses: []string{"LOG-1"}}, {ID: "a", Clauses: []string{"LOG-1", "LOG-2"}}}
	p := []Check{{ID: "q", Clauses: []string{"PEND-1", "LOG-1"}}}
	var first bytes.Buffer
	if err := Compute(clauses, s, p).WriteJSON(&first); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		var again bytes.Buffer
		Compute(clauses, s, p).WriteJSON(&again)
		if again.String() != first.String() {
			t.Fatal("output differs between runs")
		}
	}
}

func TestParseFeatureFixtures(t *testing.T) {
	checks, err := ScenariosFromFeatures(os.DirFS("testdata"), "features")
	if err != nil {
		t.Fatal(err)
	}
	want := []Check{
		{ID: "bad-unknown", Name: "cites a clause that does not exist", Clauses: []string{"LOG-1", "PEND-99"}, Where: "features/bad.feature:5"},
		{ID: "bad-foreign", Name: "cites a clause of an unknown group", Clauses: []string{"LOG-1", "FOO-1"}, Where: "features/bad.feature:9"},
		{ID: "pend-queue", Name: "reuses another scenario's ID", Clauses: []string{"LOG-1"}, Where: "features/bad.feature:13"},
		{ID: "", Name: "has no ID", Clauses: []string{"LOG-1", "LOG-2"}, Choices: []string{"cancel-pending=maybe", "no-such-choice=x"}, Where: "features/bad.feature:17"},
		{ID: "pend-queue", Name: "a selection during an open turn is queued", Clauses: []string{"PEND-4"}, Where: "features/pend.feature:8"},
		{ID: "pend-cancel", Name: "selecting back cancels", Clauses: []string{"PEND-5"}, Choices: []string{"cancel-pending=clear"}, Where: "features/pend.feature:16"},
		{ID: "pend-outcomes", Name: "the set outcome matrix", Clauses: []string{"PEND-3", "PEND-6"}, Where: "features/pend.feature:23"},
	}
	if !reflect.DeepEqual(checks, want) {
		for _, c := range checks {
			t.Logf("%+v", c)
		}
		t.Fatal("checks differ from the fixture's")
	}
	known := []string{"LOG-1", "LOG-2", "PEND-3", "PEND-4", "PEND-5", "PEND-6"}
	m := ComputeWithChoices(known, Choices{"cancel-pending": {"clear", "keep-equal"}}, checks, []Check{{ID: "prop", Clauses: known, Choices: []string{"cancel-pending=keep-equal"}}})
	var got []string
	for _, p := range m.Problems {
		got = append(got, p.String())
	}
	wantProblems := []string{
		`features/bad.feature:17: scenario "has no ID" depends on unknown choice cancel-pending=maybe`,
		`features/bad.feature:17: scenario "has no ID" depends on unknown choice no-such-choice=x`,
		"features/bad.feature:5: scenario bad-unknown cites unknown clause PEND-99",
		"features/bad.feature:9: scenario bad-foreign cites unknown clause FOO-1",
		`features/bad.feature:17: scenario "has no ID" has no stable ID (tag it @id:...)`,
		"features/pend.feature:8: scenario ID pend-queue is used more than once",
	}
	if !slices.Equal(got, wantProblems) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantProblems, "\n"))
	}
}

func TestParseFeatureErrorNamesTheFile(t *testing.T) {
	_, err := ScenariosFromFeatures(os.DirFS("testdata"), "broken")
	if err == nil || !strings.HasPrefix(err.Error(), "broken/syntax.feature:6:3: expected: ") {
		t.Fatalf("got %v, want an error naming broken/syntax.feature and line 6", err)
	}
}

func TestNoFeatureFilesIsNoScenarios(t *testing.T) {
	checks, err := ScenariosFromFeatures(os.DirFS("testdata"), "nowhere")
	if err != nil || len(checks) != 0 {
		t.Fatalf("got %v, %v", checks, err)
	}
}

func TestWriters(t *testing.T) {
	m := Compute(clauses, []Check{{ID: "s1", Clauses: []string{"LOG-1", "LOG-2", "PEND-1"}}}, []Check{{ID: "p1", Clauses: []string{"LOG-1"}}})
	var text bytes.Buffer
	if err := m.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	wantText := `clause  scenarios  properties  checks
LOG-1           1           1  s1 p1
LOG-2           1           0  s1
PEND-1          1           0  s1

FAIL LOG-2: no property cites it
FAIL PEND-1: no property cites it
FAIL 3 clauses, 1 scenarios, 1 properties, 2 problems
`
	if text.String() != wantText {
		t.Errorf("text:\n%s\nwant:\n%s", text.String(), wantText)
	}
	var md bytes.Buffer
	m.WriteMarkdown(&md)
	if !strings.Contains(md.String(), "| LOG-2 | `s1` | — |") || !strings.Contains(md.String(), "- PEND-1: no property cites it") {
		t.Errorf("markdown:\n%s", md.String())
	}
	var js bytes.Buffer
	m.WriteJSON(&js)
	var back Matrix
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || !reflect.DeepEqual(back, m) {
		t.Errorf("json round trip: %v\n%s", err, js.String())
	}
}

// Runtime checks fill a third column; a runtime check citing an unknown
// clause or repeating an ID is a problem, and the column shows only when
// runtime checks were added.
func TestAddRuntime(t *testing.T) {
	clauses := []string{"LOG-1", "LOG-2"}
	all := []Check{{ID: "s", Clauses: clauses}}
	props := []Check{{ID: "p", Clauses: clauses}}
	m := Compute(clauses, all, props)
	var before strings.Builder
	if err := m.WriteText(&before); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(before.String(), "runtime") {
		t.Fatalf("no runtime scenarios added, but the text shows the column:\n%s", before.String())
	}
	m.AddRuntime([]Check{{ID: "rt-b", Clauses: []string{"LOG-1"}}, {ID: "rt-a", Clauses: []string{"LOG-1"}}})
	if !m.OK() || !slices.Equal(m.Rows[0].Runtime, []string{"rt-a", "rt-b"}) || len(m.Rows[1].Runtime) != 0 {
		t.Fatalf("rows %+v, problems %v", m.Rows, m.Problems)
	}
	var text strings.Builder
	if err := m.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "runtime") || !strings.Contains(text.String(), "2 runtime checks") {
		t.Fatalf("text lacks the runtime column:\n%s", text.String())
	}
	m.AddRuntime([]Check{{ID: "rt-a", Clauses: []string{"NOPE-1"}}})
	if len(m.Problems) != 2 || m.Problems[0].Kind != DuplicateID || m.Problems[1].Kind != UnknownClause || m.Problems[1].CheckKind != Runtime {
		t.Fatalf("problems %v, want a duplicate ID and an unknown clause of a runtime scenario", m.Problems)
	}
}

// Runtime gaps say what a runtime cannot show: a clause no runtime check
// cites needs a gap for the whole clause; a whole-clause gap on a clause
// runtime checks cite, and a gap on an unknown clause, are problems; the
// gaps are listed with their reasons.
func TestRuntimeGaps(t *testing.T) {
	m := Compute([]string{"LOG-1", "LOG-2", "PEND-1"}, []Check{{ID: "s", Clauses: []string{"LOG-1", "LOG-2", "PEND-1"}}}, []Check{{ID: "p", Clauses: []string{"LOG-1", "LOG-2", "PEND-1"}}})
	m.AddRuntime([]Check{{ID: "rt-a", Clauses: []string{"LOG-1", "PEND-1"}}})
	m.AddRuntimeGaps([]Gap{{Clause: "LOG-2", Part: "its end", Why: "not a runtime's"}, {Clause: "PEND-1", Why: "never"}, {Clause: "NOPE-1", Why: "x"}})
	var kinds []string
	for _, p := range m.Problems {
		kinds = append(kinds, p.Kind+" "+p.Clause)
	}
	want := []string{UnknownClause + " NOPE-1", NoRuntimeCheck + " LOG-2", WholeGapChecked + " PEND-1"}
	if strings.Join(kinds, "|") != strings.Join(want, "|") {
		t.Fatalf("problems %v, want %v", kinds, want)
	}
	var text strings.Builder
	if err := m.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"LOG-2: its end — not a runtime's", "PEND-1: the whole clause — never", "FAIL LOG-2: no runtime check cites it"} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("the text lacks %q:\n%s", s, text.String())
		}
	}
	m = Compute([]string{"LOG-2"}, []Check{{ID: "s", Clauses: []string{"LOG-2"}}}, []Check{{ID: "p", Clauses: []string{"LOG-2"}}})
	m.AddRuntime(nil)
	m.AddRuntimeGaps([]Gap{{Clause: "LOG-2", Why: "a fold is plan mode's API"}})
	if !m.OK() {
		t.Errorf("a clause whose whole is a gap: %v", m.Problems)
	}
}
