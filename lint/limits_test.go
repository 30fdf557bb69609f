package lint_test

import (
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/lint"
)

// has reports whether r has an error at line whose message contains want.
func has(r *lint.Report, line int, want string) bool {
	return slices.ContainsFunc(r.Entries, func(e lint.Entry) bool {
		return e.Level == lint.LevelError && e.Line == line && strings.Contains(e.Message, want)
	})
}

func TestInputBounds(t *testing.T) {
	ev := `{"type":"turn/start","data":{"turn":1}}` + "\n"
	lim := inputlimit.Limits{Bytes: 1 << 20, Line: 64, Records: 3}
	cases := []struct {
		name, log string
		line      int
		want      string
	}{
		{"bytes", head + strings.Repeat(ev, 100), 0, inputlimit.FlagBytes},
		{"line", head + `{"type":"turn/start","data":{"text":"` + strings.Repeat("x", 100) + `"}}` + "\n" + ev, 2, inputlimit.FlagLine},
		{"events", head + strings.Repeat(ev, 4), 5, inputlimit.FlagEvents},
		{"invalid UTF-8", head + `{"type":"turn/start","data":{"t":"` + "\xff" + `"}}` + "\n", 2, "column 35: invalid UTF-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := lim
			if c.name == "bytes" {
				l.Bytes = int64(len(head) + 2*len(ev))
				c.line = 4
			}
			r := lint.Bytes("x.jsonl", []byte(c.log), lint.Options{Limits: l})
			if lint.Code([]*lint.Report{r}) != lint.ExitInput || !has(r, c.line, c.want) {
				t.Fatalf("want an error at line %d naming %q:\n%s", c.line, c.want, text(r))
			}
		})
	}
	// At the bounds, nothing is refused.
	r := lint.Bytes("x.jsonl", []byte(head+strings.Repeat(ev, 3)), lint.Options{Limits: inputlimit.Limits{Bytes: int64(len(head) + 3*len(ev)), Line: len(head), Records: 3}})
	if lint.Code([]*lint.Report{r}) == lint.ExitInput {
		t.Fatalf("refused at the bounds:\n%s", text(r))
	}
	// The line after an over-long one is read as usual.
	r = lint.Bytes("x.jsonl", []byte(head+`{"type":"`+strings.Repeat("y", 200)+"\n"+`{"type":`+"\n"), lint.Options{Limits: lim})
	if !has(r, 2, inputlimit.FlagLine) || !has(r, 3, "not a JSON object") {
		t.Fatalf("want the long line and the next one reported:\n%s", text(r))
	}
}

// repeated is an endless log: one session header, then the same event.
type repeated struct {
	line []byte
	left int64
	off  int
}

func (r *repeated) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && r.left > 0 {
		c := copy(p[n:], r.line[r.off:])
		n, r.off, r.left = n+c, r.off+c, r.left-int64(c)
		if r.off == len(r.line) {
			r.off = 0
		}
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// TestLargeLogStreams: a 64 MB log is read a line at a time, its memory
// bounded by what the rules keep, not by its size.
func TestLargeLogStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 64 MB")
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := lint.Reader("big.jsonl", &repeated{line: []byte(`{"type":"text-chunks","data":{"texts":["` + strings.Repeat("x", 1000) + `"]}}` + "\n"), left: 64 << 20}, lint.Options{})
	runtime.GC()
	runtime.ReadMemStats(&after)
	if r.Events < 60_000 {
		t.Fatalf("read %d events", r.Events)
	}
	if live := int64(after.HeapAlloc) - int64(before.HeapAlloc); live > 16<<20 {
		t.Fatalf("linting 64 MB keeps %d MB", live>>20)
	}
}
