package rtrace_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/internal/safetext/safetexttest"
	"github.com/plankit/plankit/internal/schemafile/schemafiletest"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/rtrace"
)

// FuzzParse: any input is a runtime trace or an *Error saying where, one
// line without a raw control, bidirectional or invisible character; never
// a panic, and never a blow-up: parsing allocates at most a fixed budget
// plus a multiple of the input's size (the guard the plugin traces' fuzz
// target has), and a trace that parses runs on the built-in runtime within
// the 256 MB ceiling whatever it asks the runtime to do (the transcript
// bound holds what its requests carry). The seed corpus is every example
// runtime trace and the shapes that once exhausted memory: an alias bomb,
// deep nesting, and turns that resend a growing transcript.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../examples/runtime/*.yaml")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(tour))
	f.Add(bomb())
	f.Add([]byte("level: runtime\nname: deep\nconfig: {section: x, y: " + strings.Repeat("[", 5000) + "}\nsteps: []\n"))
	f.Add([]byte("level: runtime\nname: \"\xff\"\nsteps: []\n"))
	f.Add([]byte("level: runtime\nname: \"a\\x01\"\nsteps: []\n"))
	f.Add(resend(200))
	f.Fuzz(func(t *testing.T, data []byte) {
		var tr *loop.Trace
		var err error
		begin := time.Now()
		alloc := schemafiletest.Allocated(func() { tr, err = rtrace.Parse("fuzz.yaml", data) })
		if budget := uint64(32<<20) + 2048*uint64(len(data)); alloc > budget {
			t.Fatalf("parsing %d bytes allocated %d MB (budget %d MB)", len(data), alloc>>20, budget>>20)
		}
		if d := time.Since(begin); d > 10*time.Second {
			t.Fatalf("parsing %d bytes took %v", len(data), d)
		}
		if err != nil {
			var te *rtrace.Error
			if !errors.As(err, &te) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if why := safetexttest.OneLine(err.Error()); why != "" {
				t.Fatalf("error text not inert: %s", why)
			}
			return
		}
		b, err := loop.NewBuiltin(reference.NewPort(reference.Options{}), loop.RetryPreStep)
		if err != nil {
			t.Fatal(err)
		}
		begin = time.Now()
		if alloc := schemafiletest.Allocated(func() { _, _ = loop.Run(b, *tr) }); alloc > 256<<20 {
			t.Fatalf("running a trace of %d bytes allocated %d MB", len(data), alloc>>20)
		}
		if d := time.Since(begin); d > 10*time.Second {
			t.Fatalf("running a trace of %d bytes took %v", len(data), d)
		}
	})
}

// resend is a runtime trace of n turns, aliases of one, each of nine
// requests that resend the whole transcript.
func resend(n int) []byte {
	return []byte("level: runtime\nname: grow\nconfig: {section: x}\nhostTools: [{name: read_file}]\nsteps:\n" +
		"  - &t {turn: {agent: main, prompt: " + strings.Repeat("p", 200) + ", script: {responses: [" + strings.Repeat("{calls: [{id: c, name: read_file, args: {}}]}, ", 8) + "{text: t}]}}}\n" +
		strings.Repeat("  - *t\n", n-1))
}

// TestResendingTranscriptIsBounded: 200 turns that resend the growing
// transcript stop at the transcript bound, within the memory ceiling.
func TestResendingTranscriptIsBounded(t *testing.T) {
	tr, err := rtrace.Parse("grow.yaml", resend(200))
	if err != nil {
		t.Fatal(err)
	}
	b, err := loop.NewBuiltin(reference.NewPort(reference.Options{}), loop.RetryPreStep)
	if err != nil {
		t.Fatal(err)
	}
	var runErr error
	alloc := schemafiletest.Allocated(func() { _, runErr = loop.Run(b, *tr) })
	if runErr == nil || !strings.Contains(runErr.Error(), inputlimit.FlagTranscript) {
		t.Fatalf("got %v; want the transcript bound", runErr)
	}
	if alloc > 256<<20 {
		t.Fatalf("allocated %d MB", alloc>>20)
	}
	t.Logf("allocated %d MB", alloc>>20)
}
