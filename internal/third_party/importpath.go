//go:build ignore

// importpath rewrites the import paths of a copied module so that its
// packages live inside plankit's module: every import of OLD or of a
// package under OLD/ in the .go files under DIR becomes NEW (NEW/...).
// Only import declarations change (parsed with go/parser, rewritten in
// place); a string that merely spells the path, such as the template godog's
// builder writes, keeps upstream's text.
//
//	go run importpath.go DIR OLD NEW
//
// sync.sh runs it after copying an upstream release, before the patch.
package main

import (
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: go run importpath.go DIR OLD NEW")
		os.Exit(2)
	}
	dir, from, to := os.Args[1], os.Args[2], os.Args[3]
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		return rewrite(path, from, to)
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "importpath:", err)
		os.Exit(1)
	}
}

// rewrite replaces the import paths under from in one file, back to front
// so the earlier offsets stay valid, then formats it (a longer path can
// move the alignment of a comment after it).
func rewrite(path, from, to string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return err
	}
	out := src
	changed := false
	for i := len(f.Imports) - 1; i >= 0; i-- {
		lit := f.Imports[i].Path
		p, err := strconv.Unquote(lit.Value)
		if err != nil {
			return fmt.Errorf("%s: %v", fset.Position(lit.Pos()), err)
		}
		rest, ok := strings.CutPrefix(p, from)
		if !ok || (rest != "" && !strings.HasPrefix(rest, "/")) {
			continue
		}
		start := fset.Position(lit.Pos()).Offset
		end := start + len(lit.Value)
		out = append(append(append([]byte{}, out[:start]...), strconv.Quote(to+rest)...), out[end:]...)
		changed = true
	}
	if !changed {
		return nil
	}
	formatted, err := format.Source(out)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return os.WriteFile(path, formatted, 0o644)
}
