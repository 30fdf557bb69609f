package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The mutant cancel-keeps-pending fails exactly the PEND-5 scenarios
// below; the manifest tests run against it with --tags @PEND-5 (or the
// whole suite for --fix).
const killer = "pend-cancel-before-boundary"

func writeManifest(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "expected-failures.txt")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// onDate returns a runner of plankit check on date d.
func onDate(d string) func(t *testing.T, args ...string) (int, string, string) {
	return func(t *testing.T, args ...string) (int, string, string) {
		return runCheckWith(t, &checkOptions{today: func() string { return d }, factory: (*implFlags).factory}, args...)
	}
}

func pend5Manifest(extra string) string {
	return "# cancel keeps pending\n" +
		"clause:PEND-5 issue=https://example.org/issues/1 -- cancelled leaves the selection pending\n" + extra
}

func TestManifestListedFailureDoesNotFail(t *testing.T) {
	check := onDate("2026-01-01")
	m := writeManifest(t, pend5Manifest(""))
	code, out, errs := check(t, "--mutant", "cancel-keeps-pending", "--tags", "@PEND-5", "--expect", m)
	if code != ExitPass {
		t.Fatalf("exit %d, want 0\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "XFAIL "+killer) {
		t.Errorf("the expected failure is not reported:\n%s", out)
	}
}

func TestManifestUnlistedFailureFails(t *testing.T) {
	check := onDate("2026-01-01")
	m := writeManifest(t, "id:pend-cancel-exit-before-boundary -- only one listed\n")
	code, out, _ := check(t, "--mutant", "cancel-keeps-pending", "--tags", "@PEND-5", "--expect", m)
	if code != ExitFail || !strings.Contains(out, "FAIL "+killer) {
		t.Fatalf("exit %d, want 1 with %s failing\n%s", code, killer, out)
	}
}

func TestManifestUnexpectedPass(t *testing.T) {
	check := onDate("2026-01-01")
	m := writeManifest(t, "id:"+killer+" -- believed broken\n")
	code, out, _ := check(t, "--tags", "@PEND-5", "--expect", m)
	if code != ExitFail || !strings.Contains(out, "unexpected pass: remove id:"+killer) {
		t.Fatalf("exit %d, want 1 with an unexpected pass\n%s", code, out)
	}
	// A clause entry whose clause has no failing check is an unexpected pass too.
	m = writeManifest(t, pend5Manifest(""))
	code, out, _ = check(t, "--tags", "@PEND-5", "--expect", m)
	if code != ExitFail || !strings.Contains(out, "clause:PEND-5: unexpected pass") {
		t.Fatalf("exit %d, want 1 with a clause unexpected pass\n%s", code, out)
	}
}

func TestManifestExpiredEntryFails(t *testing.T) {
	m := writeManifest(t, "clause:PEND-5 expires=2026-06-30 -- cancelled leaves the selection pending\n")
	check := onDate("2026-06-30")
	if code, out, _ := check(t, "--mutant", "cancel-keeps-pending", "--tags", "@PEND-5", "--expect", m); code != ExitPass {
		t.Fatalf("on its last day the entry holds: exit %d\n%s", code, out)
	}
	check = onDate("2026-07-01")
	code, out, _ := check(t, "--mutant", "cancel-keeps-pending", "--tags", "@PEND-5", "--expect", m)
	if code != ExitFail || !strings.Contains(out, "expired on 2026-06-30") {
		t.Fatalf("exit %d, want 1 naming the expiry\n%s", code, out)
	}
}

func TestManifestStaleEntryFailsOnlyCompleteRuns(t *testing.T) {
	check := onDate("2026-01-01")
	m := writeManifest(t, "id:no-such-scenario -- gone\n")
	if code, out, _ := check(t, "--tags", "@PEND-5", "--expect", m); code != ExitPass {
		t.Fatalf("filtered run: exit %d, want 0\n%s", code, out)
	}
	code, out, _ := check(t, "--expect", m)
	if code != ExitFail || !strings.Contains(out, "stale entry") {
		t.Fatalf("complete run: exit %d, want 1 with a stale entry\n%s", code, out)
	}
}

func TestManifestFix(t *testing.T) {
	check := onDate("2026-01-01")
	m := writeManifest(t, "# kept comment\nid:log-fold/empty-log -- passes now\nid:"+killer+" issue=https://example.org/1 -- known\n")
	code, out, errs := check(t, "--mutant", "cancel-keeps-pending", "--expect", m, "--fix")
	if code != ExitPass {
		t.Fatalf("after --fix: exit %d, want 0\n%s\n%s", code, out, errs)
	}
	got, _ := os.ReadFile(m)
	text := string(got)
	if !strings.HasPrefix(text, "# kept comment\nid:"+killer+" issue=https://example.org/1 -- known\n") {
		t.Errorf("--fix lost the comment or the kept entry:\n%s", text)
	}
	if strings.Contains(text, "log-fold/empty-log") {
		t.Errorf("--fix kept the entry of a passing check:\n%s", text)
	}
	if !strings.Contains(text, "id:pend-cancel-exit-before-boundary -- failing: ") {
		t.Errorf("--fix did not add the unlisted failure:\n%s", text)
	}
	// The rewritten manifest gates the same implementation.
	if code, out, _ := check(t, "--mutant", "cancel-keeps-pending", "--expect", m); code != ExitPass {
		t.Errorf("re-run against the fixed manifest: exit %d\n%s", code, out)
	}
	// --fix is refused for a filtered run.
	if code, _, errs := check(t, "--expect", m, "--fix", "--tags", "@PEND-5"); code != ExitUsage || !strings.Contains(errs, "filtered") {
		t.Errorf("filtered --fix: exit %d, stderr %q", code, errs)
	}
}
