package attribution

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// clauseID is a string literal that is a clause ID. Prose that cites a
// clause (a help text, an error message, a property's name) is not a
// clause literal: it names no clause a check or a failure is listed under.
var clauseID = regexp.MustCompile("^[\"`](LOG|PEND|STEP|CFG|EXIT|CMD|SVC)-[0-9]+[\"`]$")

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
			if (tok == token.STRING || tok == token.CHAR) && clauseID.MatchString(lit) {
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
