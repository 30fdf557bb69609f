package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/inputlimit"
)

func TestParseManifestErrorsNameFileAndLine(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"id:x\n", "m.txt:1: want TARGET"},
		{"# c\nid:x --\n", "m.txt:2: the reason after -- is missing"},
		{"id:x --   \n", "m.txt:1: the reason after -- is missing"},
		{"scenario:x -- r\n", "m.txt:1: target \"scenario:x\""},
		{"clause:pend-5 -- r\n", "m.txt:1: target \"clause:pend-5\": a clause ID"},
		{"id: -- r\n", "m.txt:1: target \"id:\" names no check"},
		{"id:x owner=me -- r\n", "m.txt:1: unknown option \"owner\""},
		{"id:x expires=31-12-2026 -- r\n", "m.txt:1: expires \"31-12-2026\""},
		{"id:x expires=2026-01-01 expires=2026-02-01 -- r\n", "m.txt:1: expires given twice"},
		{"id:x issue -- r\n", "m.txt:1: option \"issue\": want key=value"},
		{"id:x -- a\n\nid:x -- b\n", "m.txt:3: id:x is already listed on line 1"},
	} {
		_, err := ParseManifest("m.txt", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
}

func TestParseManifestEntries(t *testing.T) {
	m, err := ParseManifest("m.txt", []byte("# header\r\n\r\nid:a/b expires=2027-01-31 issue=https://x.test/1 -- reason -- with dashes\r\nclause:STEP-2 -- retries\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Line: 3, Kind: "id", Key: "a/b", Issue: "https://x.test/1", Expires: "2027-01-31", Reason: "reason -- with dashes"},
		{Line: 4, Kind: "clause", Key: "STEP-2", Reason: "retries"},
	}
	if len(m.Entries) != 2 || m.Entries[0] != want[0] || m.Entries[1] != want[1] {
		t.Fatalf("entries %+v, want %+v", m.Entries, want)
	}
}

func cases() []Case {
	return []Case{
		{ID: "a", Clauses: []string{"STEP-2"}, Status: Failed, Message: "boom"},
		{ID: "b", Clauses: []string{"STEP-2"}, Status: Passed},
		{ID: "c", Clauses: []string{"PEND-5"}, Status: Passed},
		{ID: "d", Clauses: []string{"PEND-5"}, Status: Skipped, Message: "choice"},
		{ID: "e", Clauses: []string{"LOG-1"}, Status: Failed, Message: "bad\nsecond line"},
	}
}

func TestApply(t *testing.T) {
	m, err := ParseManifest("m.txt", []byte(
		"clause:STEP-2 -- retries\n"+
			"id:c -- believed broken\n"+
			"id:d -- skipped ones stay skipped\n"+
			"id:e expires=2026-03-01 -- known\n"+
			"id:gone -- removed scenario\n"))
	if err != nil {
		t.Fatal(err)
	}
	out, findings := m.Apply(cases(), "2026-03-02", true)
	status := map[string]string{}
	for _, c := range out {
		status[c.ID] = c.Status
	}
	wantStatus := map[string]string{"a": ExpectedFailed, "b": Passed, "c": UnexpectedPass, "d": Skipped, "e": Failed}
	for id, s := range wantStatus {
		if status[id] != s {
			t.Errorf("%s: %s, want %s", id, status[id], s)
		}
	}
	joined := strings.Join(findings, "\n")
	for _, want := range []string{"m.txt:4: id:e expired on 2026-03-01", "m.txt:5: id:gone matches no check: stale entry"} {
		if !strings.Contains(joined, want) {
			t.Errorf("findings %q lack %q", joined, want)
		}
	}
	if len(findings) != 2 {
		t.Errorf("findings %q, want 2", findings)
	}
	// A filtered run ignores entries whose checks did not run; on its last
	// day an entry still holds.
	_, findings = m.Apply(cases(), "2026-03-01", false)
	if len(findings) != 0 {
		t.Errorf("filtered run findings %q, want none", findings)
	}
	// The input is not modified.
	if cases()[0].Status != Failed {
		t.Fatal("Apply modified its input")
	}
}

func TestFix(t *testing.T) {
	m, err := ParseManifest("m.txt", []byte("# keep me\nclause:STEP-2 -- retries\nid:c -- passes now\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(m.Fix(cases()))
	want := "# keep me\nclause:STEP-2 -- retries\nid:e -- failing: bad\n"
	if got != want {
		t.Errorf("Fix:\n%s\nwant:\n%s", got, want)
	}
	fixed, err := ParseManifest("m.txt", []byte(got))
	if err != nil {
		t.Fatalf("the fixed manifest does not parse: %v", err)
	}
	if _, findings := fixed.Apply(cases(), "2026-01-01", true); len(findings) != 0 {
		t.Errorf("findings after fix: %q", findings)
	}
}

func TestTableOrdersClausesAsTheSpec(t *testing.T) {
	rows := Table(cases(), []string{"SVC-4", "CFG-1"})
	var order []string
	for _, r := range rows {
		order = append(order, r.Clause)
	}
	if strings.Join(order, " ") != "LOG-1 PEND-5 STEP-2 CFG-1 SVC-4" {
		t.Errorf("order %v", order)
	}
	if rows[2] != (ClauseRow{Clause: "STEP-2", Passed: 1, Failed: 1}) {
		t.Errorf("STEP-2 row %+v", rows[2])
	}
}

func TestManifestAssumeLines(t *testing.T) {
	m, err := ParseManifest("m.txt", []byte("# known\nassume: listener-appended -- STEP-1 bug\nassume:narrate-always\nid:x -- fails\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Assume) != 2 || m.Assume[0].Name != "listener-appended" || m.Assume[0].Reason != "STEP-1 bug" || m.Assume[1].Name != "narrate-always" || m.Assume[1].Line != 3 {
		t.Fatalf("assumptions: %+v", m.Assume)
	}
	if len(m.Entries) != 1 {
		t.Fatalf("entries: %+v", m.Entries)
	}
	// Assumptions are not expected failures: they never go stale in check.
	if _, findings := m.Apply([]Case{{ID: "x", Status: Failed}}, "2026-01-01", true); len(findings) != 0 {
		t.Fatalf("findings: %v", findings)
	}
	if got := string(m.Fix([]Case{{ID: "x", Status: Failed}})); !strings.Contains(got, "assume: listener-appended -- STEP-1 bug\n") {
		t.Fatalf("fix dropped the assume line:\n%s", got)
	}
	for _, bad := range []string{"assume:\n", "assume: a b\n", "assume: a\nassume: a\n"} {
		if _, err := ParseManifest("m.txt", []byte(bad)); err == nil || !strings.Contains(err.Error(), "m.txt:") {
			t.Errorf("%q: want a positioned error, got %v", bad, err)
		}
	}
}

func TestManifestBounds(t *testing.T) {
	lim := inputlimit.Limits{Bytes: 1 << 10, Line: 40, Records: 2}
	ok := "# two entries\nid:a -- one\nclause:STEP-2 -- two\n"
	if _, err := ParseManifestWithLimits("m.txt", []byte(ok), lim); err != nil {
		t.Fatalf("at the bounds: %v", err)
	}
	for _, tc := range []struct{ text, want string }{
		{ok + "id:c -- three\n", "m.txt:4: more than 2 entries (the limit; raise it with " + inputlimit.FlagEntries},
		{"id:a -- " + strings.Repeat("x", 40) + "\n", "m.txt:1: line of more than 40 bytes"},
		{strings.Repeat("# padding\n", 200), "m.txt:103: more than 1024 bytes"},
		{"id:a -- caf\xe9\n", "m.txt:1:12: invalid UTF-8"},
	} {
		_, err := ParseManifestWithLimits("m.txt", []byte(tc.text), lim)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
	// A large file is not read past the bound.
	p := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(p, []byte(strings.Repeat("# padding\n", 1<<17)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadManifest(p); err == nil || !strings.Contains(err.Error(), inputlimit.FlagBytes) {
		t.Fatalf("a 1.3 MB manifest: %v", err)
	}
}
