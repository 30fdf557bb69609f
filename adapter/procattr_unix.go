//go:build unix

package adapter

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the adapter in its own process group so that a
// wrapper (a shell, npx) and everything it started end together.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
}

// killGroup sends sig to the adapter's process group (its id is the
// adapter's pid). It is harmless when the group has already gone.
func killGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil && sig == syscall.SIGKILL {
		cmd.Process.Kill()
	}
}
