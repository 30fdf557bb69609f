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

// thirdParty holds the patched copies of dependencies, one row each.
const thirdParty = "internal/third_party/"

// TestArchitectureMapsTheImports holds the dependency table of
// docs/architecture.md to the imports of the code: every package with Go
// files is listed, with exactly the plankit packages it imports. A patched
// copy of a dependency under internal/third_party/ is one row, its
// packages upstream's business: an import of any of them is an import of
// the copy, and the sync tool beside them (a `go run` program) is not a
// package.
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
		if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if rest, ok := strings.CutPrefix(pkg+"/", thirdParty); ok {
			if rest == "" {
				return nil // importpath.go, run by sync.sh
			}
			name, _, _ := strings.Cut(rest, "/")
			pkg = thirdParty + name
		}
		imports := actual[pkg]
		for _, im := range f.Imports {
			p, ok := strings.CutPrefix(strings.Trim(im.Path.Value, `"`), module)
			if rest, copied := strings.CutPrefix(p, thirdParty); ok && copied {
				name, _, _ := strings.Cut(rest, "/")
				p = thirdParty + name // a copy's package is the copy's row
			}
			if ok && p != pkg && !slices.Contains(imports, p) {
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
	// The conformance library (imported by a Go implementer's tests) and
	// the runtime trace reader need the protocols' schemas, never the
	// process driver, whose init recognises the guard's re-executed mode.
	for _, pkg := range []string{"conformance", "rtrace"} {
		if reaches(actual, pkg, "adapter") {
			t.Errorf("%s links the adapter process driver (package adapter); it needs only adapter/schema", pkg)
		}
	}
}

// reaches reports whether from imports to, directly or through others.
func reaches(imports map[string][]string, from, to string) bool {
	seen := map[string]bool{}
	var walk func(p string) bool
	walk = func(p string) bool {
		if p == to {
			return true
		}
		if seen[p] {
			return false
		}
		seen[p] = true
		return slices.ContainsFunc(imports[p], walk)
	}
	return walk(from)
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
