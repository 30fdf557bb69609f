// Package node_test runs plankit against the Node plan-mode plugin of this
// directory, as its README shows: check, diff, explore and lint at the
// plugin's own readings. Its seeded mistakes are rows of the corpus
// (examples/mistakes, impl node), whose test checks each.
package node_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/proctest"
)

var builds proctest.Builds

func TestMain(m *testing.M) {
	code := m.Run()
	builds.Remove()
	os.Exit(code)
}

const plugin = "node plugin.mjs"

// plankit runs the kit in this directory and returns its output and exit code.
func plankit(t *testing.T, args ...string) (string, int) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	return proctest.Run(t, exec.Command(builds.Program(t, "../../../cmd/plankit"), args...))
}

// TestFaithfulPassesEveryCommand holds that the plugin, written from
// SPEC.md alone and different from the reference wherever SPEC.md leaves
// room (its words, its notice before the other listeners' messages, the
// /plan argument as typed, a selection another writer logged no longer
// pending), passes check, diff and explore at their defaults of what they
// compare, in sizes go test can afford: the properties at 10 cases, diff at
// 100 sequences to depth 3, explore to depth 3. The same plugin with the
// three flags that take the reference's readings passes check too: both
// readings of each point pass.
func TestFaithfulPassesEveryCommand(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"check", []string{"check", "--adapter", plugin, "--checks", "10"}},
		{"check with the reference's readings", []string{"check", "--adapter", plugin + " --trimmed --notice-after --settled-pending", "--only", "features"}},
		{"diff", []string{"diff", "--adapter", plugin, "--cases", "100", "--depth", "3", "--out", t.TempDir()}},
		{"explore", []string{"explore", "--adapter", plugin, "--depth", "3", "--out", t.TempDir()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if out, code := plankit(t, tc.args...); code != 0 {
				t.Errorf("plankit %s: exit %d, want 0:\n%s", strings.Join(tc.args, " "), code, out)
			}
		})
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
