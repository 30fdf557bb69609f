// Package proctest holds what the tests that run plankit's programs share:
// building a main package of the module, running a program for its output
// and exit code, whether a process has ended, and
// comparing a timeline run through a program with the in-process one.
package proctest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// goBuild compiles the main package pkg into the file out, with env added
// to the environment of go build (e.g. CGO_ENABLED=0).
func goBuild(out, pkg string, env []string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Env = append(os.Environ(), env...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
	}
	return nil
}

// Builds builds each program the tests of one package drive once for the
// whole test binary, however many tests run it. The zero value is ready to
// use and safe for concurrent tests; TestMain calls Remove once the tests
// have run.
type Builds struct {
	mu    sync.Mutex
	dir   string
	progs map[string]built
}

type built struct {
	path string
	err  error
}

// Program returns the main package pkg (as go build names it, from the
// test's working directory) built with env added to the environment of go
// build, building it on the first call for that pkg and env. The program
// keeps the name of its package's directory ("." in cmd/plankit builds
// "plankit"). A failed build fails t, and every later call for it too,
// with the compiler's output.
func (b *Builds) Program(t testing.TB, pkg string, env ...string) string {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	key := strings.Join(append([]string{pkg}, env...), " ")
	p, ok := b.progs[key]
	if !ok {
		p.path, p.err = b.build(pkg, env)
		if b.progs == nil {
			b.progs = map[string]built{}
		}
		b.progs[key] = p
	}
	if p.err != nil {
		t.Fatal(p.err)
	}
	return p.path
}

func (b *Builds) build(pkg string, env []string) (string, error) {
	abs, err := filepath.Abs(pkg)
	if err != nil {
		return "", err
	}
	if b.dir == "" {
		if b.dir, err = os.MkdirTemp("", "plankit-test-programs"); err != nil {
			return "", err
		}
	}
	// One directory a build, so that programs of the same name built with
	// other environments do not clash.
	dir, err := os.MkdirTemp(b.dir, "")
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, filepath.Base(abs))
	if runtime.GOOS == "windows" {
		out += ".exe"
	}
	return out, goBuild(out, pkg, env)
}

// Remove deletes every program built.
func (b *Builds) Remove() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dir != "" {
		os.RemoveAll(b.dir)
	}
	b.dir, b.progs = "", nil
}
