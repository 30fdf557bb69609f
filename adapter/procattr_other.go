//go:build !unix

package adapter

import (
	"os/exec"
	"syscall"
)

func setProcessGroup(*exec.Cmd) {}

// killGroup ends the adapter process; without process groups its
// children are not reached. Only SIGKILL has an effect here.
func killGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process != nil && sig == syscall.SIGKILL {
		cmd.Process.Kill()
	}
}
