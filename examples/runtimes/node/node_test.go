// Package node_test runs plankit against the Node runtime of this
// directory, a whole agent runtime with plan mode written from SPEC.md and
// the runtime protocol alone, different from the built-in runtime wherever
// they leave room: check, diff and explore at the runtime level pass it
// (each also holds every log the runtime writes to plankit lint's rules). Its seeded mistakes are rows of the
// corpus (examples/mistakes, impl node), whose test checks each.
package node_test

import (
	"os"
	"os/exec"
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

const runtime = "node runtime.mjs"

// plankit runs the kit in this directory and returns its output and exit
// code.
func plankit(t *testing.T, args ...string) (string, int) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	return proctest.Run(t, exec.Command(builds.Program(t, "../../../cmd/plankit"), args...))
}

// TestFaithfulPassesEveryCommand: check at its defaults, diff at 150
// random scripts (its default is 1000) and its default depth, explore to
// depth 2 (its default is 3): the sizes go test affords.
func TestFaithfulPassesEveryCommand(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"check", []string{"check", "--level", "runtime", "--adapter", runtime}},
		{"diff", []string{"diff", "--level", "runtime", "--adapter", runtime, "--cases", "150", "--out", t.TempDir()}},
		{"explore", []string{"explore", "--level", "runtime", "--adapter", runtime, "--depth", "2", "--out", t.TempDir()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if out, code := plankit(t, tc.args...); code != 0 {
				t.Errorf("plankit %s: exit %d, want 0:\n%s", strings.Join(tc.args, " "), code, out)
			}
		})
	}
}
