package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExploreReferencePasses(t *testing.T) {
	code, out, errs := run(t, "explore", "--depth", "3")
	if code != ExitPass || !strings.Contains(out, "distinct states") || !strings.Contains(out, "no violation") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}

// TestExploreCounterexampleReplays: exploring a broken implementation
// writes a trace that plankit sim replays to the same failure, and that the
// reference passes.
func TestExploreCounterexampleReplays(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, "explore", "--depth", "4", "--mutant", "append-on-abort", "--out", dir)
	if code != ExitFail {
		t.Fatalf("explore against append-on-abort: exit %d, want %d\n%s\n%s", code, ExitFail, out, errs)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(files) != 1 || !strings.Contains(out, files[0]) {
		t.Fatalf("want one trace named in the output, got %v\n%s", files, out)
	}
	violation := out[strings.Index(out, "violation: "):]
	violation = violation[:strings.Index(violation, "\n")]
	msg := violation[strings.LastIndex(violation, "): ")+3:]
	code, simOut, simErr := run(t, "sim", "--mutant", "append-on-abort", files[0])
	if code != ExitFail || !strings.Contains(simErr+simOut, strings.Split(msg, ";")[0]) {
		b, _ := os.ReadFile(files[0])
		t.Fatalf("plankit sim on the counterexample: exit %d, want the failure %q\n%s\n%s\n%s", code, msg, simOut, simErr, b)
	}
	if code, simOut, simErr := run(t, "sim", files[0]); code != ExitPass {
		t.Fatalf("the counterexample fails against the reference: exit %d\n%s\n%s", code, simOut, simErr)
	}
}

func TestExploreUsage(t *testing.T) {
	for _, args := range [][]string{{"explore", "--depth", "0"}, {"explore", "--mutant", "no-such"}, {"explore", "--retries", "twice"}, {"explore", "extra"}} {
		if code, _, _ := run(t, args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, ExitUsage)
		}
	}
}
