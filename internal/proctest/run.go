package proctest

import (
	"errors"
	"os/exec"
	"testing"
)

// Run runs cmd and returns its combined output and exit code; a command
// that could not be run at all fails t.
func Run(t testing.TB, cmd *exec.Cmd) (output string, code int) {
	t.Helper()
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", cmd, err)
	}
	return string(out), 0
}
