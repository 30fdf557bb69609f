package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file that cannot be written does not stop the others.
func TestFilesWriteEveryReportItCan(t *testing.T) {
	dir := t.TempDir()
	r := Run{Suite: "plankit", Verdict: VerdictPass}
	f := Files{JUnit: filepath.Join(dir, "missing", "j.xml"), Cucumber: filepath.Join(dir, "c.json"), JSON: filepath.Join(dir, "r.json")}
	err := f.Write(r)
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("got %v, want the JUnit file's error", err)
	}
	for _, p := range []string{f.Cucumber, f.JSON} {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
	want, _ := JSON(r)
	if got, _ := os.ReadFile(f.JSON); !bytes.Equal(got, want) {
		t.Errorf("r.json is not the JSON report")
	}
}

func TestSummary(t *testing.T) {
	r := Run{Seed: 3, Verdict: VerdictFail, Error: "boom", Findings: []string{"stale"}, Cases: []Case{
		{ID: "a", Clauses: []string{"LOG-1"}, Status: Failed, Message: "why"},
		{ID: "b", Clauses: []string{"LOG-2"}, Status: ExpectedFailed, Message: "known"},
		{ID: "c", Status: Passed},
	}}
	var b strings.Builder
	if err := Summary(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"FAIL a [LOG-1] why\n", "XFAIL b [LOG-2] known\n", "MANIFEST stale\n",
		"3 checks: 1 passed, 1 failed, 1 expected-failed, 0 unexpected-pass, 0 skipped\n", "error: boom\n", "verdict: fail (seed 3)\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
}
