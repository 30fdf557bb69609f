package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// TestMutantsAreKilledAtRuntimeLevel runs the runtime-level scenarios
// against the built-in runtime around every reference mutant and with
// every mutant of its own loop; every mutant must be killed unless its
// evidence says why a runtime cannot show it (Evidence.RuntimeHidden, in
// reference/mutants.go). With -update it writes the runtime column of the
// kill matrix, docs/mutants-runtime.md, and the count
// docs/checking-your-runtime.md quotes (one figure, generated here).
func TestMutantsAreKilledAtRuntimeLevel(t *testing.T) {
	page, figure, problems, err := runtimeMatrix(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	root := filepath.Join("..", "..")
	guide, err := os.ReadFile(filepath.Join(root, runtimeMatrixGuide))
	if err != nil {
		t.Fatal(err)
	}
	fresh, ok := withKillCount(guide, figure)
	if !ok {
		t.Fatalf("%s has no <!-- kill-count --> sentence to quote the figure in", runtimeMatrixGuide)
	}
	if update := flag.Lookup("update"); update != nil && update.Value.String() == "true" {
		for path, data := range map[string][]byte{runtimeMatrixPath: page, runtimeMatrixGuide: fresh} {
			if err := os.WriteFile(filepath.Join(root, path), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if got, err := os.ReadFile(filepath.Join(root, runtimeMatrixPath)); err != nil || !bytes.Equal(got, page) {
		t.Errorf("%s is stale; run %s", runtimeMatrixPath, runtimeMatrixCmd)
	}
	if !bytes.Equal(fresh, guide) {
		t.Errorf("%s quotes another kill count than %q; run %s", runtimeMatrixGuide, figure, runtimeMatrixCmd)
	}
}
