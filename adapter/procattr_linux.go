package adapter

import "syscall"

// dieWithParent has the kernel kill the adapter when plankit dies without
// ending it (SIGKILL, a crash). Go never ends the OS thread that started
// the process while plankit runs (no adapter goroutine locks its thread),
// so the signal comes only with plankit's death.
func dieWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
