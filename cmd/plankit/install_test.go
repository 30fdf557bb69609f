package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"golang.org/x/mod/modfile"
	modmodule "golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// TestInstallFromAModuleProxy does what a user does with a release, from a
// module proxy serving this checkout (a file:// GOPROXY, the real proxy
// behind it for every other module): `go install
// github.com/plankit/plankit/cmd/plankit@VERSION`, whose program must run
// as the checkout's does, and `go test` in a separate module that runs
// conformance.Test against the reference (testdata/downstream.txtar). The
// go command refuses to install from a module whose go.mod has a replace
// directive, which is why the patched dependencies live inside the module
// (internal/third_party). The module cache is the user's (go env
// GOMODCACHE), so nothing else is downloaded again; what the test put
// there of plankit is removed at the end.
func TestInstallFromAModuleProxy(t *testing.T) {
	ds := downstreamModule(t)

	gobin := t.TempDir()
	install := exec.Command("go", "install", modulePath+"/cmd/plankit@"+ds.version)
	install.Dir = t.TempDir() // outside any module, as a user's shell
	install.Env = append(ds.env, "GOBIN="+gobin)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install %s/cmd/plankit@%s from the module proxy: %v\n%s", modulePath, ds.version, err, out)
	}
	installed := filepath.Join(gobin, "plankit")
	if runtime.GOOS == "windows" {
		installed += ".exe"
	}
	// The installed binary knows the version it was installed at.
	if code, out, stderr := runProgram(t, exec.Command(installed, "version")); code != ExitPass || !strings.HasPrefix(out, "plankit "+ds.version+"\n") {
		t.Errorf("the installed plankit version: exit %d, want its first line \"plankit %s\":\n%s%s", code, ds.version, out, stderr)
	}
	example := filepath.Join(ds.root, "examples", "pend-restart-loses-late-selection.yaml")
	_, want, _ := runProgram(t, exec.Command(plankitBin(t), "sim", example))
	code, got, stderr := runProgram(t, exec.Command(installed, "sim", example))
	if code != ExitPass || got != want {
		t.Errorf("the installed plankit's sim exits %d (want %d) with a timeline that differs from the checkout's: %t\n%s", code, ExitPass, got != want, stderr)
	}

	test := exec.Command("go", "test", "-count=1", ".")
	test.Dir, test.Env = ds.dir, ds.env
	out, err := test.CombinedOutput()
	if err != nil {
		t.Fatalf("go test in a module requiring %s@%s: %v\n%s", modulePath, ds.version, err, out)
	}
	if !strings.HasPrefix(string(out), "ok  \texample.com/downstream") {
		t.Errorf("go test in the downstream module said:\n%s", out)
	}
}

// downstream is a module proxy serving this checkout and a module that
// requires plankit from it, shared by the tests that need them.
type downstream struct {
	root    string   // this checkout
	version string   // the version the proxy serves
	dir     string   // the downstream module (testdata/downstream.txtar)
	env     []string // the go command's environment: the proxy first, the user's module cache
	testBin string   // the downstream module's test binary (go test -c)
}

var downstreamFixture struct {
	sync.Mutex
	made    bool
	ds      downstream
	err     error
	cleanup []func()
}

// downstreamModule makes the proxy and the downstream module on the first
// call and builds the module's test binary; removeDownstream (TestMain)
// removes them. It skips t, saying so, when the go command is not there.
func downstreamModule(t *testing.T) downstream {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("the go command is not on PATH, so nothing can be installed with it: %v", err)
	}
	f := &downstreamFixture
	f.Lock()
	defer f.Unlock()
	if !f.made {
		f.made = true
		f.ds, f.err = makeDownstream(&f.cleanup)
	}
	if f.err != nil {
		t.Fatal(f.err)
	}
	return f.ds
}

// removeDownstream deletes the proxy, the downstream module and what the
// go command extracted of plankit into the module cache.
func removeDownstream() {
	f := &downstreamFixture
	f.Lock()
	defer f.Unlock()
	for i := len(f.cleanup) - 1; i >= 0; i-- {
		f.cleanup[i]()
	}
	f.cleanup = nil
}

func makeDownstream(cleanup *[]func()) (downstream, error) {
	var ds downstream
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return ds, err
	}
	ds.root = root
	goenv, err := goEnv("GOPROXY", "GOMODCACHE", "GONOSUMDB")
	if err != nil {
		return ds, err
	}
	files, sum, err := moduleFiles(root)
	if err != nil {
		return ds, err
	}
	// The version names the content, so a module cache never holds another
	// tree under it; "h" keeps the prerelease identifier from being numeric.
	ds.version = "v0.0.0-proxytest.h" + sum[:16]
	tmp, err := os.MkdirTemp("", "plankit-proxy")
	if err != nil {
		return ds, err
	}
	*cleanup = append(*cleanup, func() { os.RemoveAll(tmp) })
	modcache := goenv["GOMODCACHE"]
	*cleanup = append(*cleanup, func() { forgetVersion(modcache, ds.version) })

	proxy := filepath.Join(tmp, "proxy")
	if err := writeProxy(proxy, root, ds.version, files); err != nil {
		return ds, err
	}
	nosumdb := modulePath
	if s := goenv["GONOSUMDB"]; s != "" {
		nosumdb = s + "," + modulePath
	}
	ds.env = append(os.Environ(),
		"GOPROXY=file://"+filepath.ToSlash(proxy)+","+goenv["GOPROXY"],
		"GONOSUMDB="+nosumdb,       // the proxy's plankit is in no checksum database
		"GOPRIVATE=", "GONOPROXY=", // plankit comes from the proxy, never from its repository
		"GOMODCACHE="+modcache,
		"GOFLAGS=-mod=mod", // the downstream module's go.sum gains plankit's line
		"GOWORK=off",
		"GOTOOLCHAIN=local",
	)

	ds.dir = filepath.Join(tmp, "downstream")
	if err := writeDownstream(ds.dir, root, ds.version); err != nil {
		return ds, err
	}
	ds.testBin = filepath.Join(tmp, "downstream.test")
	build := exec.Command("go", "test", "-c", "-o", ds.testBin, ".")
	build.Dir, build.Env = ds.dir, ds.env
	if out, err := build.CombinedOutput(); err != nil {
		return ds, fmt.Errorf("go test -c in a module requiring %s@%s: %v\n%s", modulePath, ds.version, err, out)
	}
	return ds, nil
}

// goEnv reads the go command's settings.
func goEnv(names ...string) (map[string]string, error) {
	out, err := exec.Command("go", append([]string{"env", "-json"}, names...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %v", err)
	}
	env := map[string]string{}
	if err := json.Unmarshal(out, &env); err != nil {
		return nil, fmt.Errorf("go env -json: %v", err)
	}
	if env["GOMODCACHE"] == "" {
		return nil, fmt.Errorf("go env: no GOMODCACHE")
	}
	return env, nil
}

// moduleFiles lists the files of the checkout that a release's module zip
// holds (what git tracks: the tree less what .gitignore names and the
// installed node_modules), and a digest of their paths and contents.
func moduleFiles(root string) ([]modzip.File, string, error) {
	var files []modzip.File
	h := sha256.New()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		name := d.Name()
		if d.IsDir() {
			switch {
			case rel == ".":
				return nil
			case name == ".git" || name == "node_modules" || name == "__pycache__" ||
				name == "plankit-counterexamples" || rel == "out":
				return filepath.SkipDir
			}
			return nil
		}
		if rel == "plankit" || strings.HasSuffix(name, ".test") || strings.HasSuffix(name, ".prof") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%s %d\n", rel, len(b))
			h.Write(b)
		}
		files = append(files, checkoutFile{rel, path, info})
		return nil
	})
	return files, hex.EncodeToString(h.Sum(nil)), err
}

// checkoutFile is a file of the checkout as golang.org/x/mod/zip reads it.
type checkoutFile struct {
	rel, path string
	info      fs.FileInfo
}

func (f checkoutFile) Path() string                 { return f.rel }
func (f checkoutFile) Lstat() (fs.FileInfo, error)  { return f.info, nil }
func (f checkoutFile) Open() (io.ReadCloser, error) { return os.Open(f.path) }

// writeProxy lays out a GOPROXY directory serving plankit at version:
// MODULE/@v/list, VERSION.info, VERSION.mod and VERSION.zip.
func writeProxy(proxy, root, version string, files []modzip.File) error {
	esc, err := modmodule.EscapePath(modulePath)
	if err != nil {
		return err
	}
	dir := filepath.Join(proxy, filepath.FromSlash(esc), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var zip bytes.Buffer
	if err := modzip.Create(&zip, modmodule.Version{Path: modulePath, Version: version}, files); err != nil {
		return fmt.Errorf("module zip of the checkout: %v", err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
	}
	info := fmt.Sprintf(`{"Version":%q,"Time":"2026-01-01T00:00:00Z"}`, version)
	for name, data := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": []byte(info),
		version + ".mod":  gomod,
		version + ".zip":  zip.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeDownstream writes the module of testdata/downstream.txtar into dir,
// requiring plankit at version, with plankit's go.sum as its own (the
// checksums of plankit's dependencies; the go command adds plankit's).
func writeDownstream(dir, root, version string) error {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "downstream.txtar"))
	if err != nil {
		return err
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
	}
	mf, err := modfile.ParseLax("go.mod", gomod, nil)
	if err != nil || mf.Go == nil {
		return fmt.Errorf("go.mod: no go line (%v)", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range ar.Files {
		data := strings.NewReplacer("PLANKIT_VERSION", version, "GO_VERSION", mf.Go.Version).Replace(string(f.Data))
		if err := os.WriteFile(filepath.Join(dir, f.Name), []byte(data), 0o644); err != nil {
			return err
		}
	}
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "go.sum"), gosum, 0o644)
}

// forgetVersion removes what the go command put in the module cache for
// plankit at version: the extracted tree (read-only, as the go command
// leaves it) and the downloaded files. Other versions, and every other
// module, stay.
func forgetVersion(modcache, version string) {
	esc, err := modmodule.EscapePath(modulePath)
	if err != nil {
		return
	}
	extracted := filepath.Join(modcache, filepath.FromSlash(esc)+"@"+version)
	filepath.WalkDir(extracted, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o755)
		}
		return nil
	})
	os.RemoveAll(extracted)
	downloads, _ := filepath.Glob(filepath.Join(modcache, "cache", "download", filepath.FromSlash(esc), "@v", version+".*"))
	for _, f := range downloads {
		os.Remove(f)
	}
}
