package mistakes_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/shlex"
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

// checks is the budget of a run that includes the properties: cases per
// property. Small, so that a run takes a few seconds.
const checks = "2"

// suite is what a check runs: the scenarios only, or the scenarios and the
// properties.
type suite bool

const (
	scenarios      suite = false
	withProperties suite = true
)

// check runs plankit check at level against impl's example with mistake
// on ("" for none) and returns its exit code and JSON report.
func check(t *testing.T, level, impl, mistake string, run suite) (int, report.Run, string) {
	t.Helper()
	command, dir := mistakes.Adapter(level, impl, mistake)
	return checkAdapter(t, level, command, dir, mistake != "", run)
}

// examples are the implementations and levels that emulate the corpus.
var examples = []struct{ impl, level string }{
	{mistakes.ImplPython, mistakes.LevelPlugin},
	{mistakes.ImplPython, mistakes.LevelRuntime},
	{mistakes.ImplNode, mistakes.LevelPlugin},
	{mistakes.ImplNode, mistakes.LevelRuntime},
}

// need skips t when impl's interpreter is not on PATH.
func need(t *testing.T, impl string) {
	t.Helper()
	if impl == mistakes.ImplNode {
		if _, err := exec.LookPath("node"); err != nil {
			t.Skipf("node is not on PATH, so the Node examples that emulate part of the corpus cannot run: %v", err)
		}
		return
	}
	needPython(t)
}

// checkAdapter is check of an example run as command in dir; reset: a
// restart of the example is a start on the same process.
func checkAdapter(t *testing.T, level, command, dir string, reset bool, run suite) (int, report.Run, string) {
	t.Helper()
	plankit := builds.Program(t, "../../cmd/plankit")
	out := t.TempDir()
	args := []string{"check", "--level", level, "--adapter", command, "--adapter-dir", dir,
		"--jobs", "1", "--json", filepath.Join(out, "report.json"),
		"--counterexamples", filepath.Join(out, "counterexamples")}
	if reset {
		// Both Python examples declare reuse, so a restart can be a start
		// on the same process: no mistake of the corpus is about what a
		// real restart loses, and a Python start at each real restart costs
		// most of a failing check's time (a property shrinks through many).
		// TestFaithfulExamplesPass keeps the default policy, real restarts
		// included.
		args = append(args, "--restarts", "reset")
	}
	if run == withProperties {
		args = append(args, "--checks", checks)
	} else {
		args = append(args, "--only", "features")
	}
	cmd := exec.Command(plankit, args...)
	cmd.Dir = root
	console, code := proctest.Run(t, cmd)
	var rep report.Run
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err == nil {
		err = json.Unmarshal(data, &rep)
	}
	if err != nil {
		t.Fatalf("plankit check (exit %d) wrote no readable report: %v\n%s", code, err, console)
	}
	return code, rep, console
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
	for _, ex := range examples {
		t.Run(ex.impl+"/"+ex.level, func(t *testing.T) {
			need(t, ex.impl)
			t.Parallel()
			code, rep, console := check(t, ex.level, ex.impl, "", withProperties)
			if code != 0 || rep.Verdict != report.VerdictPass {
				t.Fatalf("the faithful %s %s example: exit %d, verdict %s\n%s", ex.impl, ex.level, code, rep.Verdict, console)
			}
		})
	}
}

// update rewrites the measured attribution (mistakes.FiguresFile).
var update = flag.Bool("update", false, "rewrite "+mistakes.FiguresFile+" from the corpus runs")

// TestCorpusIsDetectedUnderItsClause runs every mistake of the corpus at
// each of its levels (the scenarios; the properties too where the table
// says so) and holds that plankit check fails it (exit 1, every
// check judged) and names its clause first (mistakes.Blamed: the deviating
// row of the clause table with the most failing checks counted under it).
// Over the whole corpus, at least 95% of the failing checks must be
// attributed to their row's clause, and the figures must be those
// mistakes.FiguresFile holds (docs/mistakes.md prints them; -update
// rewrites the file).
func TestCorpusIsDetectedUnderItsClause(t *testing.T) {
	corpus, err := mistakes.Corpus()
	if err != nil {
		t.Fatal(err)
	}
	measured := make([][]mistakes.Figure, len(corpus))
	t.Run("row", func(t *testing.T) {
		for k, m := range corpus {
			measured[k] = make([]mistakes.Figure, len(m.Levels))
			for j, level := range m.Levels {
				t.Run(m.Impl+"/"+level+"/"+m.Name, func(t *testing.T) {
					need(t, m.Impl)
					t.Parallel()
					run := scenarios
					if m.Properties && level == mistakes.LevelPlugin {
						run = withProperties
					}
					code, rep, console := check(t, level, m.Impl, m.Name, run)
					if code != 1 || rep.Verdict != report.VerdictFail {
						t.Fatalf("mistake %s (%s) of the %s example at %s level: exit %d, verdict %s; want exit 1, verdict fail (the mistake is not detected)\n%s",
							m.Name, strings.Join(m.Clauses, ", "), m.Impl, level, code, rep.Verdict, console)
					}
					measured[k][j] = mistakes.Measure(m, level, rep)
					blamed := mistakes.Blamed(rep.Clauses)
					t.Logf("%s at %s level (%s): named first %s", m.Name, level, strings.Join(m.Clauses, ", "), strings.Join(blamed, ", "))
					if !slices.ContainsFunc(blamed, func(c string) bool { return slices.Contains(m.Clauses, c) }) {
						t.Errorf("mistake %s of the %s example at %s level breaks %s, but the report names %s first\n%s",
							m.Name, m.Impl, level, strings.Join(m.Clauses, ", "), strings.Join(blamed, ", "), failures(rep))
					}
				})
			}
		}
	})
	if t.Failed() || t.Skipped() {
		return
	}
	var got mistakes.Figures
	for _, row := range measured {
		for _, f := range row {
			if f.Name == "" {
				return // a row was skipped (its interpreter is missing): no figure
			}
			got.Rows = append(got.Rows, f)
		}
	}
	total := got.Totals()
	t.Logf("attributed to the row's clause: %s (%d of %d failing checks); named first: %s",
		mistakes.Percent(total.Attributed, total.Failed), total.Attributed, total.Failed, mistakes.Percent(total.First, total.Failed))
	if total.Attributed*100 < total.Failed*95 {
		t.Errorf("%d of %d failing checks (%s) are attributed to their row's clause; want at least 95%%",
			total.Attributed, total.Failed, mistakes.Percent(total.Attributed, total.Failed))
	}
	if *update {
		if err := os.WriteFile(filepath.Join(root, mistakes.FiguresFile), got.Marshal(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := mistakes.ReadFigures()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want.Marshal(), got.Marshal()) {
		t.Errorf("%s is not what the corpus measures now; run go test ./examples/mistakes -run TestCorpusIsDetectedUnderItsClause -update, then plankit docs\nwant:\n%s\ngot:\n%s",
			mistakes.FiguresFile, want.Marshal(), got.Marshal())
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
	for _, ex := range examples {
		need(t, ex.impl)
		command, dir := mistakes.Adapter(ex.level, ex.impl, "no-such-mistake")
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

// summaryLine is the console's FAIL line of a check.
func summaryLine(console, id string) string {
	for _, l := range strings.Split(console, "\n") {
		if strings.HasPrefix(l, "FAIL "+id+" [") {
			return l
		}
	}
	return ""
}

// replayHint is the command a failure message says replays it.
var replayHint = regexp.MustCompile(`replay: (plankit sim .*?\.yaml)`)

// TestReplayHintsReproduce: the replay hint a failure prints runs as it is
// printed (from where plankit check ran) and fails again, on the same
// expectation; it carries the adapter, so without it — against the
// reference or the built-in runtime — the same trace passes. One scenario
// failure at runtime level, one property failure at plugin level.
func TestReplayHintsReproduce(t *testing.T) {
	needPython(t)
	for _, c := range []struct {
		level, mistake, check, words string
		run                          suite
	}{
		{mistakes.LevelRuntime, "get-hides-pending", "rt-pend-get-in-turn", "reports pending none, but the selections before it leave true pending", scenarios},
		{mistakes.LevelPlugin, "fold-first", "fold-purity-LOG-2-LOG-3", "fold: expected false, got true", withProperties},
	} {
		t.Run(c.level+"/"+c.mistake, func(t *testing.T) {
			t.Parallel()
			_, rep, console := check(t, c.level, mistakes.ImplPython, c.mistake, c.run)
			i := slices.IndexFunc(rep.Cases, func(k report.Case) bool { return k.ID == c.check })
			if i < 0 || !rep.Cases[i].Failing() {
				t.Fatalf("%s did not fail\n%s", c.check, console)
			}
			// The report names the trace; the console's summary line of
			// the check adds the command that replays it.
			line := summaryLine(console, c.check)
			m := replayHint.FindStringSubmatch(line)
			if m == nil || !strings.Contains(rep.Cases[i].Message, c.words) || !strings.Contains(m[1], rep.Cases[i].Counterexample) {
				t.Fatalf("%s: no replay hint of its trace %q, or not the failure %q: %s\n%s", c.check, rep.Cases[i].Counterexample, c.words, rep.Cases[i].Message, line)
			}
			words, err := shlex.Split(m[1])
			if err != nil {
				t.Fatal(err)
			}
			replay := func(args []string) (int, string) {
				cmd := exec.Command(builds.Program(t, "../../cmd/plankit"), args...)
				cmd.Dir = root
				out, err := cmd.CombinedOutput()
				var exit *exec.ExitError
				if errors.As(err, &exit) {
					return exit.ExitCode(), string(out)
				}
				if err != nil {
					t.Fatal(err)
				}
				return 0, string(out)
			}
			code, out := replay(words[1:])
			if code != 1 || !strings.Contains(out, strings.TrimPrefix(c.words, "fold: ")) {
				t.Fatalf("%s: exit %d, want 1 with %q\n%s", m[1], code, c.words, out)
			}
			// Without the adapter's words the hint would replay against
			// plankit's own implementation, which passes.
			own := []string{"sim"}
			if c.level == mistakes.LevelRuntime {
				own = append(own, "--level", "runtime")
			}
			if code, out := replay(append(own, words[len(words)-1])); code != 0 {
				t.Fatalf("the trace against plankit's own implementation: exit %d, want 0\n%s", code, out)
			}
		})
	}
}
