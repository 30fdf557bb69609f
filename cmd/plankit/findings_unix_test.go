//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCompareReadsOnlyRegularFiles: a named pipe (or a directory) given to
// compare is refused at once, exit 2, instead of keeping it waiting for a
// writer; standard input is read when named -.
func TestCompareReadsOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	o, n := compareReports(t, dir, "x", map[string]string{"a": "passed"}, map[string]string{"a": "passed"})
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	for _, arg := range []string{fifo, dir} {
		code, out, errs := runBounded(t, 30*time.Second, dir, "", "compare", o, arg)
		if code != ExitUsage || !strings.Contains(errs, "not a regular file") {
			t.Errorf("%s: exit %d, want 2 saying it is not a regular file\n%s%s", arg, code, out, errs)
		}
	}
	code, out, errs := runBounded(t, 30*time.Second, dir, mustRead(t, n), "compare", o, "-")
	if code != ExitPass || !strings.Contains(out, "No regression") {
		t.Errorf("standard input: exit %d\n%s%s", code, out, errs)
	}
}
