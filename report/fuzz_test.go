package report

import (
	"runtime"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/safetext/safetexttest"
)

// FuzzParseManifest: any input is a manifest or an error naming the file and
// a line, one line without a raw control, bidirectional or invisible
// character; never a panic nor a blow-up (allocation stays within a fixed
// budget plus a multiple of the input's size).
func FuzzParseManifest(f *testing.F) {
	f.Add([]byte("# header\nid:a/b expires=2027-01-31 issue=https://x.test/1 -- reason\nclause:STEP-2 -- retries\n"))
	f.Add([]byte("id:x expires=2026-13-01 -- reason\n"))
	f.Add([]byte("id:a -- caf\xe9\n"))
	f.Add([]byte(strings.Repeat("id:a -- dup\n", 3)))
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		m, err := ParseManifest("m.txt", data)
		runtime.ReadMemStats(&after)
		if alloc, budget := after.TotalAlloc-before.TotalAlloc, uint64(64<<10)+16*uint64(len(data)); alloc > budget {
			t.Fatalf("parsing %d bytes allocated %d KB (budget %d KB)", len(data), alloc>>10, budget>>10)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "m.txt:") {
				t.Fatalf("error without the file and line: %v", err)
			}
			if why := safetexttest.OneLine(err.Error()); why != "" {
				t.Fatalf("error text not inert: %s", why)
			}
			return
		}
		if m == nil || m.Path != "m.txt" {
			t.Fatalf("no manifest and no error")
		}
	})
}
