package generated

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Stale notices an edited, a missing and an orphaned file; Write repairs
// all three.
func TestStaleAndWrite(t *testing.T) {
	root := t.TempDir()
	set := Set{
		Files: []File{{"docs/cli/a.md", []byte("a\nb\n")}, {"docs/b.md", []byte("b\n")}},
		Owned: []string{"docs/cli/*.md"},
	}
	if n, err := set.Write(root); err != nil || n != 2 {
		t.Fatalf("Write: %d, %v; want 2 files written", n, err)
	}
	if stale, err := set.Stale(root); err != nil || len(stale) != 0 {
		t.Fatalf("fresh files reported stale: %v %v", stale, err)
	}
	if n, err := set.Write(root); err != nil || n != 0 {
		t.Fatalf("second Write: %d, %v; want nothing rewritten", n, err)
	}
	os.WriteFile(filepath.Join(root, "docs/cli/a.md"), []byte("a\nedited\n"), 0o644)
	os.Remove(filepath.Join(root, "docs/b.md"))
	os.WriteFile(filepath.Join(root, "docs/cli/gone.md"), []byte("old\n"), 0o644)
	stale, err := set.Stale(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"docs/cli/a.md:2: stale", "docs/b.md: missing", "docs/cli/gone.md: nothing generates it"}
	if !slices.Equal(stale, want) {
		t.Errorf("stale:\n%s\nwant:\n%s", strings.Join(stale, "\n"), strings.Join(want, "\n"))
	}
	if n, err := set.Write(root); err != nil || n != 3 {
		t.Fatalf("repairing Write: %d, %v; want 3", n, err)
	}
	if stale, err := set.Stale(root); err != nil || len(stale) != 0 {
		t.Fatalf("repaired files still stale: %v %v", stale, err)
	}
}

func TestFirstDiff(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"x\n", "x\n", 0}, {"x\ny\n", "x\nz\n", 2}, {"x\n", "x\ny\n", 2}, {"", "a", 1}} {
		if got := FirstDiff([]byte(c.a), []byte(c.b)); got != c.want {
			t.Errorf("FirstDiff(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
