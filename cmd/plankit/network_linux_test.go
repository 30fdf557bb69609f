package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var netCall = regexp.MustCompile(`(?m)^\d+ +(socket|socketpair|connect)\(.*$`)

// TestNoNetwork runs plankit's commands, and the adapter `plankit serve`
// they start, under strace and fails on any socket, socketpair or connect
// system call: plankit opens no network connection. A shell opening a
// TCP connection shows the trap springs.
func TestNoNetwork(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed")
	}
	dir := t.TempDir()
	plankit := plankitBin(t)
	trace := "../../examples/pend-mid-turn-later-turn.yaml"
	// netCalls runs argv under strace and returns its network calls; the
	// command must exit 0 (strace exits with its status), so a command
	// that stopped before doing its work cannot pass.
	netCalls := func(t *testing.T, argv ...string) []string {
		t.Helper()
		log := filepath.Join(t.TempDir(), "strace.log")
		cmd := exec.Command(strace, append([]string{"-f", "-qq", "-e", "trace=socket,socketpair,connect", "-e", "signal=none", "-o", log}, argv...)...)
		out, runErr := cmd.CombinedOutput()
		b, err := os.ReadFile(log)
		if err != nil || runErr != nil {
			t.Fatalf("%s: %v (log: %v)\n%s", strings.Join(argv, " "), runErr, err, out)
		}
		// A line "PID call(args) = result", possibly split by another
		// thread's: "PID call(args <unfinished ...>".
		return netCall.FindAllString(string(b), -1)
	}
	if calls := netCalls(t, "bash", "-c", "(exec 3<>/dev/tcp/127.0.0.1/9) 2>/dev/null; true"); len(calls) == 0 {
		t.Skip("strace does not see system calls here (no ptrace?)")
	}
	serve := plankit + " serve"
	for _, argv := range [][]string{
		{plankit, "sim", "--adapter", serve, trace},
		{plankit, "check", "--only", "features", "--tags", "@PEND-5", "--adapter", serve, "--counterexamples", dir},
		{plankit, "check", "--level", "runtime", "--only", "features", "--tags", "@STEP-2", "--adapter", plankit + " serve --level runtime", "--counterexamples", dir},
		{plankit, "diff", "--cases", "5", "--depth", "1", "--adapter", serve, "--out", dir},
		{plankit, "lint", "../../lint/testdata/dsh/plan-review.jsonl"},
		{plankit, "explore", "--depth", "2"},
	} {
		if calls := netCalls(t, argv...); len(calls) > 0 {
			t.Errorf("%s: network system calls:\n%s", strings.Join(argv[1:], " "), strings.Join(calls, "\n"))
		}
	}
}
