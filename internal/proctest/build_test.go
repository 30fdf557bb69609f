package proctest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/internal/proctest"
)

// A program is built once for any number of calls with the same package and
// environment, keeps its package's name, and is gone after Remove.
func TestBuildsProgramOnce(t *testing.T) {
	var b proctest.Builds
	defer b.Remove()
	const pkg = "../../adapter/testdata/fakeadapter"
	first := b.Program(t, pkg)
	if again := b.Program(t, pkg); again != first {
		t.Errorf("second call built %s again, the first gave %s", again, first)
	}
	if name := filepath.Base(first); name != "fakeadapter" && name != "fakeadapter.exe" {
		t.Errorf("built as %s, want the package's name", name)
	}
	other := b.Program(t, pkg, "CGO_ENABLED=0")
	if other == first {
		t.Errorf("another environment gave the same program %s", first)
	}
	for _, p := range []string{first, other} {
		if _, err := os.Stat(p); err != nil {
			t.Fatal(err)
		}
	}
	b.Remove()
	if _, err := os.Stat(first); !os.IsNotExist(err) {
		t.Errorf("%s is left after Remove: %v", first, err)
	}
}
