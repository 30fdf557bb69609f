// Package node_test runs plankit against the Node plan-mode plugin of this
// directory, as its README shows: check, diff, explore and lint at the
// plugin's own readings, and check on each mistake it can seed.
package node_test

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/proctest"
	"github.com/plankit/plankit/report"
)

var builds proctest.Builds

func TestMain(m *testing.M) {
	code := m.Run()
	builds.Remove()
	os.Exit(code)
}

const plugin = "node plugin.mjs"

// kitReadings are the plugin's flags that take plankit's readings of the
// points SPEC.md leaves open where the checks assume one today.
const kitReadings = " --trimmed --notice-after --settled-pending"

// plankit runs the kit in this directory and returns its output and exit code.
func plankit(t *testing.T, args ...string) (string, int) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	bin := builds.Program(t, "../../../cmd/plankit")
	cmd := exec.Command(bin, args...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	}
	t.Fatalf("plankit %v: %v", args, err)
	return "", 0
}

func heavy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs plankit through a Node process for minutes")
	}
}

func TestCheckPasses(t *testing.T) {
	heavy(t)
	if out, code := plankit(t, "check", "--adapter", plugin); code != 0 {
		t.Errorf("plankit check exit %d:\n%s", code, out)
	}
}

// TestDiffPasses runs a smaller search than diff's defaults (1000 sequences,
// depth 4): 200 sequences and depth 3.
func TestDiffPasses(t *testing.T) {
	heavy(t)
	if out, code := plankit(t, "diff", "--adapter", plugin, "--cases", "200", "--depth", "3", "--out", t.TempDir()); code != 0 {
		t.Errorf("plankit diff exit %d:\n%s", code, out)
	}
}

// TestExplorePasses explores to depth 4 (explore's default is 8).
func TestExplorePasses(t *testing.T) {
	heavy(t)
	if out, code := plankit(t, "explore", "--adapter", plugin, "--depth", "4", "--out", t.TempDir()); code != 0 {
		t.Errorf("plankit explore exit %d:\n%s", code, out)
	}
}

// TestLogsLintClean lints the session logs the plugin produces for the
// example traces (some of which assert the reference's own wording or
// reading, so their expectations may fail: the logs are linted all the same).
func TestLogsLintClean(t *testing.T) {
	traces, err := filepath.Glob("../../*.yaml")
	if err != nil || len(traces) == 0 {
		t.Fatalf("no example traces: %v", err)
	}
	dir := t.TempDir()
	var logs []string
	for _, tr := range traces {
		out, code := plankit(t, "sim", "--adapter", plugin, "--format", "jsonl", tr)
		if code != 0 && code != 1 {
			t.Fatalf("plankit sim %s exit %d:\n%s", tr, code, out)
		}
		log := filepath.Join(dir, strings.TrimSuffix(filepath.Base(tr), ".yaml")+".jsonl")
		// exit 1 prints the failed expectation after the log: keep the log.
		var kept []string
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "{") {
				kept = append(kept, line)
			}
		}
		if err := os.WriteFile(log, []byte(strings.Join(kept, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		logs = append(logs, log)
	}
	if out, code := plankit(t, append([]string{"lint"}, logs...)...); code != 0 {
		t.Errorf("plankit lint exit %d:\n%s", code, out)
	}
}

// intended is the clause each seeded mistake breaks (README.md).
var intended = map[string]string{
	"rejected-step-drops-selection": "STEP-3",
	"failed-append-drops-selection": "STEP-5",
	"cancel-keeps-entry":            "PEND-5",
	"notice-to-inbox":               "STEP-7",
	"unload-keeps-exit-tool":        "SVC-2",
	"blocks-host-tools":             "SVC-3",
	"heading-after-text":            "EXIT-3",
	"uppercase-off":                 "CMD-4",
	"wrong-reply-outcome":           "SVC-1",
	"approval-one-step-late":        "EXIT-5",
	"reload-keeps-pending":          "PEND-8",
	"restart-stale-state":           "LOG-3",
	"duplicate-pending-notice":      "STEP-6",
}

// TestMistakesAreCaught checks each seeded mistake on the clean base of
// kitReadings (which passes: TestKitReadingsPass) with 25 cases per
// property, and holds that the check fails and names the mistake's clause
// first: the clause the most failing checks are attributed to.
func TestMistakesAreCaught(t *testing.T) {
	heavy(t)
	names := slices.Sorted(maps.Keys(intended))
	for _, name := range names {
		clause := intended[name]
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "r.json")
			out, code := plankit(t, "check", "--adapter", plugin+kitReadings+" --mistake "+name, "--checks", "25", "--json", file)
			if code != 1 {
				t.Fatalf("plankit check exit %d, want 1 (the mistake caught):\n%s", code, out)
			}
			first := namedFirst(t, file)
			for _, c := range first {
				if c == clause {
					return
				}
			}
			t.Errorf("the check names %v first; the mistake breaks %s", first, clause)
		})
	}
}

func TestKitReadingsPass(t *testing.T) {
	heavy(t)
	if out, code := plankit(t, "check", "--adapter", plugin+kitReadings, "--checks", "25"); code != 0 {
		t.Errorf("plankit check exit %d:\n%s", code, out)
	}
}

func namedFirst(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Run
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	most := 0
	for _, c := range rep.Cases {
		if !c.Failing() {
			continue
		}
		for _, cl := range c.FailedClauses() {
			count[cl]++
			most = max(most, count[cl])
		}
	}
	var first []string
	for cl, n := range count {
		if n == most {
			first = append(first, cl)
		}
	}
	return first
}
