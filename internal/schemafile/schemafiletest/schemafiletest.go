// Package schemafiletest is what the tests of the YAML file formats
// (trace, rtrace) share: refusing an input within its bounds, at its
// position, at a bounded cost. Imported by tests only.
package schemafiletest

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/schemafile"
)

// Allocated runs f and returns the bytes it allocated.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Refused runs parse on data (read as in.yaml) and wants a
// *schemafile.Error at line (and column, when not 0; any line when line
// is 0) whose message holds want; it also bounds what the refusal cost:
// 64 MiB and 64 bytes a byte of data.
func Refused(t *testing.T, data []byte, parse func([]byte) error, line, col int, want string) {
	t.Helper()
	var err error
	alloc := Allocated(func() { err = parse(data) })
	var fe *schemafile.Error
	if !errors.As(err, &fe) {
		t.Fatalf("want an *Error, got %v", err)
	}
	if fe.File != "in.yaml" || (line > 0 && fe.Line != line) || (col > 0 && fe.Column != col) || !strings.Contains(fe.Msg, want) {
		t.Fatalf("got %v; want in.yaml:%d:%d saying %s", err, line, col, want)
	}
	if max := uint64(64<<20) + 64*uint64(len(data)); alloc > max {
		t.Fatalf("refusing %d bytes allocated %d MB", len(data), alloc>>20)
	}
}
