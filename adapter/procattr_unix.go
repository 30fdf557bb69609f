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
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		cmd.Process.Kill()
	}
}
