package mistakes_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plankit/plankit/examples/mistakes"
	"github.com/plankit/plankit/internal/proctest"
	"github.com/plankit/plankit/report"
)

var builds proctest.Builds

func TestMain(m *testing.M) {
	code := m.Run()
	builds.Remove()
	os.Exit(code)
}

// root is the module root, where plankit check runs (the table's adapter
// directories are relative to it).
const root = "../.."

// checks is the budget of each run: cases per property. Small, so that a
// run takes a few seconds; the scenarios all run.
const checks = "5"

// check runs plankit check at level against the example with mistake on
// ("" for none) and returns its exit code and JSON report.
func check(t *testing.T, level, mistake string) (int, report.Run, string) {
	t.Helper()
	plankit := builds.Program(t, "../../cmd/plankit")
	command, dir := mistakes.Adapter(level, mistake)
	out := t.TempDir()
	cmd := exec.Command(plankit, "check", "--level", level, "--adapter", command, "--adapter-dir", dir,
		"--checks", checks, "--jobs", "1", "--json", filepath.Join(out, "report.json"),
		"--counterexamples", filepath.Join(out, "counterexamples"))
	cmd.Dir = root
	console, err := cmd.CombinedOutput()
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("plankit check: %v", err)
	}
	var rep report.Run
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err == nil {
		err = json.Unmarshal(data, &rep)
	}
	if err != nil {
		t.Fatalf("plankit check (exit %d) wrote no readable report: %v\n%s", code, err, console)
	}
	return code, rep, string(console)
}

func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skipf("python3 is not on PATH, so the Python examples that emulate the corpus cannot run: %v", err)
	}
}

// TestFaithfulExamplesPass: without a mistake, both examples pass at every
// level, so each failure below is the mistake's.
func TestFaithfulExamplesPass(t *testing.T) {
	needPython(t)
	for _, level := range []string{mistakes.LevelPlugin, mistakes.LevelRuntime} {
		t.Run(level, func(t *testing.T) {
			t.Parallel()
			code, rep, console := check(t, level, "")
			if code != 0 || rep.Verdict != report.VerdictPass {
				t.Fatalf("the faithful %s example: exit %d, verdict %s\n%s", level, code, rep.Verdict, console)
			}
		})
	}
}

// TestCorpusIsDetectedUnderItsClause runs every mistake of the corpus at
// each of its levels and holds that plankit check fails it (exit 1, every
// check judged) and names its clause first (mistakes.Blamed: the deviating
// row of the clause table with the most failing checks counted under it).
func TestCorpusIsDetectedUnderItsClause(t *testing.T) {
	needPython(t)
	corpus, err := mistakes.Corpus()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range corpus {
		for _, level := range m.Levels {
			t.Run(level+"/"+m.Name, func(t *testing.T) {
				t.Parallel()
				code, rep, console := check(t, level, m.Name)
				if code != 1 || rep.Verdict != report.VerdictFail {
					t.Fatalf("mistake %s (%s) at %s level: exit %d, verdict %s; want exit 1, verdict fail (the mistake is not detected)\n%s",
						m.Name, strings.Join(m.Clauses, ", "), level, code, rep.Verdict, console)
				}
				blamed := mistakes.Blamed(rep.Clauses)
				if !slices.ContainsFunc(blamed, func(c string) bool { return slices.Contains(m.Clauses, c) }) {
					t.Errorf("mistake %s at %s level breaks %s, but the report names %s first\n%s",
						m.Name, level, strings.Join(m.Clauses, ", "), strings.Join(blamed, ", "), failures(rep))
				}
			})
		}
	}
}

// failures lists a report's deviating rows and failing checks, for a
// message that shows which observation or rule named which clause.
func failures(rep report.Run) string {
	var b strings.Builder
	b.WriteString("deviating rows:")
	for _, r := range rep.Clauses {
		if r.Failed > 0 {
			b.WriteString(" " + r.Clause + "=" + strconv.Itoa(r.Failed))
		}
	}
	b.WriteString("\nfailing checks (clauses of the first failing observation):\n")
	for _, c := range rep.Cases {
		if c.Failing() {
			msg, _, _ := strings.Cut(c.Message, "\n")
			if len(msg) > 240 {
				msg = msg[:240] + "…"
			}
			b.WriteString("  " + c.ID + " [" + strings.Join(c.FailedClauses(), " ") + "] " + msg + "\n")
		}
	}
	return b.String()
}

// TestCorpusTable: the table parses, and the examples refuse a name it
// does not declare.
func TestCorpusTable(t *testing.T) {
	corpus, err := mistakes.Corpus()
	if err != nil {
		t.Fatal(err)
	}
	if len(corpus) < 25 {
		t.Errorf("the corpus has %d mistakes; it is meant to hold at least 25", len(corpus))
	}
	needPython(t)
	for _, level := range []string{mistakes.LevelPlugin, mistakes.LevelRuntime} {
		command, dir := mistakes.Adapter(level, "no-such-mistake")
		words := strings.Fields(command)
		cmd := exec.Command(words[0], words[1:]...)
		cmd.Dir = filepath.Join(root, dir)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || !strings.Contains(string(out), "unknown mistake") {
			t.Errorf("%s: an undeclared mistake: err %v, output %q; want a refusal naming it", command, err, out)
		}
	}
}
