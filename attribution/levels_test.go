package attribution

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// TestObservationKindsSayTheirLevel: every Rt… kind of table.go is a
// runtime one and every Obs… kind a plugin one, as IsRuntime reads them.
func TestObservationKindsSayTheirLevel(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "table.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, name := range vs.Names {
				rt, obs := strings.HasPrefix(name.Name, "Rt"), strings.HasPrefix(name.Name, "Obs")
				if !rt && !obs || i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					continue
				}
				v, _ := strconv.Unquote(lit.Value)
				n++
				if IsRuntime(v) != rt {
					t.Errorf("%s = %q: IsRuntime says %t", name.Name, v, IsRuntime(v))
				}
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d observation kinds found in table.go", n)
	}
	if len(AtLevel(false)) == 0 || len(AtLevel(true)) == 0 {
		t.Fatal("a level's rows name no clause")
	}
}
