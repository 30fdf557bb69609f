package examples

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Every example has its text timeline, the pictures of Pictures exist in
// both picture formats, and two renderings are byte for byte the same.
func TestGoldens(t *testing.T) {
	a, err := Goldens("..")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Goldens("..")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i := range a {
		if a[i].Path != b[i].Path || !bytes.Equal(a[i].Content, b[i].Content) {
			t.Errorf("%s differs between two renderings", a[i].Path)
		}
		paths = append(paths, a[i].Path)
	}
	traces, _ := filepath.Glob("*.yaml")
	if len(traces) == 0 {
		t.Fatal("no example traces")
	}
	for _, tr := range traces {
		if want := Dir + "/" + strings.TrimSuffix(tr, ".yaml") + ".txt"; !slices.Contains(paths, want) {
			t.Errorf("no timeline %s", want)
		}
	}
	for _, p := range Pictures {
		for _, ext := range []string{".mmd.golden", ".html.golden"} {
			if want := Dir + "/" + p.Base() + ext; !slices.Contains(paths, want) {
				t.Errorf("no picture %s", want)
			}
		}
	}
	if got := (Picture{Trace: "x.yaml", Mutant: "narrate-twice"}).Base(); got != "x.narrate-twice" {
		t.Errorf("Base = %q", got)
	}
}
