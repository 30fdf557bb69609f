package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

func readJSONReport(t *testing.T, path string) report.Run {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r report.Run
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

func TestCheckReferencePassesEveryClauseTwice(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "r.json")
	code, out, errs := run(t, "check", "--json", js)
	if code != ExitPass {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "seed 1") || !strings.Contains(out, "verdict: pass") {
		t.Errorf("output lacks the seed or the verdict:\n%s", out)
	}
	r := readJSONReport(t, js)
	clauses := spec.ClauseIDs()
	rows := map[string]report.ClauseRow{}
	for _, row := range r.Clauses {
		rows[row.Clause] = row
	}
	for _, c := range clauses {
		if rows[c].Passed < 2 {
			t.Errorf("clause %s has %d passing scenarios, want >= 2", c, rows[c].Passed)
		}
	}
}

func TestCheckMutantFails(t *testing.T) {
	code, out, _ := run(t, "check", "--mutant", "cancel-keeps-pending", "--tags", "@PEND-5")
	if code != ExitFail {
		t.Fatalf("exit %d, want %d\n%s", code, ExitFail, out)
	}
	if !strings.Contains(out, "FAIL pend-cancel-before-boundary") {
		t.Errorf("the killing scenario is not reported:\n%s", out)
	}
}

func TestCheckUsageErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("# ok\nid:x expires=2026-13-01 -- reason\n"), 0o644)
	manifest := filepath.Join(dir, "m.txt")
	os.WriteFile(manifest, nil, 0o644)
	for _, args := range [][]string{
		{"check", "--format", "fancy"},
		{"check", "--only", "nothing"},
		{"check", "--seed", "-3"},
		{"check", "--mutant", "no-such-mutant"},
		{"check", "--fix"},
		{"check", "--expect", manifest, "--fix", "--tags", "@PEND-5"},
		{"check", "--expect", manifest, "--fix", "--only", "features"},
		{"check", "--expect", filepath.Join(dir, "missing.txt")},
		{"check", "--tags", "@PEND-5 &&"},
	} {
		code, _, errs := run(t, args...)
		if code != ExitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, ExitUsage, errs)
		}
	}
	code, _, errs := run(t, "check", "--expect", bad)
	if code != ExitUsage || !strings.Contains(errs, "bad.txt:2") {
		t.Errorf("a bad manifest: exit %d, stderr %q; want exit 2 naming bad.txt:2", code, errs)
	}
}

// brokenPort is an implementation that starts and then fails every call.
type brokenPort struct{ sim.Port }

func (brokenPort) Start() (sim.Identity, error) { return sim.Identity{Name: "broken"}, nil }
func (brokenPort) Stop() error                  { return nil }
func (brokenPort) Load(sim.LoadRequest) (sim.LoadReply, error) {
	return sim.LoadReply{}, errors.New("connection reset")
}

// runCheckWith runs plankit check as Main does, with what the command
// takes from outside its flags (the date, the implementation) injected.
func runCheckWith(t *testing.T, o *checkOptions, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if !slices.Contains(args, "--counterexamples") {
		args = append(args, "--counterexamples", t.TempDir())
	}
	cmd := checkCmd(o)
	var out, errb bytes.Buffer
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	if err != nil && err.Error() != "" {
		errb.WriteString("plankit: " + err.Error() + "\n")
	}
	return codeOf(err), out.String(), errb.String()
}

// against returns check options running port whatever the flags say.
func against(port func() sim.Port) *checkOptions {
	return &checkOptions{today: func() string { return "2026-01-01" }, factory: func(*implFlags) (func() sim.Port, error) { return port, nil }}
}

func TestCheckImplementationErrorExits3(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "r.json")
	code, out, errs := runCheckWith(t, against(func() sim.Port { return brokenPort{} }), "--tags", "@LOG-1", "--json", js)
	if code != ExitImpl {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitImpl, out, errs)
	}
	if r := readJSONReport(t, js); r.Verdict != report.VerdictImpl || !strings.Contains(r.Error, "connection reset") {
		t.Errorf("report verdict %q error %q", r.Verdict, r.Error)
	}
}

func TestCheckReportsAreByteIdenticalForASeed(t *testing.T) {
	dir := t.TempDir()
	render := func(name, seed string, extra ...string) map[string][]byte {
		base := filepath.Join(dir, name)
		args := append([]string{"check", "--seed", seed, "--mutant", "narrate-twice", "--counterexamples", filepath.Join(dir, "cex"),
			"--junit", base + ".xml", "--cucumber", base + ".cuke.json", "--json", base + ".json"}, extra...)
		code, out, errs := run(t, args...)
		if code != ExitFail {
			t.Fatalf("exit %d\n%s\n%s", code, out, errs)
		}
		files := map[string][]byte{"stdout": []byte(out)}
		for _, ext := range []string{".xml", ".cuke.json", ".json"} {
			b, err := os.ReadFile(base + ext)
			if err != nil {
				t.Fatal(err)
			}
			files[ext] = b
		}
		return files
	}
	a, b := render("a", "7"), render("b", "7")
	for k := range a {
		if !bytes.Equal(a[k], b[k]) {
			t.Errorf("%s differs between two runs with seed 7", k)
		}
	}
	// The seed also orders the scenarios; their results must not depend on
	// it. (Properties draw their cases from the seed, so they differ.)
	c, d := render("c", "8", "--only", "features"), render("d", "7", "--only", "features")
	if !bytes.Equal(stripSeed(d[".json"], "7"), stripSeed(c[".json"], "8")) {
		t.Errorf("results depend on the scenario order")
	}
}

func stripSeed(b []byte, seed string) []byte {
	return bytes.Replace(b, []byte(`"seed": `+seed), []byte(`"seed": N`), 1)
}

// The shape of the common JUnit schema (Jenkins/Ant junit.xsd): the
// required attributes are checked to be present and well-formed.
type xsdSuites struct {
	XMLName xml.Name   `xml:"testsuites"`
	Attrs   []xml.Attr `xml:",any,attr"`
	Suites  []struct {
		Attrs []xml.Attr `xml:",any,attr"`
		Cases []struct {
			Attrs   []xml.Attr `xml:",any,attr"`
			Failure []struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
			} `xml:"failure"`
			Error   []struct{} `xml:"error"`
			Skipped []struct{} `xml:"skipped"`
			Other   []struct {
				XMLName xml.Name
			} `xml:",any"`
		} `xml:"testcase"`
		Properties []struct{} `xml:"properties"`
		Other      []struct {
			XMLName xml.Name
		} `xml:",any"`
	} `xml:"testsuite"`
}

func attrs(list []xml.Attr) map[string]string {
	m := map[string]string{}
	for _, a := range list {
		m[a.Name.Local] = a.Value
	}
	return m
}

func validateJUnit(t *testing.T, data []byte) {
	t.Helper()
	var doc xsdSuites
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("JUnit XML does not parse: %v", err)
	}
	isInt := func(s string) bool {
		if s == "" {
			return false
		}
		for _, r := range s {
			if r < '0' || r > '9' {
				return false
			}
		}
		return true
	}
	if len(doc.Suites) == 0 {
		t.Fatal("no testsuite")
	}
	total := 0
	for _, s := range doc.Suites {
		a := attrs(s.Attrs)
		if a["name"] == "" {
			t.Errorf("testsuite without name")
		}
		for _, k := range []string{"tests", "failures", "errors", "skipped"} {
			if !isInt(a[k]) {
				t.Errorf("testsuite %q: %s=%q is not a count", a["name"], k, a[k])
			}
		}
		if len(s.Other) > 0 {
			t.Errorf("testsuite %q has elements outside the schema: %v", a["name"], s.Other[0].XMLName)
		}
		fails, skips := 0, 0
		for _, c := range s.Cases {
			ca := attrs(c.Attrs)
			if ca["name"] == "" || ca["classname"] == "" {
				t.Errorf("testcase without name or classname: %v", ca)
			}
			if len(c.Other) > 0 {
				t.Errorf("testcase %q has elements outside the schema: %v", ca["name"], c.Other[0].XMLName)
			}
			for _, f := range c.Failure {
				if f.Type == "" {
					t.Errorf("failure of %q without type", ca["name"])
				}
			}
			fails += len(c.Failure)
			skips += len(c.Skipped)
		}
		if a["tests"] != itoa(len(s.Cases)) || a["failures"] != itoa(fails) || a["skipped"] != itoa(skips) {
			t.Errorf("testsuite %q counts %v disagree with its %d testcases (%d failures, %d skipped)", a["name"], a, len(s.Cases), fails, skips)
		}
		total += len(s.Cases)
	}
	if attrs(doc.Attrs)["tests"] != itoa(total) {
		t.Errorf("testsuites tests=%q, want %d", attrs(doc.Attrs)["tests"], total)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestCheckJUnitAndCucumberShapes(t *testing.T) {
	dir := t.TempDir()
	x, c := filepath.Join(dir, "j.xml"), filepath.Join(dir, "c.json")
	code, out, _ := run(t, "check", "--mutant", "off-keeps-pending", "--junit", x, "--cucumber", c)
	if code != ExitFail {
		t.Fatalf("exit %d\n%s", code, out)
	}
	data, _ := os.ReadFile(x)
	validateJUnit(t, data)
	if !bytes.Contains(data, []byte(`<failure message=`)) || !bytes.Contains(data, []byte(`<skipped message=`)) {
		t.Errorf("the JUnit report lacks a failure or a skipped case")
	}
	var feats []struct {
		URI      string `json:"uri"`
		ID       string `json:"id"`
		Keyword  string `json:"keyword"`
		Name     string `json:"name"`
		Elements []struct {
			ID    string `json:"id"`
			Name  string `json:"name"`
			Type  string `json:"type"`
			Line  int    `json:"line"`
			Steps []struct {
				Keyword string `json:"keyword"`
				Name    string `json:"name"`
				Line    int    `json:"line"`
				Result  struct {
					Status string `json:"status"`
				} `json:"result"`
			} `json:"steps"`
		} `json:"elements"`
	}
	cb, _ := os.ReadFile(c)
	dec := json.NewDecoder(bytes.NewReader(cb))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&feats); err != nil {
		// tags and descriptions are allowed: decode again leniently
		if err2 := json.Unmarshal(cb, &feats); err2 != nil {
			t.Fatalf("cucumber JSON does not parse: %v", err2)
		}
	}
	// One feature per clause group, and the properties as an eighth.
	if len(feats) != 8 || feats[7].URI != "properties" || len(feats[7].Elements) == 0 {
		t.Errorf("cucumber JSON has %d features, want the 7 clause groups and the properties", len(feats))
	}
	failed := false
	for _, f := range feats {
		if f.URI == "" || f.Keyword != "Feature" || len(f.Elements) == 0 {
			t.Errorf("feature %q: uri %q keyword %q, %d elements", f.Name, f.URI, f.Keyword, len(f.Elements))
		}
		for _, e := range f.Elements {
			if e.Type != "scenario" || e.Line == 0 || len(e.Steps) == 0 {
				t.Errorf("element %q: type %q line %d steps %d", e.ID, e.Type, e.Line, len(e.Steps))
			}
			for _, s := range e.Steps {
				if s.Keyword == "" || s.Line == 0 {
					t.Errorf("%s: step %q without keyword or line", e.ID, s.Name)
				}
				failed = failed || s.Result.Status == "failed"
			}
		}
	}
	if !failed {
		t.Errorf("no failed step in the cucumber report of a mutant")
	}
}

// TestCheckInterruptedStillWritesReports: a run whose context is cancelled
// (a signal; cmd/plankit/signals_unix_test.go sends real ones) reports
// every check it did not run as not-run, writes every report with the
// verdict "interrupted" and exits ExitInterrupted.
func TestCheckInterruptedStillWritesReports(t *testing.T) {
	dir := t.TempDir()
	o := &checkOptions{format: "summary", seed: 1, checks: 100, impl: implFlags{jobs: 1},
		files:   reportFlags{report.Files{JSON: filepath.Join(dir, "r.json"), JUnit: filepath.Join(dir, "j.xml"), Cucumber: filepath.Join(dir, "c.json")}},
		today:   func() string { return "2026-01-01" },
		factory: (*implFlags).factory}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	err := runCheck(ctx, o, &out)
	if codeOf(err) != ExitInterrupted {
		t.Fatalf("exit %d (%v), want %d\n%s", codeOf(err), err, ExitInterrupted, out.String())
	}
	r := readJSONReport(t, o.files.JSON)
	if r.Verdict != report.VerdictInterrupted || !strings.Contains(r.Error, "interrupted") || len(r.Cases) == 0 {
		t.Fatalf("report verdict %q error %q with %d cases", r.Verdict, r.Error, len(r.Cases))
	}
	for _, c := range r.Cases {
		if c.Status != report.NotRun {
			t.Errorf("%s ran after the interrupt: %s", c.ID, c.Status)
		}
	}
	data, err := os.ReadFile(o.files.JUnit)
	if err != nil {
		t.Fatal(err)
	}
	validateJUnit(t, data)
	if _, err := os.Stat(o.files.Cucumber); err != nil {
		t.Error(err)
	}
}

// deadPort cannot even start.
type deadPort struct{ brokenPort }

func (deadPort) Start() (sim.Identity, error) {
	return sim.Identity{}, errors.New("exec: no such file")
}

func TestCheckImplementationThatCannotStartExits3(t *testing.T) {
	dir := t.TempDir()
	js, x := filepath.Join(dir, "r.json"), filepath.Join(dir, "j.xml")
	code, out, errs := runCheckWith(t, against(func() sim.Port { return deadPort{} }), "--json", js, "--junit", x)
	if code != ExitImpl || !strings.Contains(errs, "no such file") {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitImpl, out, errs)
	}
	if r := readJSONReport(t, js); r.Verdict != report.VerdictImpl {
		t.Errorf("verdict %q", r.Verdict)
	}
	data, err := os.ReadFile(x)
	if err != nil {
		t.Fatal(err)
	}
	validateJUnit(t, data)
	if !bytes.Contains(data, []byte(`<error message="the implementation could not be started`)) {
		t.Errorf("JUnit lacks the implementation error:\n%s", data)
	}
}

// A tag filter that selects nothing is a usage error, not a green gate.
func TestCheckTagsMatchingNothingIsUsage(t *testing.T) {
	code, _, errs := run(t, "check", "--tags", "@NO-SUCH-TAG")
	if code != ExitUsage || !strings.Contains(errs, "no check matches") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}
