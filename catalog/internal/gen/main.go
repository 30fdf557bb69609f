// Command gen writes the generated catalog files (catalog/clauses.md,
// clauses.json, events.md, events.json, service.md, service.json). It runs
// from `go generate ./catalog`, in the catalog directory.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/plankit/plankit/catalog"
	"github.com/plankit/plankit/internal/atomicfile"
)

func main() {
	if err := run(".."); err != nil {
		fmt.Fprintln(os.Stderr, "catalog gen:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	if err := catalog.Check(); err != nil {
		return err
	}
	files, err := catalog.Files(os.DirFS(root))
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := atomicfile.Write(filepath.Join(root, filepath.FromSlash(f.Path)), f.Content); err != nil {
			return err
		}
	}
	return nil
}
