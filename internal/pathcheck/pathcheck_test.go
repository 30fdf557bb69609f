package pathcheck

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/atomicfile"
)

func TestPaths(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "m.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.xml")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	ok := []error{
		OutputFile("--junit", filepath.Join(dir, "new.xml")),
		OutputFile("--junit", file),
		InputFile("--expect", file),
		Dir("--adapter-dir", dir),
		OutputDir("--out", dir),
		OutputDir("--out", filepath.Join(dir, "a", "b")),
	}
	for i, err := range ok {
		if err != nil {
			t.Errorf("ok case %d: %v", i, err)
		}
	}
	bad := []struct {
		err  error
		want string
	}{
		{OutputFile("--junit", filepath.Join(dir, "missing", "r.xml")), "--junit " + dir + "/missing/r.xml: directory"},
		{OutputFile("--json", link), "--json " + link + ": is a symbolic link"},
		{OutputFile("--json", dir), "not a regular file"},
		{InputFile("--expect", filepath.Join(dir, "none.txt")), "--expect " + dir + "/none.txt: no such file"},
		{InputFile("--expect", dir), "not a regular file"},
		{Dir("--adapter-dir", "/nonexistent/plankit"), "--adapter-dir /nonexistent/plankit: no such directory"},
		{Dir("--adapter-dir", file), "not a directory"},
		{OutputDir("--out", filepath.Join(file, "sub")), "not a directory"},
	}
	for i, b := range bad {
		if b.err == nil || !strings.Contains(b.err.Error(), b.want) {
			t.Errorf("bad case %d: got %v, want %q", i, b.err, b.want)
		}
	}
	if err := OutputFile("--json", link); !errors.Is(err, atomicfile.ErrSymlink) {
		t.Errorf("a link is not reported as one: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), "probe") {
			t.Errorf("probe left behind: %s", e.Name())
		}
	}
}
