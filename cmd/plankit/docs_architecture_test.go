package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/plankit/plankit/"

// TestArchitectureMapsTheImports holds the dependency table of
// docs/architecture.md to the imports of the code: every package with Go
// files is listed, with exactly the plankit packages it imports.
func TestArchitectureMapsTheImports(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	documented := dependencyTable(t, string(doc))
	actual := map[string][]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() && path != root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module (third_party/)
			}
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		imports := actual[pkg]
		for _, im := range f.Imports {
			if p, ok := strings.CutPrefix(strings.Trim(im.Path.Value, `"`), module); ok && !slices.Contains(imports, p) {
				imports = append(imports, p)
			}
		}
		actual[pkg] = imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg, imports := range actual {
		want, ok := documented[pkg]
		slices.Sort(imports)
		switch {
		case !ok:
			t.Errorf("docs/architecture.md: package %s is missing from the dependency table (imports %v)", pkg, imports)
		case !slices.Equal(want, imports):
			t.Errorf("docs/architecture.md: %s imports %v, the table says %v", pkg, imports, want)
		}
	}
	for pkg := range documented {
		if _, ok := actual[pkg]; !ok {
			t.Errorf("docs/architecture.md: the dependency table lists %s, which has no Go files", pkg)
		}
	}
}

// dependencyTable reads the code block after "Dependencies point one way":
// rows of "pkg[, pkg...]  import import ..." ("—" for none), an indented
// line continuing the row above.
func dependencyTable(t *testing.T, doc string) map[string][]string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "Dependencies point one way")
	if !ok {
		t.Fatal("docs/architecture.md: no dependency table")
	}
	_, rest, _ = strings.Cut(rest, "```\n")
	block, _, _ := strings.Cut(rest, "```")
	table := map[string][]string{}
	var row []string
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		if !strings.HasPrefix(line, " ") {
			pkgs, _, _ := strings.Cut(line, "  ")
			row = strings.Split(pkgs, ", ")
			line = strings.TrimPrefix(line, pkgs)
		}
		for _, p := range row {
			for _, im := range strings.Fields(line) {
				if im != "—" {
					table[p] = append(table[p], im)
				}
			}
			if table[p] == nil {
				table[p] = []string{}
			}
			slices.Sort(table[p])
		}
	}
	return table
}
