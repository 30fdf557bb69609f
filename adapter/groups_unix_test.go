//go:build unix

package adapter_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/internal/proctest"
)

func pidsIn(t *testing.T, file string) []int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, n)
	}
	return pids
}

// killOnCleanup ends pids a failed test leaves behind.
func killOnCleanup(t *testing.T, file string) {
	t.Cleanup(func() {
		b, _ := os.ReadFile(file)
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil && n > 1 {
				syscall.Kill(n, syscall.SIGKILL)
			}
		}
	})
}

// A background child the adapter started does not outlive the adapter's
// clean exit (stop, then end of input).
func TestBackgroundChildEndsWithTheAdapter(t *testing.T) {
	pids := filepath.Join(t.TempDir(), "pids")
	t.Setenv("FAKEADAPTER_PIDS", pids)
	killOnCleanup(t, pids)
	pool := newPool(t, adapter.Options{Command: []string{fakeBin(t), "orphan", "start"}, NoReuse: true, NoSpare: true})
	port := pool.Port()
	if _, err := port.Start(); err != nil {
		t.Fatal(err)
	}
	if err := port.Stop(); err != nil {
		t.Fatal(err)
	}
	got := pidsIn(t, pids)
	if len(got) != 2 {
		t.Fatalf("want the adapter's and its child's pid, got %v", got)
	}
	for _, pid := range got {
		if !proctest.EndsWithin(pid, 2*time.Second) {
			t.Errorf("process %d survived the adapter's clean exit", pid)
		}
	}
}

// A background child that left the adapter's process group and session
// (setsid), holding its stdout and stderr, is ended with the adapter
// (Linux: the guard): it has ended when Stop returns, and Stop does not
// wait on the pipes it held.
func TestEscapedChildEndsWithTheAdapter(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux runs adapters under a guard")
	}
	pids := filepath.Join(t.TempDir(), "pids")
	t.Setenv("FAKEADAPTER_PIDS", pids)
	killOnCleanup(t, pids)
	pool := newPool(t, adapter.Options{Command: []string{fakeBin(t), "setsid", "start"}, NoReuse: true, NoSpare: true})
	port := pool.Port()
	if _, err := port.Start(); err != nil {
		t.Fatal(err)
	}
	if got := pidsIn(t, pids); len(got) != 2 || port.PID() != got[0] {
		t.Fatalf("pids %v, port pid %d: want the adapter's (the port's) and its child's", got, port.PID())
	}
	if err := port.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pidsIn(t, pids) {
		if !proctest.Ended(pid) {
			t.Errorf("process %d survived the adapter's clean exit", pid)
		}
	}
}

// One guard runs a pool's adapters one after another (Linux): real
// restarts on one port start no guard after the first, and each adapter's
// escaped child has ended when its Stop returns, before the next adapter
// runs under the same guard.
func TestGuardRunsAdaptersInTurn(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux runs adapters under a guard")
	}
	pids := filepath.Join(t.TempDir(), "pids")
	t.Setenv("FAKEADAPTER_PIDS", pids)
	killOnCleanup(t, pids)
	pool := newPool(t, adapter.Options{Command: []string{fakeBin(t), "setsid", "start"}, NoReuse: true, NoSpare: true, Restarts: adapter.RestartReal})
	port := pool.Port()
	guards := map[int]bool{}
	seen := 0
	for round := range 4 {
		if _, err := port.Start(); err != nil {
			t.Fatal(err)
		}
		guards[parentOf(t, port.PID())] = true
		if err := port.Stop(); err != nil {
			t.Fatal(err)
		}
		got := pidsIn(t, pids)
		if len(got) != seen+2 {
			t.Fatalf("round %d: pids %v, want the adapter's and its child's added", round, got)
		}
		for _, pid := range got[seen:] {
			if !proctest.Ended(pid) {
				t.Errorf("round %d: process %d survived the adapter's clean exit", round, pid)
			}
		}
		seen = len(got)
	}
	if len(guards) != 1 {
		t.Errorf("4 adapters one after another ran under %d guards, want 1", len(guards))
	}
}

// parentOf is the parent pid of a running process, from /proc.
func parentOf(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		t.Fatal(err)
	}
	return ppid
}

// An adapter that ignores the end of its input and SIGTERM is killed
// when the pool closes, within the grace periods.
func TestDeafAdapterIsKilled(t *testing.T) {
	pids := filepath.Join(t.TempDir(), "pids")
	t.Setenv("FAKEADAPTER_PIDS", pids)
	killOnCleanup(t, pids)
	pool, err := adapter.NewPool(adapter.Options{Command: []string{fakeBin(t), "deaf", "start"}, NoSpare: true, KillGrace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	port := pool.Port()
	if _, err := port.Start(); err != nil {
		t.Fatal(err)
	}
	pid := port.PID()
	time.Sleep(100 * time.Millisecond) // SIGTERM is ignored from the reply on
	done := make(chan struct{})
	go func() { pool.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Close did not return")
	}
	if !proctest.Ended(pid) {
		t.Fatalf("process %d survived Close", pid)
	}
}

// Abort while an adapter is still starting (it sleeps before replying to
// start) fails the start at once and ends the process.
func TestAbortDuringAdapterStart(t *testing.T) {
	pids := filepath.Join(t.TempDir(), "pids")
	t.Setenv("FAKEADAPTER_PIDS", pids)
	killOnCleanup(t, pids)
	pool, err := adapter.NewPool(adapter.Options{Command: []string{fakeBin(t), "slow", "start", "60"}, NoSpare: true, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	port := pool.Port()
	type result struct{ err error }
	res := make(chan result, 1)
	go func() {
		_, err := port.Start()
		res <- result{err}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if b, _ := os.ReadFile(pids); len(b) > 0 && b[len(b)-1] == '\n' {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	pid := pidsIn(t, pids)[0]
	begin := time.Now()
	pool.Abort()
	select {
	case r := <-res:
		if r.err == nil {
			t.Fatal("start succeeded after Abort")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("start still waits after Abort")
	}
	if !proctest.Ended(pid) {
		t.Fatalf("process %d survived Abort", pid)
	}
	if took := time.Since(begin); took > 15*time.Second {
		t.Fatalf("Abort took %v", took)
	}
	if _, err := pool.Port().Start(); err == nil {
		t.Fatal("a process started after Abort")
	}
}
