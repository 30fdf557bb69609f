package compare

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/safetext/safetexttest"
	"github.com/plankit/plankit/report"
)

// FuzzParse: any input is a plankit JSON report or an error naming the
// file (and, for what is not JSON or not UTF-8, the line and column);
// never a panic nor a blow-up (allocation within a fixed budget plus a
// multiple of the input's size); the error is one line without a raw
// control, bidirectional or invisible character. A report that parses
// compares with itself and with the published one, and every format of
// the comparison is inert outside text (safetexttest.Problems).
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	var published []byte
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if published == nil {
			published = b
		}
		f.Add(b)
	}
	for _, s := range []string{
		`{"suite":"plankit","suiteVersion":"1.0.0","verdict":"pass","cases":[{"id":"a","status":"passed"}]}`,
		`{"suite":"plankit","suiteVersion":"1.0.0","verdict":"fail","implementation":{"name":"::error::x\n\u202e"},"cases":[{"id":"::error::id\n##vso[x]","status":"failed","message":"![i](https://x.invalid/p.png) \u2066","clauses":["PEND-1\n::x"]}]}`,
		`{"suite":"plankit","suiteVersion":"1.0.0","verdict":"pass","cases":[{"id":"a","status":"green"}]}`,
		`{"suite":"plankit","suiteVersion":"1.0.0","verdict":"pass","cases":[{"id":"a","status":"passed","message":"x\udc00"}]}`,
		"{\"suite\":\"plankit\",\"suiteVersion\":\"1.0.0\",\"verdict\":\"pass\",\"cases\":[{\"id\":\"\xff\",\"status\":\"passed\"}]}",
		`{"suite": "plankit",` + "\n" + `  oops}`,
	} {
		f.Add([]byte(s))
	}
	base, err := Parse("published.json", published)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		run, err := Parse("r.json", data)
		runtime.ReadMemStats(&after)
		if alloc, budget := after.TotalAlloc-before.TotalAlloc, uint64(1<<20)+64*uint64(len(data)); alloc > budget {
			t.Fatalf("parsing %d bytes allocated %d KB (budget %d KB)", len(data), alloc>>10, budget>>10)
		}
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "r.json:") {
				t.Fatalf("error without the file: %v", err)
			}
			if why := safetexttest.OneLine(msg); why != "" {
				t.Fatalf("error text not inert: %s", why)
			}
			return
		}
		for _, other := range []struct {
			name string
			run  report.Run
		}{{"r.json", run}, {"published.json", base}} {
			cmp, err := Reports("r.json", run, other.name, other.run, Options{})
			if err != nil {
				if why := safetexttest.OneLine(err.Error()); why != "" {
					t.Fatalf("mismatch error not inert: %s", why)
				}
				continue
			}
			for _, format := range Formats {
				var b bytes.Buffer
				if err := Write(&b, cmp, format); err != nil {
					t.Fatal(err)
				}
				if p := safetexttest.Problems(format, b.Bytes()); len(p) > 0 {
					t.Fatalf("%s output against %s: %s", format, other.name, strings.Join(p, "\n"))
				}
			}
		}
	})
}
