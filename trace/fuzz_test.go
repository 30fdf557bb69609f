package trace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plankit/plankit/internal/safetext/safetexttest"
	"github.com/plankit/plankit/internal/schemafile/schemafiletest"
)

// FuzzParse: any input is a trace or an *Error saying where, one line
// without a raw control, bidirectional or invisible character (outside
// text is inert in it, safetext); never a panic,
// and never a blow-up: parsing allocates at most a fixed budget plus a
// multiple of the input's size, and finishes within a generous time. The
// seed corpus is every example trace, every malformed fixture and the
// shapes that once exhausted memory (an alias bomb, deep nesting).
func FuzzParse(f *testing.F) {
	for _, glob := range []string{"../examples/*.yaml", "testdata/bad/*.yaml"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Add(aliasBomb())
	f.Add([]byte("name: deep\nscript:\n  - load: {config: " + strings.Repeat("[", 5000) + "}\n"))
	f.Add([]byte("name: deep\nx: " + strings.Repeat("- ", 5000) + "\n"))
	f.Add([]byte("name: \"\xff\"\nscript: []\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var tr *Trace
		var err error
		begin := time.Now()
		alloc := schemafiletest.Allocated(func() { tr, err = Parse("fuzz.yaml", data) })
		if budget := uint64(32<<20) + 2048*uint64(len(data)); alloc > budget {
			t.Fatalf("parsing %d bytes allocated %d MB (budget %d MB)", len(data), alloc>>20, budget>>20)
		}
		if d := time.Since(begin); d > 10*time.Second {
			t.Fatalf("parsing %d bytes took %v", len(data), d)
		}
		if err == nil {
			if tr == nil || tr.Name == "" {
				t.Fatalf("parsed without a name: %+v", tr)
			}
			return
		}
		var te *Error
		if !errors.As(err, &te) {
			t.Fatalf("error of type %T: %v", err, err)
		}
		if why := safetexttest.OneLine(err.Error()); why != "" {
			t.Fatalf("error text not inert: %s", why)
		}
	})
}
