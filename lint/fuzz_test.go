package lint_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/safetext/safetexttest"
	"github.com/plankit/plankit/lint"
)

// Any input gives a report and an exit code, never a panic nor a blow-up
// (allocation stays within a fixed budget plus a multiple of the input's
// size, and the report keeps at most its MaxEntries entries, counting the
// rest); a clean report has no error entries; its text and JSON output
// keep the log's text inert (safetexttest.Problems).
func FuzzBytes(f *testing.F) {
	files, _ := filepath.Glob("testdata/dsh/*.jsonl")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(head + `{"type":"plan/mode","seq":0,"data":{"active":true}}` + "\n" + `{"type":"text-chunks","seq0":1,"data":{"texts":["a"]}}`))
	f.Add([]byte(strings.Repeat("\n", 5000)))
	f.Add([]byte(head + `{"type":"plan/mode","seq":0,"data":{"active":"::error::x\n\u202e"}}` + "\n::error::\u202e\x1b[31m not json\n"))
	f.Add([]byte(head + strings.Repeat(`{"type":"plan/mode","data":{"active":true}}`+"\n", 500)))
	const maxEntries = 100
	f.Fuzz(func(t *testing.T, b []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r := lint.Bytes("fuzz.jsonl", b, lint.Options{MaxEntries: maxEntries})
		runtime.ReadMemStats(&after)
		if alloc, budget := after.TotalAlloc-before.TotalAlloc, uint64(1<<20)+256*uint64(len(b)); alloc > budget {
			t.Fatalf("linting %d bytes allocated %d KB (budget %d KB)", len(b), alloc>>10, budget>>10)
		}
		if len(r.Entries) > maxEntries {
			t.Fatalf("the report keeps %d entries (at most %d)", len(r.Entries), maxEntries)
		}
		code := lint.Code([]*lint.Report{r})
		if code == lint.ExitClean && r.Count(lint.LevelError)+r.Count(lint.LevelFinding) > 0 {
			t.Fatalf("exit 0 with errors or findings: %+v", r.Entries)
		}
		for i := 1; i < len(r.Entries); i++ {
			if r.Entries[i].Line < r.Entries[i-1].Line {
				t.Fatalf("entries out of line order: %+v", r.Entries)
			}
		}
		for _, format := range []string{"text", "json"} {
			var out bytes.Buffer
			s := lint.NewStream(&out, format)
			if err := s.Write(r); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if p := safetexttest.Problems(format, out.Bytes()); len(p) > 0 {
				t.Fatalf("the %s report lets outside text through: %s", format, strings.Join(p, "\n"))
			}
		}
	})
}

// BenchmarkPlanReview lints the recorded plan-review session (38 rows, 342
// events, most of its 27 KB in packed chunk rows).
func BenchmarkPlanReview(b *testing.B) {
	data, err := os.ReadFile("testdata/dsh/plan-review.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		lint.Bytes("plan-review.jsonl", data, lint.Options{})
	}
}
