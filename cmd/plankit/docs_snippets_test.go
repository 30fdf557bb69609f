package main

// Doc snippets must not rot: this test runs every plankit command line of
// README.md and docs/*.md.
//
// The convention, documented for writers in docs/writing-docs.md:
//   - Only lines inside ```sh (or ```bash, ```shell) fences are run, and only
//     those that start with `plankit ` or `go run ./cmd/plankit `. Other lines
//     (go install, bash scripts/test.sh, comments) are shown, not run.
//   - A line ending in `\` continues on the next line.
//   - Each command runs through Main, in-process, with the working directory
//     at the root of a scratch copy of the repository, so commands may write
//     files and later commands of any page may read them. Files are processed
//     in order: README.md, then docs/*.md by name.
//   - A command is expected to exit 0; a trailing `# expect-exit: N` comment
//     expects exit N instead (e.g. a demonstration of a failing check).
//   - Arguments are split like a POSIX shell (quotes, escapes, # comments);
//     glob patterns are expanded; `> FILE` redirects stdout to a file. Pipes,
//     `&&`, `;`, input redirection and other shell syntax are errors: write
//     one command per line.
//   - A plankit command line given as an argument (--adapter "plankit serve")
//     runs a plankit binary built from this source, first on PATH.
//   - A command whose subcommand is not registered in the command tree yet is
//     not run; the test logs each such line and their count, and runs them
//     as soon as the command exists.

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/shlex"
	"github.com/plankit/plankit/internal/generated"
)

// snippet is one command line of a shell block of a Markdown page.
type snippet struct {
	File   string
	Line   int
	Text   string
	Args   []string // plankit's arguments, before glob expansion
	Expect int      // expected exit code
	Stdout string   // redirect target, "" for none
	// Excerpt, for an output marker, is the shown part of the output.
	Excerpt []string
}

var (
	fenceOpen  = regexp.MustCompile("^```(sh|bash|shell)\\s*$")
	expectExit = regexp.MustCompile(`#\s*expect-exit:\s*([0-9]+)\s*$`)
)

// commandPrefixes are how a snippet invokes plankit.
var commandPrefixes = []string{"plankit ", "go run ./cmd/plankit "}

// page is what a Markdown page asks the test to check.
type page struct {
	// Snippets are the commands to run, in page order; output excerpts are
	// snippets with Excerpt set.
	Snippets []snippet
	Files    []fileBlock
}

// fileBlock is a code block that must equal a file of the repository or,
// with FirstBlock, the first code block of that file.
type fileBlock struct {
	Where      string
	Path       string
	Content    string
	FirstBlock bool
}

var (
	fileMarker   = regexp.MustCompile(`^<!--\s*file:\s*(\S+)\s*-->$`)
	blockMarker  = regexp.MustCompile(`^<!--\s*block:\s*(\S+)\s*-->$`)
	outputMarker = regexp.MustCompile(`^<!--\s*output:\s*(.+?)\s*-->$`)
)

// parseSnippets returns the plankit command lines of a Markdown page's
// shell blocks. Malformed lines are errors naming file:line.
func parseSnippets(file string, src []byte) ([]snippet, error) {
	p, err := parsePage(file, src)
	if err != nil {
		return nil, err
	}
	var out []snippet
	for _, s := range p.Snippets {
		if s.Excerpt == nil {
			out = append(out, s)
		}
	}
	return out, nil
}

// parsePage reads a page's shell blocks and its file and output markers.
func parsePage(file string, src []byte) (page, error) {
	var p page
	lines := strings.Split(string(src), "\n")
	// block returns the code block starting at the first non-empty line
	// after i, and the index of its closing fence.
	block := func(i int) ([]string, int, error) {
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j == len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[j]), "```") {
			return nil, 0, fmt.Errorf("%s:%d: the marker must be followed by a code block", file, i+1)
		}
		indent := lines[j][:len(lines[j])-len(strings.TrimLeft(lines[j], " "))]
		var body []string
		for k := j + 1; k < len(lines); k++ {
			if strings.TrimSpace(lines[k]) == "```" {
				return body, k, nil
			}
			body = append(body, strings.TrimPrefix(lines[k], indent))
		}
		return nil, 0, fmt.Errorf("%s:%d: code block never closed", file, j+1)
	}
	inBlock := false
	for i := 0; i < len(lines); i++ {
		raw := strings.TrimSpace(lines[i])
		if !inBlock {
			if m := fileMarker.FindStringSubmatch(raw); m != nil {
				body, end, err := block(i)
				if err != nil {
					return p, err
				}
				p.Files = append(p.Files, fileBlock{Where: fmt.Sprintf("%s:%d", file, i+1), Path: m[1], Content: strings.Join(body, "\n") + "\n"})
				i = end
				continue
			}
			if m := blockMarker.FindStringSubmatch(raw); m != nil {
				body, end, err := block(i)
				if err != nil {
					return p, err
				}
				p.Files = append(p.Files, fileBlock{Where: fmt.Sprintf("%s:%d", file, i+1), Path: m[1], Content: strings.Join(body, "\n") + "\n", FirstBlock: true})
				i = end
				continue
			}
			if m := outputMarker.FindStringSubmatch(raw); m != nil {
				s, ok, err := parseCommand(file, i+1, m[1])
				if err != nil {
					return p, err
				}
				if !ok {
					return p, fmt.Errorf("%s:%d: output marker: %q is not a plankit command", file, i+1, m[1])
				}
				body, end, err := block(i)
				if err != nil {
					return p, err
				}
				s.Excerpt = body
				if s.Excerpt == nil {
					s.Excerpt = []string{}
				}
				p.Snippets = append(p.Snippets, s)
				i = end
				continue
			}
			inBlock = fenceOpen.MatchString(raw)
			continue
		}
		if strings.HasPrefix(raw, "```") {
			inBlock = false
			continue
		}
		start := i + 1
		for strings.HasSuffix(raw, "\\") && i+1 < len(lines) {
			i++
			raw = strings.TrimSuffix(raw, "\\") + " " + strings.TrimSpace(lines[i])
		}
		s, ok, err := parseCommand(file, start, raw)
		if err != nil {
			return p, err
		}
		if ok {
			p.Snippets = append(p.Snippets, s)
		}
	}
	if inBlock {
		return p, fmt.Errorf("%s: a ```sh block is never closed", file)
	}
	return p, nil
}

// parseCommand parses one command line; ok is false when the line does
// not invoke plankit.
func parseCommand(file string, line int, raw string) (snippet, bool, error) {
	var rest string
	for _, p := range commandPrefixes {
		if r, ok := strings.CutPrefix(raw, p); ok {
			rest = r
			break
		}
	}
	if rest == "" {
		return snippet{}, false, nil
	}
	s := snippet{File: file, Line: line, Text: raw}
	if m := expectExit.FindStringSubmatch(rest); m != nil {
		s.Expect, _ = strconv.Atoi(m[1])
		rest = rest[:len(rest)-len(m[0])]
	}
	words, err := shlex.Split(rest)
	if err != nil {
		return s, false, fmt.Errorf("%s:%d: %v", file, line, err)
	}
	for j := 0; j < len(words); j++ {
		w := words[j]
		switch {
		case w == ">" && j+1 < len(words) && s.Stdout == "":
			s.Stdout = words[j+1]
			j++
		case strings.HasPrefix(w, ">") && len(w) > 1 && !strings.HasPrefix(w, ">>") && s.Stdout == "":
			s.Stdout = w[1:]
		case slices.Contains([]string{"|", "||", "&&", ";", "&", "<", "2>", "2>&1", ">>", ">"}, w),
			strings.ContainsAny(w, "|;&<`") || strings.Contains(w, "$("):
			return s, false, fmt.Errorf("%s:%d: %q: shell syntax %q is not supported in doc snippets; write one plain command per line", file, line, raw, w)
		default:
			s.Args = append(s.Args, w)
		}
	}
	return s, true, nil
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

// docPages are README.md and docs/*.md under root, in run order.
func docPages(t *testing.T, root string) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(pages)
	return append([]string{filepath.Join(root, "README.md")}, pages...)
}

// copyRepo copies the repository at src into dst, leaving out version
// control, hidden directories and installed packages.
func copyRepo(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
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
	if err != nil {
		t.Fatal(err)
	}
}

// registered reports whether args name a command of the tree.
func registered(args []string) bool {
	_, _, err := newRootCmd().Find(args)
	return err == nil
}

// expandGlobs replaces each glob pattern with its matches, like a shell:
// a pattern without matches stays as written.
func expandGlobs(args []string) []string {
	var out []string
	for _, a := range args {
		if strings.ContainsAny(a, "*?[") {
			if m, err := filepath.Glob(a); err == nil && len(m) > 0 {
				out = append(out, m...)
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

func TestDocSnippetsRun(t *testing.T) {
	var all []snippet
	var files []fileBlock
	for _, pg := range docPages(t, "../..") {
		src, err := os.ReadFile(pg)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel("../..", pg)
		p, err := parsePage(filepath.ToSlash(name), src)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, p.Snippets...)
		files = append(files, p.Files...)
	}
	for _, f := range files {
		have, err := os.ReadFile(filepath.Join("../..", filepath.FromSlash(f.Path)))
		if err != nil {
			t.Errorf("%s: shows %s: %v", f.Where, f.Path, err)
			continue
		}
		if f.FirstBlock {
			have, err = firstBlock(have)
			if err != nil {
				t.Errorf("%s: shows the first code block of %s: %v", f.Where, f.Path, err)
				continue
			}
		}
		if line := generated.FirstDiff(have, []byte(f.Content)); line > 0 {
			t.Errorf("%s: the block differs from %s at its line %d; copy it into the page", f.Where, f.Path, line)
		}
	}
	if nestedPlankit(all) {
		// A snippet runs plankit as a subprocess (an adapter command such as
		// "plankit serve"): put a freshly built plankit first on PATH.
		bin := t.TempDir()
		build := exec.Command("go", "build", "-o", filepath.Join(bin, "plankit"), ".")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building plankit for nested commands: %v\n%s", err, out)
		}
		t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	scratch := t.TempDir()
	copyRepo(t, "../..", scratch)
	t.Chdir(scratch)

	ran := 0
	var deferred []string
	for _, s := range all {
		where := fmt.Sprintf("%s:%d", s.File, s.Line)
		if !registered(s.Args) {
			deferred = append(deferred, where+": "+s.Text)
			continue
		}
		ran++
		t.Run(where, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(expandGlobs(s.Args), &out, &errb)
			if code != s.Expect {
				t.Errorf("%s\nexit %d, want %d (mark an intended failure with # expect-exit: N)\nstdout:\n%s\nstderr:\n%s", s.Text, code, s.Expect, tail(out.String()), errb.String())
			}
			if s.Excerpt != nil {
				if err := matchExcerpt(out.String(), s.Excerpt); err != nil {
					t.Errorf("the output shown after %s is not what %q prints: %v", where, s.Text, err)
				}
			}
			if s.Stdout != "" {
				if err := os.WriteFile(s.Stdout, out.Bytes(), 0o644); err != nil {
					t.Fatalf("%s: redirect: %v", s.Text, err)
				}
			}
		})
	}
	for _, d := range deferred {
		t.Logf("not run yet, command not registered: %s", d)
	}
	t.Logf("doc snippets: %d run, %d waiting for their command; %d file blocks compared", ran, len(deferred), len(files))
	if ran == 0 {
		t.Fatal("no doc snippet ran: README.md and docs/*.md show no plankit command")
	}
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

// nestedPlankit reports whether a snippet passes a plankit command line as
// an argument, to be run as a process.
func nestedPlankit(snippets []snippet) bool {
	for _, s := range snippets {
		for _, a := range s.Args {
			if strings.HasPrefix(a, "plankit ") {
				return true
			}
		}
	}
	return false
}

// tail keeps the end of long output for failure messages.
func tail(s string) string {
	if len(s) > 4000 {
		return "...\n" + s[len(s)-4000:]
	}
	return s
}

func TestParseSnippets(t *testing.T) {
	src, err := os.ReadFile("testdata/snippets.md")
	if err != nil {
		t.Fatal(err)
	}
	got, err := parseSnippets("snippets.md", src)
	if err != nil {
		t.Fatal(err)
	}
	want := []snippet{
		{File: "snippets.md", Line: 5, Text: "plankit sim examples/a.yaml", Args: []string{"sim", "examples/a.yaml"}},
		{File: "snippets.md", Line: 7, Text: "go run ./cmd/plankit sim --format jsonl examples/*.yaml > log.jsonl", Args: []string{"sim", "--format", "jsonl", "examples/*.yaml"}, Stdout: "log.jsonl"},
		{File: "snippets.md", Line: 8, Text: "plankit check --mutant narrate-twice  # expect-exit: 1", Args: []string{"check", "--mutant", "narrate-twice"}, Expect: 1},
		{File: "snippets.md", Line: 9, Text: `plankit sim  --choice "cancel-pending=keep-equal" examples/b.yaml # a comment`, Args: []string{"sim", "--choice", "cancel-pending=keep-equal", "examples/b.yaml"}},
		{File: "snippets.md", Line: 10, Text: "plankit catalog coverage  --format md", Args: []string{"catalog", "coverage", "--format", "md"}},
		{File: "snippets.md", Line: 19, Text: "plankit schema", Args: []string{"schema"}},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d snippets, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if fmt.Sprintf("%+v", got[i]) != fmt.Sprintf("%+v", want[i]) {
			t.Errorf("snippet %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	for _, bad := range []string{
		"```sh\nplankit sim x.yaml | head\n```\n",
		"```sh\nplankit sim x.yaml && plankit schema\n```\n",
		"```sh\nplankit sim $(ls examples)\n```\n",
		"```sh\nplankit sim 'unterminated\n```\n",
		"```sh\nplankit schema\n",
	} {
		if _, err := parseSnippets("bad.md", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "bad.md") {
			t.Errorf("%q: got %v, want an error naming bad.md", bad, err)
		}
	}
}

func TestRegisteredCommands(t *testing.T) {
	for args, want := range map[string]bool{
		"sim x.yaml":          true,
		"catalog verify":      true,
		"--help":              true,
		"no-such-command a b": false,
		"lint --strict x":     registered([]string{"lint"}),
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
	if len(p.Files) != 2 || p.Files[0] != (fileBlock{Where: "m.md:1", Path: "catalog/service.md", Content: "func F()\n", FirstBlock: true}) ||
		p.Files[1] != (fileBlock{Where: "m.md:6", Path: "docs/examples/x.yaml", Content: "a: 1\n  b: 2\n"}) {
		t.Errorf("files: %+v", p.Files)
	}
	if len(p.Snippets) != 1 || !slices.Equal(p.Snippets[0].Args, []string{"sim", "x.yaml"}) || !slices.Equal(p.Snippets[0].Excerpt, []string{"PASS", "...", "end"}) {
		t.Errorf("snippets: %+v", p.Snippets)
	}
	for _, bad := range []string{
		"<!-- file: x -->\nno block\n",
		"<!-- output: ls -l -->\n```text\nx\n```\n",
		"<!-- output: plankit sim -->\n```text\nnever closed\n",
	} {
		if _, err := parsePage("bad.md", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "bad.md:") {
			t.Errorf("%q: got %v", bad, err)
		}
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
