package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/conformance"
	"github.com/plankit/plankit/internal/linktest"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
)

// TestBadPathsFailFast: every path a run is given is checked before
// anything runs; each is a usage error that names the flag.
func TestBadPathsFailFast(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link.json")
	victim := linktest.Plant(t, link)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--junit", filepath.Join(dir, "missing", "r.xml")}, "--junit"},
		{[]string{"check", "--cucumber", dir}, "--cucumber"},
		{[]string{"check", "--json", link}, "symbolic link"},
		{[]string{"check", "--expect", dir}, "--expect"},
		{[]string{"check", "--expect", link, "--fix"}, "--expect " + link + ": is a symbolic link"},
		{[]string{"check", "--expect", filepath.Join(dir, "nope.txt")}, "--expect"},
		{[]string{"check", "--counterexamples", victim.Path}, "--counterexamples"},
		{[]string{"check", "--adapter", "plankit serve", "--adapter-dir", filepath.Join(dir, "nonexistent")}, "--adapter-dir " + filepath.Join(dir, "nonexistent") + ": no such directory"},
		{[]string{"sim", "--adapter", "plankit serve", "--adapter-dir", victim.Path, "../../examples/pend-cancel-before-boundary.yaml"}, "--adapter-dir " + victim.Path + ": not a directory"},
		{[]string{"explore", "--out", filepath.Join(victim.Path, "sub")}, "--out"},
		{[]string{"sim", "--start-timeout", "0s", "--adapter", "plankit serve", "x.yaml"}, "--start-timeout"},
	} {
		code, out, errs := run(t, tc.args...)
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming %q", tc.args, code, errs, tc.want)
		}
		if strings.Contains(out, "plankit check:") || strings.Contains(out, "explored") {
			t.Errorf("%v: the run started before the paths were checked:\n%s", tc.args, out)
		}
	}
	victim.Untouched(t)
}

// TestSymlinkedCounterexampleRefused: a link planted at a counterexample's
// name makes check and explore exit 2 and leaves the link's target as it
// was.
func TestSymlinkedCounterexampleRefused(t *testing.T) {
	t.Run("explore", func(t *testing.T) {
		dir := t.TempDir()
		victim := linktest.Plant(t, filepath.Join(dir, "explore-depth4-seed0-case0.yaml"))
		code, out, errs := run(t, "explore", "--depth", "4", "--mutant", "append-on-abort", "--out", dir)
		if code != ExitUsage || !strings.Contains(errs, "symbolic link") {
			t.Fatalf("exit %d, stderr %q; want exit 2 naming the link\n%s", code, errs, out)
		}
		victim.Untouched(t)
	})
	t.Run("check", func(t *testing.T) {
		args := []string{"check", "--only", "properties", "--checks", "20", "--mutant", "append-on-reject"}
		first := t.TempDir()
		if code, out, errs := run(t, append(args, "--counterexamples", first)...); code != ExitFail {
			t.Fatalf("the mutant did not fail: exit %d\n%s\n%s", code, out, errs)
		}
		names, _ := filepath.Glob(filepath.Join(first, "*.yaml"))
		if len(names) == 0 {
			t.Fatal("no counterexample written")
		}
		dir := t.TempDir()
		victim := linktest.Plant(t, filepath.Join(dir, filepath.Base(names[0])))
		code, out, errs := run(t, append(args, "--counterexamples", dir)...)
		if code != ExitUsage || !strings.Contains(errs+out, "symbolic link") {
			t.Fatalf("exit %d; want exit 2 naming the link\n%s\n%s", code, out, errs)
		}
		victim.Untouched(t)
	})
}

// TestInputBoundsAtTheCLI: inputs past a bound are exit 2 naming the file,
// the line and the flag; the flag raises the bound.
func TestInputBoundsAtTheCLI(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bomb := write("bomb.yaml", "name: bomb\nscript:\n  - load: {config: {a: &a [x, x, x, x, x, x, x, x, x], b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a], c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b], d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c], e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d], f: [*e, *e, *e, *e, *e, *e, *e, *e, *e]}}\n")
	utf := write("utf.yaml", "name: \"caf\xe9\"\nscript:\n  - load: {}\n")
	small := write("small.yaml", "name: small\nscript:\n  - load: {}\n  - set: {agent: main, active: true}\n")
	log := write("log.jsonl", `{"type":"session","id":"s"}`+"\n"+`{"type":"turn/start","data":{"turn":1}}`+"\n"+`{"type":"turn/end","data":{"turn":1}}`+"\n")
	manifest := write("m.txt", "id:a -- one\nid:b -- two\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", bomb}, bomb + ":3:"},
		{[]string{"sim", bomb}, "--max-input-nodes"},
		{[]string{"sim", utf}, utf + ":1:11: invalid UTF-8"},
		{[]string{"sim", "--max-input-actions", "1", small}, small + ":4:5: script: more than 1 actions"},
		{[]string{"sim", "--max-input-bytes", "20", small}, small + ":3: more than 20 bytes"},
		{[]string{"sim", "--max-input-depth", "0", small}, "--max-input-depth 0: want at least 1"},
		{[]string{"lint", "--max-input-events", "1", log}, "more than 1 events"},
		{[]string{"check", "--max-input-entries", "1", "--expect", manifest}, manifest + ":2: more than 1 entries"},
	} {
		code, out, errs := run(t, tc.args...)
		if code != ExitUsage || !strings.Contains(out+errs, tc.want) {
			t.Errorf("%v: exit %d, output %q %q; want exit 2 with %q", tc.args, code, out, errs, tc.want)
		}
	}
	if code, out, errs := run(t, "sim", "--max-input-nodes", "1000000", bomb); code == ExitUsage {
		t.Errorf("a raised bound still refuses: %s %s", out, errs)
	}
	if code, _, errs := run(t, "sim", "--max-input-actions", "2", small); code != ExitPass {
		t.Errorf("two actions within a bound of 2: exit %d %s", code, errs)
	}
}

// TestAdapterHint: an adapter check says how much it will run and how to
// shorten it; an in-process one says nothing.
func TestAdapterHint(t *testing.T) {
	var b strings.Builder
	opts := conformance.Options{Checks: 25, NewPort: reference.Factory(reference.Options{})}
	printAdapterHint(&b, &checkOptions{checks: 25}, opts)
	if b.Len() != 0 {
		t.Fatalf("a hint for an in-process check: %q", b.String())
	}
	o := &checkOptions{checks: 25}
	o.impl.adapter = "python3 adapter.py"
	printAdapterHint(&b, o, opts)
	if !strings.Contains(b.String(), "properties × 25 cases") || !strings.Contains(b.String(), "--checks") {
		t.Fatalf("hint %q", b.String())
	}
	// At runtime level it counts the runtime suite: six properties, the
	// focused ones running a share of the cases.
	b.Reset()
	o.level.level = levelRuntime
	printAdapterHint(&b, o, conformance.Options{Checks: 25, NewRuntime: func() loop.Runtime { return nil }})
	if !strings.Contains(b.String(), " 6 properties, 46 cases in all") {
		t.Fatalf("runtime-level hint %q", b.String())
	}
}
