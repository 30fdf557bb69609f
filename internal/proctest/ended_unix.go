//go:build unix

package proctest

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Ended reports whether pid no longer runs: it does not exist, or it is a
// zombie waiting for its new parent (init) to reap it.
func Ended(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// pid (comm) STATE ...; comm may hold spaces and parentheses.
	s := string(stat)
	rest := s[strings.LastIndexByte(s, ')')+1:]
	return strings.HasPrefix(strings.TrimSpace(rest), "Z")
}

// EndsWithin waits up to d for pid to end (Ended), looking every 10 ms, and
// reports whether it did: a process killed by a signal to its group may be
// reaped by init in its own time.
func EndsWithin(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for !Ended(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
