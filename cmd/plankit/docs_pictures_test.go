package main

import (
	"os"
	"strings"
	"testing"
)

// The Mermaid excerpt in docs/pictures.md is real output: each of its lines
// is a line of the diagram of the trace it names. (A Mermaid block cannot
// carry the "..." elision of <!-- output: --> excerpts and still render.)
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
