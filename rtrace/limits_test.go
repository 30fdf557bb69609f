package rtrace_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/internal/schemafile/schemafiletest"
	"github.com/plankit/plankit/rtrace"
)

// refused parses data within lim and wants an *Error at line (and column,
// when not 0) whose message holds want, at a bounded cost.
func refused(t *testing.T, data []byte, lim inputlimit.Limits, line, col int, want string) {
	t.Helper()
	schemafiletest.Refused(t, data, func(d []byte) error { _, err := rtrace.ParseWithLimits("in.yaml", d, lim); return err }, line, col, want)
}

// bomb is the billion-laughs shape inside a runtime trace's config: ten
// anchors, each nine aliases of the one before, expanding to 10^9 nodes.
func bomb() []byte {
	var b strings.Builder
	b.WriteString("level: runtime\nname: bomb\nconfig: {section: x, a0: &a0 [x, x, x, x, x, x, x, x, x]")
	for i := 1; i < 10; i++ {
		b.WriteString(", a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		b.WriteString(strings.TrimSuffix(strings.Repeat("*a"+string(rune('0'+i-1))+", ", 9), ", "))
		b.WriteString("]")
	}
	b.WriteString("}\nsteps: []\n")
	return []byte(b.String())
}

// TestAliasBomb: 600 bytes of aliases inside config are refused at the
// alias that passes the node bound, without expanding them.
func TestAliasBomb(t *testing.T) {
	data := bomb()
	if len(data) > 600 {
		t.Fatalf("the bomb is %d bytes", len(data))
	}
	refused(t, data, inputlimit.Trace, 3, 0, inputlimit.FlagNodes)
}

// TestDeepNesting: nested flow sequences are refused by the text scan,
// before the parser builds them.
func TestDeepNesting(t *testing.T) {
	const deep = 50_000
	data := "level: runtime\nname: deep\nconfig: {section: x, y: " + strings.Repeat("[", deep) + strings.Repeat("]", deep) + "}\nsteps: []\n"
	refused(t, []byte(data), inputlimit.Trace, 3, 0, inputlimit.FlagDepth)
	// The exact bound too: level, name, config and steps are one level.
	lim := inputlimit.Trace
	lim.Depth = 2
	refused(t, []byte("level: runtime\nname: d\nsteps:\n  - get: {agent: main}\n"), lim, 4, 0, inputlimit.FlagDepth)
}

func TestInvalidUTF8(t *testing.T) {
	refused(t, []byte("level: runtime\nname: \"a \xff b\"\nsteps: []\n"), inputlimit.Trace, 2, 10, inputlimit.UTF8Message)
}

// TestControlCharacters: a control character in a string, raw or written
// as an escape, is refused where it is (it would reach terminals and
// logs); an escape of an ordinary character reads as that character.
func TestControlCharacters(t *testing.T) {
	refused(t, []byte("level: runtime\nname: \"a\\x01b\"\nsteps: []\n"), inputlimit.Trace, 2, 7, "control character U+0001")
	refused(t, []byte("level: runtime\nname: a\x1b[2Jb\nsteps: []\n"), inputlimit.Trace, 2, 8, "control character U+001B")
	refused(t, []byte("level: runtime\nname: ok\nsteps:\n  - turn: {agent: main, prompt: \"\\u0085\", script: {}}\n"), inputlimit.Trace, 4, 33, "control character U+0085")
	tr, err := rtrace.Parse("in.yaml", []byte("level: runtime\nname: \"a\\x41\\tb\"\nsteps: []\n"))
	if err != nil || tr.Name != "aA\tb" {
		t.Fatalf("escapes: %+v %v", tr, err)
	}
}

// steps is a runtime trace of n one-line steps.
func steps(n int) []byte {
	return []byte("level: runtime\nname: many\nsteps:\n" + strings.Repeat("  - get: {agent: main}\n", n))
}

func TestStepBound(t *testing.T) {
	lim := inputlimit.Trace
	lim.Records = 10
	if _, err := rtrace.ParseWithLimits("in.yaml", steps(10), lim); err != nil {
		t.Fatalf("10 steps with a bound of 10: %v", err)
	}
	refused(t, steps(11), lim, 14, 5, inputlimit.FlagActions)
	// 40,000 steps are refused by the default node estimate, before parsing.
	refused(t, steps(40_000), inputlimit.Trace, 0, 0, inputlimit.FlagNodes)
}

func TestByteBound(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(p, steps(50_000), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	alloc := schemafiletest.Allocated(func() { _, err = rtrace.ReadFile(p) })
	var te *rtrace.Error
	if !errors.As(err, &te) || te.File != p || te.Line == 0 || !strings.Contains(te.Msg, inputlimit.FlagBytes) {
		t.Fatalf("got %v; want the byte bound with a line", err)
	}
	if alloc > 16<<20 {
		t.Fatalf("reading past the byte bound: allocated %d MB", alloc>>20)
	}
}

// TestParseCarriesTranscriptBound: the trace read carries the bound on what
// its requests carry, for loop to enforce.
func TestParseCarriesTranscriptBound(t *testing.T) {
	lim := inputlimit.Trace
	lim.Transcript = 12345
	tr, err := rtrace.ParseWithLimits("in.yaml", steps(1), lim)
	if err != nil || tr.MaxTranscript != 12345 {
		t.Fatalf("%+v %v", tr, err)
	}
}
