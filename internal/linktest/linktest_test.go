package linktest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/internal/linktest"
)

// A planted link leads to the victim, and a write through it is seen.
func TestPlantAndUntouched(t *testing.T) {
	link := filepath.Join(t.TempDir(), "report.json")
	v := linktest.Plant(t, link)
	if target, err := os.Readlink(link); err != nil || target != v.Path {
		t.Fatalf("link %s -> %q (%v), want %s", link, target, err, v.Path)
	}
	v.Untouched(t)
	if err := os.WriteFile(link, []byte("overwritten"), 0o644); err != nil {
		t.Fatal(err)
	}
	ft := &fakeT{TB: t}
	v.Untouched(ft)
	if !ft.failed {
		t.Error("Untouched passed after a write through the link")
	}
}

// fakeT records a failure instead of ending the test (Fatalf is the last
// thing Untouched does).
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Fatalf(string, ...any) { f.failed = true }
