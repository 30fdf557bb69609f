package lint_test

import (
	"bytes"
	"encoding/json"
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

// TestEntriesAreCapped: a log of a million malformed lines keeps the first
// entries and counts the rest, which still decide the exit code and the
// summary; what the report holds stays small.
func TestEntriesAreCapped(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := lint.Reader("empty.jsonl", &repeated{line: []byte("\n"), left: 1_000_000}, lint.Options{})
	runtime.GC()
	runtime.ReadMemStats(&after)
	if live := int64(after.HeapAlloc) - int64(before.HeapAlloc); live > 16<<20 {
		t.Fatalf("a report of a million errors keeps %d MB", live>>20)
	}
	if len(r.Entries) != lint.DefaultMaxEntries || r.Count(lint.LevelError) != 1_000_000 || r.Omitted[lint.LevelError] != 1_000_000-lint.DefaultMaxEntries {
		t.Fatalf("kept %d entries, counted %d errors, omitted %v", len(r.Entries), r.Count(lint.LevelError), r.Omitted)
	}
	if lint.Code([]*lint.Report{r}) != lint.ExitInput {
		t.Fatal("the errors left out do not count")
	}
	out := text(r)
	if !strings.Contains(out, "empty.jsonl: 990000 more entries left out") || !strings.Contains(out, "1000000 errors") {
		t.Fatalf("the summary does not say what was left out:\n%s", out[len(out)-300:])
	}
	// Findings are capped and counted the same way.
	r = lint.Bytes("f.jsonl", []byte(head+strings.Repeat(`{"type":"plan/mode","data":{"active":true}}`+"\n", 30)), lint.Options{MaxEntries: 5})
	if len(r.Entries) != 5 || r.Count(lint.LevelFinding) < 25 || lint.Code([]*lint.Report{r}) != lint.ExitFindings {
		t.Fatalf("kept %d entries, counted %d findings", len(r.Entries), r.Count(lint.LevelFinding))
	}
}

// TestStreamWritesWhatWriteJSONWould: the JSON stream of reports, written
// one at a time, is the document encoding/json writes of them all.
func TestStreamWritesWhatWriteJSONWould(t *testing.T) {
	reports := []*lint.Report{
		lint.Bytes("a.jsonl", []byte(head+"\n"), lint.Options{}),
		lint.Bytes("b.jsonl", []byte(head+`{"type":"plan/mode","data":{"active":true}}`+"\n"+`{"type":"plan/mode","data":{"active":true}}`+"\n"), lint.Options{MaxEntries: 1}),
		lint.Bytes("<c>.jsonl", []byte(head), lint.Options{}),
	}
	for _, rs := range [][]*lint.Report{reports, {}} {
		var got bytes.Buffer
		if err := lint.WriteJSON(&got, rs); err != nil {
			t.Fatal(err)
		}
		want, err := json.MarshalIndent(struct {
			Files []*lint.Report `json:"files"`
			Exit  int            `json:"exit"`
		}{rs, lint.Code(rs)}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		want = bytes.ReplaceAll(want, []byte(`\u003c`), []byte("<"))
		want = bytes.ReplaceAll(want, []byte(`\u003e`), []byte(">"))
		if got.String() != string(want)+"\n" {
			t.Fatalf("got\n%s\nwant\n%s", got.String(), want)
		}
		var doc struct{ Files []lint.Report }
		if err := json.Unmarshal(got.Bytes(), &doc); err != nil || len(doc.Files) != len(rs) {
			t.Fatalf("%d files, %v", len(doc.Files), err)
		}
	}
}
