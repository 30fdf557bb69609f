// Command gen writes the generated catalog files (catalog/clauses.md,
// clauses.json, events.md, events.json, service.md, service.json). It runs
// from `go generate ./catalog`, in the catalog directory.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/plankit/plankit/catalog"
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
		if err := writeAtomic(filepath.Join(root, filepath.FromSlash(f.Path)), f.Content); err != nil {
			return err
		}
	}
	return nil
}

// writeAtomic writes through a temporary file and a rename, so a failed
// run never leaves a half-written catalog.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".gen-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
