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
		{[]string{"explore", "--level", "runtime", "--depth", "1", "--out", filepath.Join(victim.Path, "sub")}, "--out"},
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
// was, at either level.
func TestSymlinkedCounterexampleRefused(t *testing.T) {
	for _, tc := range []struct{ name, only, file string }{
		{"runtime properties", "properties", "rt-invariants.yaml"},
		{"runtime scenarios", "features", "rt-step-aborted-appends-nothing.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"check", "--level", "runtime", "--only", tc.only, "--checks", "50", "--mutant", "append-on-abort"}
			if tc.only == "features" {
				args = append(args, "--tags", "@STEP-3")
			}
			first := t.TempDir()
			if code, out, errs := run(t, append(args, "--counterexamples", first)...); code != ExitFail {
				t.Fatalf("the mutant did not fail: exit %d\n%s\n%s", code, out, errs)
			}
			if _, err := os.Stat(filepath.Join(first, tc.file)); err != nil {
				t.Fatalf("no counterexample %s written: %v", tc.file, err)
			}
			dir := t.TempDir()
			victim := linktest.Plant(t, filepath.Join(dir, tc.file))
			code, out, errs := run(t, append(args, "--counterexamples", dir)...)
			if code != ExitUsage || !strings.Contains(errs+out, "symbolic link") {
				t.Fatalf("exit %d; want exit 2 naming the link\n%s\n%s", code, out, errs)
			}
			victim.Untouched(t)
		})
	}
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
	rbomb := write("rbomb.yaml", "level: runtime\nname: bomb\nconfig: {section: x, a: &a [x, x, x, x, x, x, x, x, x], b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a], c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b], d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c], e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d], f: [*e, *e, *e, *e, *e, *e, *e, *e, *e]}\nsteps: []\n")
	rutf := write("rutf.yaml", "level: runtime\nname: \"caf\xe9\"\nsteps: []\n")
	rctl := write("rctl.yaml", "level: runtime\nname: \"a\\x01\"\nsteps: []\n")
	rsmall := write("rsmall.yaml", "level: runtime\nname: small\nconfig: {section: x}\nsteps:\n  - get: {agent: main}\n  - set: {agent: main, active: true}\n")
	rgrow := write("rgrow.yaml", "level: runtime\nname: grow\nconfig: {section: x}\nsteps:\n"+strings.Repeat("  - turn: {agent: main, prompt: "+strings.Repeat("p", 500)+", script: {}}\n", 20))
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
		{[]string{"sim", "--level", "runtime", rbomb}, rbomb + ":3:"},
		{[]string{"sim", "--level", "runtime", rbomb}, "--max-input-nodes"},
		{[]string{"sim", "--level", "runtime", rutf}, rutf + ":2:11: invalid UTF-8"},
		{[]string{"sim", "--level", "runtime", rctl}, rctl + ":2:7: control character U+0001"},
		{[]string{"sim", "--level", "runtime", "--max-input-actions", "1", rsmall}, rsmall + ":6:5: steps: more than 1 steps"},
		{[]string{"sim", "--level", "runtime", "--max-input-depth", "2", rsmall}, rsmall + ":5: more than 2 levels of nesting"},
		{[]string{"sim", "--level", "runtime", "--max-input-bytes", "20", rsmall}, rsmall + ":2: more than 20 bytes"},
		{[]string{"sim", "--level", "runtime", "--max-input-transcript", "10000", rgrow}, "more than 10000 bytes of transcript"},
		{[]string{"sim", "--max-input-transcript", "10000", small}, "--max-input-transcript bounds a runtime trace's run; it needs --level runtime"},
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
	if code, _, errs := run(t, "sim", "--level", "runtime", "--max-input-actions", "2", rsmall); code != ExitPass {
		t.Errorf("two steps within a bound of 2: exit %d %s", code, errs)
	}
	if code, _, errs := run(t, "sim", "--level", "runtime", rgrow); code != ExitPass {
		t.Errorf("20 turns within the default transcript bound: exit %d %s", code, errs)
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

// TestFileNamesEscaped: a file name is outside text: one holding a newline
// cannot add a line to sim's or lint's output (a CI log would read
// "::error::..." as a command); it is printed escaped.
func TestFileNamesEscaped(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good\n::error::X.yaml", "name: good\nscript:\n  - load: {}\n")
	bad := write("bad\n::error::X.yaml", "name: bad\nscript:\n  - nope: {}\n")
	rgood := write("rgood\n::error::X.yaml", "level: runtime\nname: g\nconfig: {section: x}\nsteps:\n  - get: {agent: main}\n    expect: {active: true}\n")
	rbad := write("rbad\n::error::X.yaml", "level: runtime\nname: b\nsteps: [{nope: {}}]\n")
	log := write("log\n::error::X.jsonl", "\n")
	for _, args := range [][]string{
		{"sim", good}, {"sim", "--format", "mermaid", good}, {"sim", bad},
		{"sim", "--level", "runtime", rgood}, {"sim", "--level", "runtime", rbad},
		{"lint", log}, {"lint", "--format", "json", log},
	} {
		_, out, errs := run(t, args...)
		for _, line := range strings.Split(out+errs, "\n") {
			if strings.HasPrefix(line, "::error::") {
				t.Errorf("%q: a file name added the line %q:\n%s\n%s", args, line, out, errs)
			}
		}
		if !strings.Contains(out+errs, `\n::error::X`) {
			t.Errorf("%q: the file is not named escaped:\n%s\n%s", args, out, errs)
		}
	}
}
