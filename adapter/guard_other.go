//go:build !linux

package adapter

import (
	"os"
	"os/exec"
	"syscall"
)

// guard: only Linux runs adapters under a guard (guard_linux.go); here
// the adapter is plankit's direct child, the leader of its own process
// group where there are groups.
type guard struct {
	pid      int
	lifeline *os.File
}

// adapterCommand is the command that runs words, with no guard.
func adapterCommand(words []string) (*exec.Cmd, *guard, *os.File, []*os.File, error) {
	cmd := exec.Command(words[0], words[1:]...)
	setProcessGroup(cmd)
	return cmd, nil, nil, nil, nil
}

func (g *guard) started(*os.File) error           { return nil }
func (g *guard) signal(*exec.Cmd, syscall.Signal) {}
func (g *guard) end()                             {}
