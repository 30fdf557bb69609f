package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/generated"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/sebdah/goldie/v2"
)

// TestMain lets testscript run this test binary as the plankit command,
// and removes the programs the tests built.
func TestMain(m *testing.M) {
	testscript.Main(removingBuilds{m}, map[string]func(){
		"plankit": func() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// removingBuilds runs the tests, then removes the programs they built and
// the module proxy of TestInstallFromAModuleProxy.
type removingBuilds struct{ m *testing.M }

func (r removingBuilds) Run() int {
	// What the tests, and the programs they start, write to a temporary
	// directory without naming one (a failing check's counterexamples, a
	// divergence's trace) goes under one directory, removed at the end.
	if tmp, err := os.MkdirTemp("", "plankit-cmd-test-"); err == nil {
		os.Setenv("TMPDIR", tmp)
		defer os.RemoveAll(tmp)
	}
	defer builds.Remove()
	defer removeDownstream()
	return r.m.Run()
}

// scriptCmds are the commands the scripts use beside testscript's own:
//
//	exits N CMD ARGS...  run CMD with ARGS (globs expanded) and want exit N
//	excerpt FILE         the last stdout holds FILE's excerpt (see matchExcerpt)
//	cmpblock MD FILE     the first code block of Markdown file MD equals FILE
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"exits": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 2 {
			ts.Fatalf("usage: exits N command [args...]")
		}
		want, err := strconv.Atoi(args[0])
		if err != nil {
			ts.Fatalf("exits: %v", err)
		}
		var expanded []string
		for _, a := range args[2:] {
			expanded = append(expanded, expandGlob(ts, a)...)
		}
		got := 0
		if err := ts.Exec(args[1], expanded...); err != nil {
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				ts.Fatalf("%s: %v", args[1], err)
			}
			got = exit.ExitCode()
		}
		if got != want {
			ts.Fatalf("exit %d, want %d (mark an intended failure with # expect-exit: N)", got, want)
		}
	},
	"excerpt": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: excerpt FILE")
		}
		want := strings.TrimSuffix(ts.ReadFile(args[0]), "\n")
		var excerpt []string
		if want != "" || strings.HasSuffix(ts.ReadFile(args[0]), "\n") {
			excerpt = strings.Split(want, "\n")
		}
		if err := matchExcerpt(ts.ReadFile("stdout"), excerpt); err != nil {
			ts.Fatalf("the output shown is not what the command prints: %v", err)
		}
	},
	"cmpblock": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: cmpblock MARKDOWN FILE")
		}
		have, err := firstBlock([]byte(ts.ReadFile(args[0])))
		if err != nil {
			ts.Fatalf("%s: %v", args[0], err)
		}
		if line := generated.FirstDiff(have, []byte(ts.ReadFile(args[1]))); line > 0 {
			ts.Fatalf("the block shown differs from the first code block of %s at its line %d; copy it into the page", args[0], line)
		}
	},
}

// expandGlob expands a glob pattern in the script's working directory like
// a shell: a pattern without matches stays as written.
func expandGlob(ts *testscript.TestScript, a string) []string {
	if !strings.ContainsAny(a, "*?[") {
		return []string{a}
	}
	dir := ts.MkAbs(".")
	matches, err := fs.Glob(os.DirFS(dir), filepath.ToSlash(a))
	if err != nil || len(matches) == 0 {
		return []string{a}
	}
	return matches
}

// TestScripts runs the CLI scripts of testdata/script: each runs plankit
// commands against the files it carries and checks exit codes and output.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Cmds: scriptCmds})
}

// TestDocScripts runs the scripts generated from README.md and docs/*.md
// (docscripts.go), each in a fresh copy of the repository: every plankit
// command shown runs with its expected exit code, and every file, block
// and output shown is what it claims to be.
func TestDocScripts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	scripts, _ := filepath.Glob(filepath.Join("testdata/script/docs", "*.txtar"))
	if len(scripts) == 0 {
		t.Fatal("no doc scripts: README.md and docs/*.md show no plankit command (run go generate ./...)")
	}
	testscript.Run(t, testscript.Params{
		Dir:  "testdata/script/docs",
		Cmds: scriptCmds,
		Setup: func(env *testscript.Env) error {
			return copyRepo(root, env.WorkDir)
		},
	})
}

// copyRepo copies the repository at src into dst, leaving out version
// control, hidden directories and installed packages.
func copyRepo(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() && rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// matchExcerpt checks that excerpt appears in output: runs of lines
// between "..." lines appear consecutively, the runs in order.
func matchExcerpt(output string, excerpt []string) error {
	out := strings.Split(output, "\n")
	pos := 0
	var run []string
	flush := func() error {
		if len(run) == 0 {
			return nil
		}
		for i := pos; i+len(run) <= len(out); i++ {
			if slices.Equal(out[i:i+len(run)], run) {
				pos = i + len(run)
				run = nil
				return nil
			}
		}
		return fmt.Errorf("output lacks, after line %d:\n%s", pos, strings.Join(run, "\n"))
	}
	for _, l := range excerpt {
		if l == "..." {
			if err := flush(); err != nil {
				return err
			}
			continue
		}
		run = append(run, l)
	}
	return flush()
}

// firstBlock returns the content of the first fenced code block of a
// Markdown text.
func firstBlock(md []byte) ([]byte, error) {
	lines := strings.Split(string(md), "\n")
	start := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "```") })
	if start < 0 {
		return nil, fmt.Errorf("no code block")
	}
	for k := start + 1; k < len(lines); k++ {
		if strings.TrimSpace(lines[k]) == "```" {
			return []byte(strings.Join(lines[start+1:k], "\n") + "\n"), nil
		}
	}
	return nil, fmt.Errorf("code block never closed")
}

// The fixture page becomes the script beside it (testdata/snippets.txtar;
// -update rewrites it, review the diff): commands with their exit
// codes, a redirect, a continued line, and nothing from other blocks.
func TestDocScriptOfAFixturePage(t *testing.T) {
	src, err := os.ReadFile("testdata/snippets.md")
	if err != nil {
		t.Fatal(err)
	}
	p, err := parsePage("snippets.md", src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := docScript("snippets.md", p)
	if err != nil {
		t.Fatal(err)
	}
	goldie.New(t, goldie.WithNameSuffix(".txtar")).Assert(t, "snippets", got)
}

// A page a script cannot be made of is an error naming the page:
// shell beyond one plain command a line, an unclosed block, a marker with
// no block or with a command other than plankit.
func TestParsePageRejects(t *testing.T) {
	for _, bad := range []string{
		"```sh\nplankit sim x.yaml | head\n```\n",
		"```sh\nplankit sim x.yaml && plankit schema\n```\n",
		"```sh\nplankit sim $(ls examples)\n```\n",
		"```sh\nplankit sim 'unterminated\n```\n",
		"```sh\nplankit schema\n",
		"<!-- file: x -->\nno block\n",
		"<!-- output: ls -l -->\n```text\nx\n```\n",
		"<!-- output: plankit sim -->\n```text\nnever closed\n",
	} {
		if _, err := parsePage("bad.md", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "bad.md:") {
			t.Errorf("%q: got %v, want an error naming bad.md", bad, err)
		}
	}
}

func TestRegisteredCommands(t *testing.T) {
	for args, want := range map[string]bool{
		"sim x.yaml":          true,
		"catalog coverage":    true,
		"--help":              true,
		"no-such-command a b": false,
	} {
		if got := registered(strings.Fields(args)); got != want {
			t.Errorf("registered(%q) = %v, want %v", args, got, want)
		}
	}
}

func TestParsePageMarkers(t *testing.T) {
	src := "<!-- block: catalog/service.md -->\n```go\nfunc F()\n```\nintro\n<!-- file: docs/examples/x.yaml -->\n\n```yaml\na: 1\n  b: 2\n```\n\n<!-- output: plankit sim x.yaml -->\n```text\nPASS\n...\nend\n```\n"
	p, err := parsePage("m.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Steps) != 3 || p.Steps[0].File == nil || *p.Steps[0].File != (fileBlock{Where: "m.md:1", Path: "catalog/service.md", Content: "func F()\n", FirstBlock: true}) ||
		p.Steps[1].File == nil || *p.Steps[1].File != (fileBlock{Where: "m.md:6", Path: "docs/examples/x.yaml", Content: "a: 1\n  b: 2\n"}) {
		t.Fatalf("steps: %+v", p.Steps)
	}
	if s := p.Steps[2].Snippet; s == nil || !slices.Equal(s.Args, []string{"sim", "x.yaml"}) || !slices.Equal(s.Excerpt, []string{"PASS", "...", "end"}) {
		t.Errorf("output step: %+v", p.Steps[2])
	}
}

func TestMatchExcerpt(t *testing.T) {
	out := "a\nb\nc\nd\ne\n"
	for _, tc := range []struct {
		excerpt []string
		ok      bool
	}{
		{[]string{"b", "c"}, true},
		{[]string{"a", "...", "d", "e"}, true},
		{[]string{"b", "d"}, false},        // not consecutive
		{[]string{"d", "...", "b"}, false}, // out of order
		{[]string{"x"}, false},
		{[]string{"...", "e", ""}, true},
	} {
		err := matchExcerpt(out, tc.excerpt)
		if (err == nil) != tc.ok {
			t.Errorf("%q: got %v, want ok=%v", tc.excerpt, err, tc.ok)
		}
	}
}

func TestFirstBlock(t *testing.T) {
	got, err := firstBlock([]byte("# T\n\ntext\n```go\n// doc\nfunc F()\n```\n```sh\nx\n```\n"))
	if err != nil || string(got) != "// doc\nfunc F()\n" {
		t.Errorf("got %q, %v", got, err)
	}
	if _, err := firstBlock([]byte("no block\n")); err == nil {
		t.Error("no error without a block")
	}
}
