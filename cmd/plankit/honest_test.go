package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/report"
)

// TestHonestReports: checks an adapter's crash kept from being judged are
// errors in every report, never failures of their clauses; the properties
// are listed too; failures judged before the crash stay listed next to the
// implementation error.
func TestHonestReports(t *testing.T) {
	fake := fakeAdapterBin(t)

	t.Run("a crashing adapter's checks are errors, not failures", func(t *testing.T) {
		dir := t.TempDir()
		reps := reportFiles{filepath.Join(dir, "r.json"), filepath.Join(dir, "j.xml"), filepath.Join(dir, "c.json")}
		code, out, errs := run(t, append([]string{"check", "--checks", "3", "--adapter", fake + " crash load 1"}, reps.flags()...)...)
		if code != ExitImpl {
			t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitImpl, out, errs)
		}
		r := readJSONReport(t, reps.json)
		if r.Verdict != report.VerdictImpl {
			t.Errorf("verdict %q", r.Verdict)
		}
		props, errored := 0, 0
		for _, c := range r.Cases {
			// Checks that never reach the implementation (skipped for a
			// choice, run without the package) are judged as usual.
			switch {
			case c.Status == report.Errored:
				errored++
			case c.Status == report.Skipped && strings.Contains(c.Message, "choice"):
			case c.Status == report.Passed && strings.Contains(c.ID, "without-package"):
			default:
				t.Errorf("%s: %s (%s), want %s", c.ID, c.Status, c.Message, report.Errored)
			}
			if c.Kind == report.KindProperty {
				props++
				if c.Status != report.Errored {
					t.Errorf("property %s: %s", c.ID, c.Status)
				}
			}
		}
		if props == 0 || errored < 100 {
			t.Errorf("%d properties, %d errors in the report", props, errored)
		}
		for _, row := range r.Clauses {
			if row.Failed != 0 {
				t.Errorf("clause %s counts %d failed", row.Clause, row.Failed)
			}
		}
		x, err := os.ReadFile(reps.junit)
		if err != nil {
			t.Fatal(err)
		}
		validateJUnit(t, x)
		if !bytes.Contains(x, []byte(`<testsuites name="plankit" tests="`)) || !bytes.Contains(x, []byte(` failures="0" errors="`)) || bytes.Contains(x, []byte("<failure")) {
			t.Errorf("JUnit report shows failures:\n%.2000s", x)
		}
		c, _ := os.ReadFile(reps.cucumber)
		if bytes.Contains(c, []byte(`"status": "failed"`)) {
			t.Error("cucumber report has failed steps")
		}
		if !strings.Contains(out, "ERROR ") || strings.Contains(out, "FAIL ") {
			t.Errorf("console:\n%s", out)
		}
	})

	t.Run("a runtime that crashes midway: every check listed, the properties as errors", func(t *testing.T) {
		rt := fakeRuntimeBin(t)
		for _, only := range []string{"", "properties"} {
			js := filepath.Join(t.TempDir(), "r.json")
			args := []string{"check", "--level", "runtime", "--checks", "5", "--json", js, "--adapter", rt + " crash any 5"}
			if only != "" {
				args = append(args, "--only", only)
			}
			code, out, errs := run(t, args...)
			if code != ExitImpl {
				t.Fatalf("--only %q: exit %d, want %d\n%s\n%s", only, code, ExitImpl, out, errs)
			}
			r := readJSONReport(t, js)
			props := 0
			for _, c := range r.Cases {
				if c.Kind == report.KindProperty {
					props++
					if c.Status != report.Errored {
						t.Errorf("--only %q: property %s: %s (%s), want %s", only, c.ID, c.Status, c.Message, report.Errored)
					}
				}
			}
			if r.Verdict != report.VerdictImpl || props == 0 {
				t.Errorf("--only %q: verdict %q, %d properties listed: want %q and every property", only, r.Verdict, props, report.VerdictImpl)
			}
		}
	})

	t.Run("an adapter that crashes at start: every scenario carries a skipped step with the reason", func(t *testing.T) {
		cuke := filepath.Join(t.TempDir(), "c.json")
		code, out, errs := run(t, "check", "--checks", "2", "--cucumber", cuke, "--adapter", fake+" crash start")
		if code != ExitImpl {
			t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitImpl, out, errs)
		}
		b, err := os.ReadFile(cuke)
		if err != nil {
			t.Fatal(err)
		}
		var feats []struct {
			Elements []struct {
				ID    string `json:"id"`
				Steps []struct {
					Result struct {
						Status string `json:"status"`
						Error  string `json:"error_message"`
					} `json:"result"`
				} `json:"steps"`
			} `json:"elements"`
		}
		if err := json.Unmarshal(b, &feats); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range feats {
			for _, el := range f.Elements {
				n++
				if len(el.Steps) == 0 || el.Steps[0].Result.Status != "skipped" || !strings.Contains(el.Steps[0].Result.Error, "simulated crash in start") {
					t.Errorf("%s: steps %+v, want a first step skipped with the crash", el.ID, el.Steps)
				}
				for _, st := range el.Steps {
					if st.Result.Status != "skipped" {
						t.Errorf("%s: a step is %s", el.ID, st.Result.Status)
					}
				}
			}
		}
		if n < 100 {
			t.Errorf("%d scenarios in the cucumber report", n)
		}
	})

	t.Run("godog's own output does not call scenarios a crash kept from running failed", func(t *testing.T) {
		for _, format := range []string{"progress", "pretty"} {
			code, out, errs := run(t, "check", "--only", "features", "--format", format, "--adapter", fake+" crash set 1")
			if code != ExitImpl {
				t.Fatalf("%s: exit %d, want %d\n%s", format, code, ExitImpl, errs)
			}
			i := strings.Index(out, " scenarios (")
			if i < 0 {
				t.Fatalf("%s: no count of scenarios:\n%s", format, out)
			}
			line := out[strings.LastIndexByte(out[:i], '\n')+1:]
			line = line[:strings.IndexByte(line, '\n')]
			total, _, _ := strings.Cut(line, " ")
			if strings.Contains(out, "Failed steps") || strings.Contains(line, "failed") || strings.Contains(line, "("+total+" passed") ||
				!strings.Contains(line, "not judged (the implementation could not be run)") {
				t.Errorf("%s: %q, want no failed scenario and the unjudged ones named\n%.3000s", format, line, out)
			}
		}
	})

	t.Run("failures before a crash are listed next to it", func(t *testing.T) {
		dir := t.TempDir()
		t.Setenv("FAKEADAPTER_MUTANT", "fold-first")
		t.Setenv("FAKEADAPTER_AFTER", filepath.Join(dir, "count")+":8")
		js := filepath.Join(dir, "r.json")
		code, out, errs := run(t, "check", "--tags", "@LOG-2", "--json", js, "--adapter", fake+" crash load 1")
		if code != ExitImpl {
			t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitImpl, out, errs)
		}
		r := readJSONReport(t, js)
		n := map[string]int{}
		for _, c := range r.Cases {
			n[c.Status]++
		}
		if r.Verdict != report.VerdictImpl || n[report.Failed] == 0 || n[report.Errored] == 0 {
			t.Fatalf("verdict %q, statuses %v: want failures and errors", r.Verdict, n)
		}
		if !strings.Contains(out, "FAIL ") || !strings.Contains(errs, "checks failed") {
			t.Errorf("the failures are not on the console:\n%s\n%s", out, errs)
		}
		b, _ := json.Marshal(r.Clauses)
		if !bytes.Contains(b, []byte(`"clause":"LOG-2","passed"`)) {
			t.Errorf("clauses %s", b)
		}
	})
}

// reportFiles are the three reports of a check.
type reportFiles struct{ json, junit, cucumber string }

func (f reportFiles) flags() []string {
	return []string{"--json", f.json, "--junit", f.junit, "--cucumber", f.cucumber}
}

func countStatus(cases []report.Case, status string) int {
	n := 0
	for _, c := range cases {
		if c.Status == status {
			n++
		}
	}
	return n
}
