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
	for i := 0; !proctest.Ended(pid); i++ {
		if i == 5000 {
			t.Fatalf("process %d, exited and unreaped, does not count as ended", pid)
		}
		time.Sleep(time.Millisecond)
	}
}
