// Package proctest holds what the tests that run plankit's programs share:
// building a main package of the module, and whether a process has ended.
package proctest

import (
	"os"
	"os/exec"
	"testing"
)

// GoBuild compiles the main package pkg (as go build names it, from the
// test's working directory) into the file out, with env added to the
// environment of go build (e.g. CGO_ENABLED=0), and returns out; a failed
// build fails t with the compiler's output.
func GoBuild(t testing.TB, out, pkg string, env ...string) string {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Env = append(os.Environ(), env...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, msg)
	}
	return out
}
