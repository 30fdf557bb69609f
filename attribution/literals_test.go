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
// Every row of the table is picked somewhere.
func TestLockstepNamesClausesOnlyThroughTheTable(t *testing.T) {
	files, err := filepath.Glob("../lockstep/*.go")
	if err != nil {
		t.Fatal(err)
	}
	// picked are the names package lockstep selects from attribution,
	// anywhere in its files.
	picked := map[string]bool{}
	fset := token.NewFileSet()
	checked := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "attribution" {
					picked[sel.Sel.Name] = true
				}
			}
			return true
		})
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
	consts, err := parser.ParseFile(token.NewFileSet(), "table.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, decl := range consts.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, vs := range g.Specs {
			for _, name := range vs.(*ast.ValueSpec).Names {
				if strings.HasPrefix(name.Name, "RowRt") && !picked[name.Name] {
					t.Errorf("row %s is never picked by package lockstep", name.Name)
				}
			}
		}
	}
}
