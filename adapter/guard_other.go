//go:build !linux

package adapter

import (
	"errors"
	"os"
	"syscall"
)

// Only Linux runs adapters under a guard (guard_linux.go); here the
// adapter is plankit's direct child, the leader of its own process group
// where there are groups.
type guardSet struct{}

func newGuardSet(Options) *guardSet { return nil }

func (s *guardSet) get() (*guard, error) { return nil, errors.New("no guard on this system") }
func (s *guardSet) put(*guard)           {}
func (s *guardSet) close()               {}
func (s *guardSet) kill()                {}

type guard struct{}

func (g *guard) start() (run, pid int, stdin, stdout, stderr *os.File, err error) {
	return 0, 0, nil, nil, nil, errors.New("no guard on this system")
}
func (g *guard) wait(int) (error, bool)     { return nil, false }
func (g *guard) signal(int, syscall.Signal) {}
func (g *guard) kill()                      {}
func (g *guard) close()                     {}
