package loop

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plankit/plankit/catalog"
	"github.com/plankit/plankit/reference"
)

// checkSources are the files whose code judges what a runtime logged: the
// lint rules (run on every observed log) and this package's invariants,
// expectations and session. Left out: the built-in runtime (builtin.go),
// which writes and reads its own log as a runtime does, and the event
// reference itself.
func checkSources(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{"../lint/*.go", "*.go"} {
		matches, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range matches {
			switch base := filepath.Base(f); {
			case strings.HasSuffix(base, "_test.go"), base == "builtin.go", base == "events.go", base == "eventref.go":
			default:
				files = append(files, f)
			}
		}
	}
	if len(files) < 5 {
		t.Fatalf("only %v: the checks' sources moved", files)
	}
	return files
}

// specTypes maps the names of spec's event type constants to their values,
// read from spec/names.go.
func specTypes(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../spec/names.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		for i, name := range vs.Names {
			if strings.HasPrefix(name.Name, "Type") && i < len(vs.Values) {
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					types[name.Name], _ = strconv.Unquote(lit.Value)
				}
			}
		}
		return true
	})
	return types
}

// The event reference's table says which event types the checks read: an
// event type the checks' source names (spec.TypeX) is read (For set), and
// one it never names is not; a type a runtime must log is one the checks
// read. The table lists the event catalog's types, in its order.
func TestEventUsesAreWhatTheChecksRead(t *testing.T) {
	types := specTypes(t)
	read := map[string][]string{}
	for _, file := range checkSources(t) {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "spec" {
				if v, ok := types[sel.Sel.Name]; ok && !slices.Contains(read[v], file) {
					read[v] = append(read[v], file)
				}
			}
			return true
		})
	}
	if len(read) == 0 {
		t.Fatal("the checks read no event type: the parse is wrong")
	}
	var inCatalog []string
	for _, e := range catalog.Events {
		inCatalog = append(inCatalog, e.Type)
	}
	var listed []string
	for _, u := range EventUses {
		listed = append(listed, u.Type)
		files, named := read[u.Type]
		switch {
		case named && u.For == "":
			t.Errorf("%s: %v read it, but EventUses says the checks do not", u.Type, files)
		case !named && u.For != "":
			t.Errorf("%s: EventUses says the checks read it (%q), but no check names it", u.Type, u.For)
		case !slices.Contains([]string{Must, MustWhen, May}, u.Need):
			t.Errorf("%s: need %q", u.Type, u.Need)
		case u.Need != May && u.For == "":
			t.Errorf("%s: a runtime must log it, but the checks do not read it", u.Type)
		case (u.Need == MustWhen) != (u.When != ""):
			t.Errorf("%s: need %q with when %q", u.Type, u.Need, u.When)
		}
	}
	if !slices.Equal(listed, inCatalog) {
		t.Errorf("EventUses lists %v, the event catalog %v", listed, inCatalog)
	}
}

// The reference's runs conform, show every event a runtime must log, and
// put each request right after its header.
func TestEventReferenceShowsTheEvents(t *testing.T) {
	page, err := EventReference(reference.Factory(reference.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range EventUses {
		if u.Need != May && !strings.Contains(string(page), " "+u.Type+" {") {
			t.Errorf("no run shows %s, which a runtime must log", u.Type)
		}
	}
	lines := strings.Split(string(page), "\n")
	sent := 0
	for i, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "=> request at ") {
			continue
		}
		sent++
		header := strings.Fields(lines[i-1])
		at := strings.Fields(strings.SplitN(l, "=> request at ", 2)[1])[0]
		at = strings.TrimSuffix(at, ":")
		if len(header) < 2 || header[1] != "request/header" {
			t.Errorf("line %q: the request does not follow its header", l)
			continue
		}
		seq, _ := strconv.Atoi(header[0])
		if n, _ := strconv.Atoi(at); n != seq+1 {
			t.Errorf("request at %s after the header at seq %d", at, seq)
		}
	}
	if sent < 4 {
		t.Errorf("%d requests shown", sent)
	}
}
