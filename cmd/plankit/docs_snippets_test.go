package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// snippet is one `plankit ...` line of a ```sh block in a doc, with the
// ```text block that follows its block, if any.
type snippet struct {
	file, cmd string
	line      int
	code      int
	want      string // expected stdout of the block's last command; "" = not shown
}

// docSnippets reads the plankit commands of a markdown file. A trailing
// "# exit N" comment gives the expected exit code (default 0); "> FILE"
// sends stdout to FILE.
func docSnippets(t *testing.T, path string) []snippet {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	var out []snippet
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```sh" {
			continue
		}
		var block []snippet
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			l := strings.TrimSpace(lines[i])
			if !strings.HasPrefix(l, "plankit ") {
				continue
			}
			s := snippet{file: path, cmd: l, line: i + 1}
			if c, comment, ok := strings.Cut(l, "#"); ok && strings.HasPrefix(strings.TrimSpace(comment), "exit ") {
				s.cmd = strings.TrimSpace(c)
				n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(comment), "exit "))
				if err != nil {
					t.Fatalf("%s:%d: bad exit comment %q", path, i+1, comment)
				}
				s.code = n
			}
			block = append(block, s)
		}
		// A ```text block right after shows the last command's output.
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if len(block) > 0 && j < len(lines) && strings.TrimSpace(lines[j]) == "```text" {
			var want []string
			for j++; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
				want = append(want, lines[j])
			}
			block[len(block)-1].want = strings.Join(want, "\n") + "\n"
		}
		out = append(out, block...)
	}
	return out
}

// The plankit commands in the lint and pictures docs run, exit as the doc
// says, and print what the doc shows.
func TestDocSnippetsLintAndPictures(t *testing.T) {
	docs := []string{"../../docs/lint.md", "../../docs/pictures.md"}
	var all []snippet
	for _, d := range docs {
		all = append(all, docSnippets(t, d)...)
	}
	if len(all) < 5 {
		t.Fatalf("found only %d plankit commands in %v", len(all), docs)
	}
	tmp := t.TempDir()
	t.Chdir("../..")
	for _, s := range all {
		args := strings.Fields(s.cmd)[1:]
		var redirect string
		for i, a := range args {
			if a == ">" && i+1 < len(args) {
				redirect = args[i+1]
				args = args[:i]
				break
			}
		}
		// Files the docs create live in a temporary directory.
		for i, a := range args {
			if _, err := os.Stat(filepath.Join(tmp, a)); err == nil {
				args[i] = filepath.Join(tmp, a)
			}
		}
		var out, errb bytes.Buffer
		code := Main(args, &out, &errb)
		if code != s.code {
			t.Errorf("%s:%d: %s: exit %d, the doc says %d\n%s%s", s.file, s.line, s.cmd, code, s.code, out.String(), errb.String())
			continue
		}
		if redirect != "" {
			if err := os.WriteFile(filepath.Join(tmp, redirect), out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if s.want != "" {
			got := strings.ReplaceAll(out.String(), tmp+string(filepath.Separator), "")
			if got != s.want {
				t.Errorf("%s:%d: %s: output differs from the doc\n--- doc\n%s--- got\n%s", s.file, s.line, s.cmd, s.want, got)
			}
		}
	}
}

// The Mermaid excerpt in docs/pictures.md is real output: each of its lines
// is a line of the diagram of the trace it names.
func TestDocMermaidExcerpt(t *testing.T) {
	doc, err := os.ReadFile("../../docs/pictures.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```mermaid\n")
	if !ok {
		t.Fatal("docs/pictures.md has no mermaid block")
	}
	excerpt, _, _ := strings.Cut(rest, "```")
	code, out, errs := run(t, "sim", "--format", "mermaid", "../../examples/step-retry-through-pre-step.yaml")
	if code != ExitPass {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		lines[l] = true
	}
	for _, l := range strings.Split(strings.TrimSuffix(excerpt, "\n"), "\n") {
		if !lines[l] {
			t.Errorf("docs/pictures.md mermaid line %q is not in the output", l)
		}
	}
}
