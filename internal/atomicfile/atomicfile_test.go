package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/internal/linktest"
)

func TestWriteCreatesAndReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	for _, content := range []string{"first\n", "second\n"} {
		if err := Write(p, []byte(content)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != content {
			t.Fatalf("read back %q, %v; want %q", got, err, content)
		}
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != Mode {
		t.Fatalf("mode %v, %v; want %v", fi.Mode().Perm(), err, Mode)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func TestWriteRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "report.xml")
	victim := linktest.Plant(t, link)
	err := Write(link, []byte("overwritten"))
	if !errors.Is(err, ErrSymlink) {
		t.Fatalf("Write through a link: err %v, want ErrSymlink", err)
	}
	victim.Untouched(t)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link itself was replaced: %v %v", fi, err)
	}
	// A dangling link is refused too: writing would create its target.
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	if err := Write(dangling, []byte("x")); !errors.Is(err, ErrSymlink) {
		t.Fatalf("dangling link: err %v, want ErrSymlink", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the dangling link's target was created")
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	if err := Check(filepath.Join(dir, "new.json")); err != nil {
		t.Fatalf("a new file in an existing directory: %v", err)
	}
	if err := Check(filepath.Join(dir, "missing", "new.json")); err == nil {
		t.Fatal("a missing directory passed")
	}
	if err := Check(dir); err == nil {
		t.Fatal("a directory as the target passed")
	}
	if err := CheckWritable(filepath.Join(dir, "new.json")); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		if err := CheckWritable(filepath.Join(ro, "x.json")); err == nil {
			t.Fatal("a read-only directory passed")
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "ro" {
			t.Fatalf("probe left behind: %s", e.Name())
		}
	}
}

// TestWriteFollowsADirectoryLink: a symbolic link to a directory on the
// way to the target is followed, as docs/reliability.md says (only the
// target itself is guarded): the file lands in the linked directory.
func TestWriteFollowsADirectoryLink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := Write(filepath.Join(link, "out.txt"), []byte("x")); err != nil {
		t.Fatalf("writing under a directory link: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(real, "out.txt")); err != nil || string(b) != "x" {
		t.Fatalf("the file is not in the linked directory: %q %v", b, err)
	}
}
