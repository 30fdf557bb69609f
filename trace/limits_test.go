package trace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/internal/schemafile/schemafiletest"
)

// refused parses data within lim and wants an *Error at line whose
// message names the flag, at a bounded cost.
func refused(t *testing.T, data []byte, lim inputlimit.Limits, line int, flag string) {
	t.Helper()
	schemafiletest.Refused(t, data, func(d []byte) error { _, err := ParseWithLimits("in.yaml", d, lim); return err }, line, 0, flag)
}

// aliasBomb is the billion-laughs shape: ten anchors, each nine aliases
// of the one before, about 400 bytes expanding to 10^9 nodes.
func aliasBomb() []byte {
	var b strings.Builder
	b.WriteString("name: bomb\na0: &a0 [x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 10; i++ {
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for j := 0; j < 9; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	b.WriteString("script: [*a9]\n")
	return []byte(b.String())
}

func TestAliasBomb(t *testing.T) {
	data := aliasBomb()
	if len(data) > 600 {
		t.Fatalf("the bomb is %d bytes", len(data))
	}
	refused(t, data, inputlimit.Trace, 0, inputlimit.FlagNodes)
}

func TestDeepNesting(t *testing.T) {
	const deep = 50_000
	for name, data := range map[string]string{
		"flow":      "name: deep\nscript:\n  - load: {config: " + strings.Repeat("[", deep) + strings.Repeat("]", deep) + "}\n",
		"flow maps": "name: deep\nscript:\n  - load: {config: " + strings.Repeat("{a: ", deep) + "1" + strings.Repeat("}", deep) + "}\n",
		"compact":   "name: deep\nscript:\n  - load: {}\nx: " + strings.Repeat("- ", deep) + "1\n",
		"indented": func() string {
			var b strings.Builder
			b.WriteString("name: deep\nscript:\n  - load: {}\nx:\n")
			for i := 1; i < 1000; i++ {
				b.WriteString(strings.Repeat(" ", i) + "k:\n")
			}
			return b.String()
		}(),
	} {
		t.Run(name, func(t *testing.T) { refused(t, []byte(data), inputlimit.Trace, 0, inputlimit.FlagDepth) })
	}
}

func TestDepthBoundIsExact(t *testing.T) {
	nest := func(n int) []byte {
		return []byte("name: n\nscript:\n  - load: {config: {section: x, more: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "}}\n")
	}
	// The top mapping, script, its entry, load and config are five levels;
	// each bracket one more.
	lim := inputlimit.Trace
	lim.Depth = 20
	if _, err := ParseWithLimits("in.yaml", nest(15), lim); err != nil && strings.Contains(err.Error(), "nesting") {
		t.Fatalf("depth 20 refused: %v", err)
	}
	refused(t, nest(16), lim, 3, inputlimit.FlagDepth)
}

// millionActions is a trace of n one-line actions, about 23 bytes each.
func millionActions(n int) []byte {
	var b strings.Builder
	b.WriteString("name: many\nscript:\n")
	for i := 0; i < n; i++ {
		b.WriteString("  - idle: {agent: main}\n")
	}
	return []byte(b.String())
}

func TestMillionActions(t *testing.T) {
	data := millionActions(1_000_000)
	p := filepath.Join(t.TempDir(), "many.yaml")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	alloc := schemafiletest.Allocated(func() { _, err = ReadFile(p) })
	var te *Error
	if !errors.As(err, &te) || te.File != p || te.Line == 0 || !strings.Contains(te.Msg, inputlimit.FlagBytes) {
		t.Fatalf("got %v; want the byte bound with a line", err)
	}
	if alloc > 16<<20 {
		t.Fatalf("reading past the byte bound: allocated %d MB", alloc>>20)
	}
	// With the byte bound raised, the node estimate refuses it before parsing.
	lim := inputlimit.Trace
	lim.Bytes = int64(len(data))
	refused(t, data, lim, 0, inputlimit.FlagNodes)
}

func TestActionBoundIsExact(t *testing.T) {
	lim := inputlimit.Trace
	lim.Records = 50
	if _, err := ParseWithLimits("in.yaml", millionActions(50), lim); err != nil {
		t.Fatalf("50 actions with a bound of 50: %v", err)
	}
	refused(t, millionActions(51), lim, 53, inputlimit.FlagActions)
	// Through an alias too.
	data := append([]byte("a: &s\n"), millionActions(51)[len("name: many\nscript:\n"):]...)
	data = append([]byte("name: many\n"), append(data, "script: *s\n"...)...)
	refused(t, data, lim, 0, inputlimit.FlagActions)
}

func TestNodeBoundIsExact(t *testing.T) {
	lim := inputlimit.Trace
	lim.Nodes = 41
	// Aliases count as what they expand to: 4 nodes each.
	doc := func(aliases int) []byte {
		return []byte("name: n\nscript:\n  - load: {config: {x: &x [a, b, c], y: [" + strings.TrimSuffix(strings.Repeat("*x, ", aliases), ", ") + "]}}\n")
	}
	// The mappings (top, entry, load, config: 4), their keys (name, script,
	// load, config, x, y: 6), n, [a, b, c] (4), script's and y's sequences
	// (2) are 17 nodes.
	if _, err := ParseWithLimits("in.yaml", doc(6), lim); err != nil {
		t.Fatalf("41 nodes with a bound of 41: %v", err)
	}
	refused(t, doc(7), lim, 3, inputlimit.FlagNodes)
}

func TestInvalidUTF8(t *testing.T) {
	for _, tc := range []struct {
		data      string
		line, col int
	}{
		{"name: \"bad \xff name\"\nscript:\n  - load: {}\n", 1, 12},
		{"name: ok\nscript:\n  - prompt: {agent: main, text: \"\xc3(\"}\n", 3, 34},
	} {
		_, err := Parse("in.yaml", []byte(tc.data))
		var te *Error
		if !errors.As(err, &te) || te.Line != tc.line || te.Column != tc.col || !strings.Contains(te.Msg, "UTF-8") {
			t.Errorf("%q: got %v; want in.yaml:%d:%d invalid UTF-8", tc.data, err, tc.line, tc.col)
		}
	}
}

func TestByteBound(t *testing.T) {
	lim := inputlimit.Trace
	data := []byte("name: n\nscript:\n  - load: {}\n")
	lim.Bytes = int64(len(data))
	if _, err := ParseWithLimits("in.yaml", data, lim); err != nil {
		t.Fatalf("%d bytes with a bound of %[1]d: %v", len(data), err)
	}
	refused(t, append(data, '\n'), lim, 4, inputlimit.FlagBytes)
}

// TestScanIgnoresText: brackets, dashes and colons inside block scalars,
// quoted strings, plain scalars and comments are text, not nesting; the
// scan does not refuse a trace for them.
func TestScanIgnoresText(t *testing.T) {
	deep := strings.Repeat("[{", 100)
	data := "name: \"" + deep + "\"\n" +
		"description: |\n  " + deep + "\n    - - - - " + deep + "\n      key: " + deep + "\n" +
		"clauses: [STEP-6]  # " + deep + "\n" +
		"script:\n" +
		"  - load: {}\n" +
		"  - prompt: {agent: main, text: '" + deep + "'}  # - - - -\n" +
		"  - steer:\n      agent: main\n      text: a" + deep + "\n"
	lim := inputlimit.Trace
	lim.Depth = 8
	if _, err := ParseWithLimits("in.yaml", []byte(data), lim); err != nil {
		t.Fatalf("text taken for structure: %v", err)
	}
}

// TestControlCharacters: plugin traces share the runtime traces' check: a
// control character, raw or written as an escape, is refused where it is.
func TestControlCharacters(t *testing.T) {
	for _, tc := range []struct {
		data      string
		line, col int
	}{
		{"name: \"a\\x1bb\"\nscript:\n  - load: {}\n", 1, 7},
		{"name: ok\nscript:\n  - prompt: {agent: main, text: a\x07}\n", 3, 34},
	} {
		_, err := Parse("in.yaml", []byte(tc.data))
		var te *Error
		if !errors.As(err, &te) || te.Line != tc.line || te.Column != tc.col || !strings.Contains(te.Msg, "control character") {
			t.Errorf("%q: got %v; want in.yaml:%d:%d control character", tc.data, err, tc.line, tc.col)
		}
	}
}
