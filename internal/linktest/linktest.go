// Package linktest plants symbolic links for the tests that check plankit
// never writes through one: a link at the path a run would write, pointing
// at a file whose content must survive the run.
package linktest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// content is what a victim holds until something writes through the link.
const content = "precious\n"

// Victim is the file a planted link points at.
type Victim struct{ Path string }

// Plant writes a victim file in a fresh directory of t's and makes link a
// symbolic link to it. Where symbolic links cannot be made (Windows
// without the privilege, a file system refusing them) it skips t: there
// is then nothing a link could be written through; any other failure
// fails t.
func Plant(t testing.TB, link string) Victim {
	t.Helper()
	v := Victim{filepath.Join(t.TempDir(), "victim")}
	if err := os.WriteFile(v.Path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(v.Path, link); err != nil {
		if runtime.GOOS == "windows" || errors.Is(err, fs.ErrPermission) {
			t.Skip("no symbolic links here:", err)
		}
		t.Fatal(err)
	}
	return v
}

// Untouched fails t unless the victim still holds what Plant wrote.
func (v Victim) Untouched(t testing.TB) {
	t.Helper()
	if b, err := os.ReadFile(v.Path); err != nil || string(b) != content {
		t.Fatalf("the link's target %s changed: %q %v", v.Path, b, err)
	}
}
