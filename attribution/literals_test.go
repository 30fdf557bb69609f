package attribution

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plankit/plankit/spec"
)

// isClauseLiteral reports whether a string literal is a clause ID (shaped
// as spec.ClausePattern says, of a group of SPEC.md). Prose that cites a
// clause (a help text, an error message, a property's name) is not a
// clause literal: it names no clause a check or a failure is listed under.
func isClauseLiteral(lit string) bool {
	v, err := strconv.Unquote(lit)
	group, _, _ := strings.Cut(v, "-")
	return err == nil && spec.ClausePattern.MatchString(v) && slices.ContainsFunc(spec.Groups, func(g spec.Group) bool { return g.ID == group })
}

// TestNoClauseLiteralOutsideSpecAndTable holds the one attribution: no
// non-test Go file of the module has a clause ID as a string literal,
// except package spec (the clauses, their constants, the choices they are
// refined by) and this package's tables. Every other package tags a check
// with spec's constants and names a failure through Table or Checks, so a
// clause a failure is listed under is decided in one place.
func TestNoClauseLiteralOutsideSpecAndTable(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	allowed := func(rel string) bool {
		return strings.HasPrefix(rel, "spec/") || strings.HasPrefix(rel, "attribution/")
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch d.Name() {
			case "third_party", "node_modules", "testdata", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || allowed(rel) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		fset := token.NewFileSet()
		file := fset.AddFile(rel, -1, len(src))
		var s scanner.Scanner
		s.Init(file, src, nil, 0)
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if (tok == token.STRING || tok == token.CHAR) && isClauseLiteral(lit) {
				t.Errorf("%s: the string literal %s is a clause ID: tag with spec's constants, attribute through attribution.Table or attribution.Checks", fset.Position(pos), lit)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d Go files checked: the walk did not reach the module", checked)
	}
}

// isClauseConst reports whether an identifier is one of package spec's
// clause constants (LOG1, STEP7, ...: a clause ID without its dash).
func isClauseConst(name string) bool {
	return slices.ContainsFunc(spec.ClauseIDs(), func(id string) bool { return strings.ReplaceAll(id, "-", "") == name })
}

// TestLockstepNamesClausesOnlyThroughTheTable holds the one attribution for
// both lockstep levels: no function of package lockstep names a clause with
// spec's constants (spec.STEP7), so every divergence, plugin or runtime
// level, takes its clauses from rows of Table picked by ID. Declarations
// (a runtime variant's clause, like a mutant's) are tags, not attributions.
// Every row of the table, at both levels, is picked somewhere: by ID in
// package lockstep or in this package's pickers (CommandRow, ForCommand),
// or, for a row that is its observation's only one, by a scenario step or
// a runtime-level expectation that compares that observation (ForScenario
// then names that row's clauses).
func TestLockstepNamesClausesOnlyThroughTheTable(t *testing.T) {
	lockstepFiles, err := filepath.Glob("../lockstep/*.go")
	if err != nil {
		t.Fatal(err)
	}
	own, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	// picked are the names package lockstep selects from attribution,
	// anywhere in its files, and the row IDs this package's pickers name
	// outside the table itself.
	picked := map[string]bool{}
	fset := token.NewFileSet()
	checked := 0
	for _, path := range append(lockstepFiles, own...) {
		if strings.HasSuffix(path, "_test.go") || path == "table.go" {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		inLockstep := strings.HasPrefix(path, "../lockstep/")
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == "attribution" {
					picked[n.Sel.Name] = true
				}
			case *ast.Ident:
				if !inLockstep && strings.HasPrefix(n.Name, "Row") {
					picked[n.Name] = true
				}
			}
			return true
		})
		if !inLockstep {
			continue
		}
		checked++
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "spec" && isClauseConst(sel.Sel.Name) {
					t.Errorf("%s: %s names spec.%s: pick a row of attribution.Table by ID", fset.Position(sel.Pos()), fn.Name.Name, sel.Sel.Name)
				}
				return true
			})
		}
	}
	if checked < 5 {
		t.Fatalf("only %d files of package lockstep checked", checked)
	}
	compared := scenarioKinds(t)
	consts, err := parser.ParseFile(token.NewFileSet(), "table.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, decl := range consts.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, vs := range g.Specs {
			v := vs.(*ast.ValueSpec)
			for i, name := range v.Names {
				if !strings.HasPrefix(name.Name, "Row") || i >= len(v.Values) {
					continue
				}
				n++
				id, _ := strconv.Unquote(v.Values[i].(*ast.BasicLit).Value)
				rule := Table[slices.IndexFunc(Table, func(r Rule) bool { return r.ID == id })]
				only := slices.IndexFunc(Table, func(r Rule) bool { return r.Observation == rule.Observation && r.ID != id }) < 0
				if !picked[name.Name] && !(only && compared[rule.Observation]) {
					t.Errorf("row %s is never picked: by ID in package lockstep or attribution's pickers, nor as its observation's only row by a check that compares it", name.Name)
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d rows found in table.go", n)
	}
}

// scenarioKinds are the observation kinds a scenario step (features) or a
// runtime-level expectation (loop) compares: the kinds named as
// attribution.ObsX or attribution.RtX in their non-test files.
func scenarioKinds(t *testing.T) map[string]bool {
	t.Helper()
	kinds := map[string]string{}
	f, err := parser.ParseFile(token.NewFileSet(), "table.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, decl := range f.Decls {
		if g, ok := decl.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, vs := range g.Specs {
				v := vs.(*ast.ValueSpec)
				for i, name := range v.Names {
					if lit, ok := valueAt(v, i).(*ast.BasicLit); ok && (strings.HasPrefix(name.Name, "Obs") || strings.HasPrefix(name.Name, "Rt")) {
						kinds[name.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
		}
	}
	out := map[string]bool{}
	for _, dir := range []string{"../features", "../loop"} {
		files, err := filepath.Glob(dir + "/*.go")
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "attribution" && kinds[sel.Sel.Name] != "" {
						out[kinds[sel.Sel.Name]] = true
					}
				}
				return true
			})
		}
	}
	return out
}

func valueAt(v *ast.ValueSpec, i int) ast.Expr {
	if i < len(v.Values) {
		return v.Values[i]
	}
	return nil
}
