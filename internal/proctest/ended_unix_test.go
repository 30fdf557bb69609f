//go:build unix

package proctest_test

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/plankit/plankit/internal/proctest"
)

func TestEnded(t *testing.T) {
	if proctest.Ended(os.Getpid()) {
		t.Fatal("this test's own process counts as ended")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if !proctest.Ended(pid) {
		t.Errorf("process %d, reaped, does not count as ended", pid)
	}
}

// A zombie (exited, not yet reaped) has ended.
func TestEndedZombie(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Wait() })
	pid := cmd.Process.Pid
	if !proctest.EndsWithin(pid, 5*time.Second) {
		t.Fatalf("process %d, exited and unreaped, does not count as ended", pid)
	}
}

// A process that runs on has not ended within the time given.
func TestEndsWithinWaitsOnlyThatLong(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if proctest.EndsWithin(cmd.Process.Pid, 50*time.Millisecond) {
		t.Fatalf("a running process %d counts as ended", cmd.Process.Pid)
	}
}
