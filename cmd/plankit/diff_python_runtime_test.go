package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDiffRuntimeAgainstThePythonRuntime: the Python example runtime,
// written from SPEC.md alone, does not diverge from the built-in runtime
// around the reference (issue 22's acceptance; where they read a silent
// point differently, as the owed notice across an unload and a reload,
// both readings pass). Small, to stay quick: the lockstep package replays
// the shrunk trace of that divergence (TestOwedNoticeAcrossReloadOrRestartIsASilentPoint).
func TestDiffRuntimeAgainstThePythonRuntime(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns the Python runtime")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the Python example runtime cannot run")
	}
	code, out, errs := run(t, "diff", "--level", "runtime", "--adapter", "python3 runtime.py", "--adapter-dir", "../../examples/runtimes/python",
		"--seed", "2", "--cases", "40", "--steps", "20", "--depth", "1", "--out", t.TempDir())
	if code != ExitPass || !strings.Contains(out, "no divergence") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}
