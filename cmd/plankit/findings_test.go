package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plankit/plankit/internal/linktest"
)

// runBounded runs the built plankit with args in dir (and stdin), killing
// it after limit: a command that should refuse at once and does not fails
// the test instead of hanging it.
func runBounded(t *testing.T, limit time.Duration, dir, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, plankitBin(t), args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	code, stdout, stderr = runProgram(t, cmd)
	if ctx.Err() != nil {
		t.Fatalf("plankit %s: still running after %v, killed\n%s%s", strings.Join(args, " "), limit, stdout, stderr)
	}
	return code, stdout, stderr
}

// TestTranscriptEscapesBidi: bidirectional and invisible characters a
// trace holds reach no output of sim raw, in the transcript's lines too,
// at either level; they are shown as escapes.
func TestTranscriptEscapesBidi(t *testing.T) {
	const text = "over \u202e and \u2066 isolate, zero\u200bwidth"
	dir := t.TempDir()
	plugin := filepath.Join(dir, "plugin.yaml")
	runtime := filepath.Join(dir, "runtime.yaml")
	write(t, plugin, fmt.Sprintf(`name: bidi
script:
  - command: {agent: main, input: %s}
  - step: {agent: main}
`, jsonString("/plan "+text)))
	write(t, runtime, fmt.Sprintf(`level: runtime
name: bidi
config: {section: "Plan first."}
services: {commands: true, userQuestions: true}
steps:
  - turn: {agent: main, prompt: %[1]s, script: {responses: [{text: %[1]s}]}}
  - command: {agent: main, input: %[2]s}
`, jsonString(text), jsonString("/plan "+text)))
	for _, args := range [][]string{{"sim", plugin}, {"sim", "--level", "runtime", runtime}} {
		for _, format := range []string{"text", "json"} {
			code, out, errs := run(t, append(args, "--format", format)...)
			if code != ExitPass {
				t.Fatalf("%v: exit %d\n%s", args, code, errs)
			}
			if strings.ContainsAny(out, "\u202e\u2066\u200b") {
				t.Errorf("%v --format %s: a bidirectional or invisible character reaches the output raw:\n%s", args, format, out)
			}
			if !strings.Contains(out, `\u202e`) {
				t.Errorf("%v --format %s: the text is not shown escaped:\n%s", args, format, out)
			}
		}
	}
}

// compareReports writes two plankit JSON reports into dir, of the given
// cases (id and status; a failure's message is msg), and returns their
// paths.
func compareReports(t *testing.T, dir, msg string, old, newer map[string]string) (string, string) {
	t.Helper()
	doc := func(verdict string, cases map[string]string) []byte {
		var cs []map[string]any
		for _, id := range []string{"a", "b", "c"} {
			if st, ok := cases[id]; ok {
				c := map[string]any{"id": id, "kind": "scenario", "status": st, "clauses": []string{"PEND-1"}}
				if st == "failed" || st == "error" {
					c["message"] = msg
				}
				cs = append(cs, c)
			}
		}
		b, err := json.Marshal(map[string]any{"suite": "plankit", "suiteVersion": "1.0.0", "verdict": verdict, "clauses": []any{}, "cases": cs})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	o, n := filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
	write(t, o, string(doc("pass", old)))
	write(t, n, string(doc("fail", newer)))
	return o, n
}

// TestCompareMarkdownKeepsMessagesInert: an implementation's message that
// holds Markdown (an image that would load, a javascript: link, HTML)
// stays text in compare --format markdown, written for a job summary.
func TestCompareMarkdownKeepsMessagesInert(t *testing.T) {
	dir := t.TempDir()
	msg := "see ![x](https://example.invalid/p.png) and [t](javascript:alert(1)) <img src=x onerror=alert(1)> @someone"
	o, n := compareReports(t, dir, msg, map[string]string{"a": "passed"}, map[string]string{"a": "failed"})
	code, out, errs := run(t, "compare", "--format", "markdown", o, n)
	if code != ExitFail {
		t.Fatalf("exit %d, want 1 (a new failure)\n%s", code, errs)
	}
	for _, live := range []string{"![", "](", "<img", "@someone"} {
		if strings.Contains(out, live) {
			t.Errorf("the Markdown keeps %q live:\n%s", live, out)
		}
	}
	if !strings.Contains(out, "example") || !strings.Contains(out, "javascript") {
		t.Errorf("the message is not shown at all:\n%s", out)
	}
}

// TestCompareRefusesInvalidUTF8: a report that is not UTF-8 (or holds a
// JSON escape of half a surrogate pair) is refused at its line and
// column, not read with U+FFFD in its place.
func TestCompareRefusesInvalidUTF8(t *testing.T) {
	dir := t.TempDir()
	o, _ := compareReports(t, dir, "", map[string]string{"a": "passed"}, map[string]string{"a": "passed"})
	for _, tc := range []struct{ name, text, want string }{
		{"raw", "{\"suite\":\"plankit\",\n\"suiteVersion\":\"1.0.0\",\"verdict\":\"pass\",\"cases\":[{\"id\":\"a\",\"status\":\"passed\",\"message\":\"\xff\"}]}", "bad.json:2:89: invalid UTF-8"},
		{"half a surrogate pair", `{"suite":"plankit","suiteVersion":"1.0.0","verdict":"pass","cases":[{"id":"a","status":"passed","message":"x\udc00"}]}`, `bad.json:1:109: \udc00 escapes half a UTF-16 surrogate pair`},
	} {
		write(t, filepath.Join(dir, "bad.json"), tc.text)
		code, out, errs := runBounded(t, 30*time.Second, dir, "", "compare", o, "bad.json")
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 saying %q\n%s", tc.name, code, errs, tc.want, out)
		}
	}
}

// TestCompareGatesOnChecksNewCouldNotJudge: a NEW report whose checks
// could not run (error, not-run) is a regression, exit 1, unless
// --allow-unjudged; a release that does not start fails the gate.
func TestCompareGatesOnChecksNewCouldNotJudge(t *testing.T) {
	dir := t.TempDir()
	o, n := compareReports(t, dir, "the adapter could not be started",
		map[string]string{"a": "passed", "b": "passed", "c": "skipped"},
		map[string]string{"a": "error", "b": "not-run", "c": "skipped"})
	code, out, errs := run(t, "compare", o, n)
	if code != ExitFail || !strings.Contains(out, "Regression: 2 checks could not be judged in the new report") {
		t.Errorf("exit %d, want 1 and the two unjudged checks named a regression:\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, "compare", "--allow-unjudged", o, n); code != ExitPass {
		t.Errorf("--allow-unjudged: exit %d, want 0\n%s%s", code, out, errs)
	}
}

// TestExploreRuntimeReportsAViolationItCannotWrite: a symbolic link at the
// name of the violation's trace makes explore --level runtime exit 2 and
// still print the violation it found, as the plugin level does; the
// link's target is left as it was.
func TestExploreRuntimeReportsAViolationItCannotWrite(t *testing.T) {
	dir := t.TempDir()
	victim := linktest.Plant(t, filepath.Join(dir, "runtime-lockstep-depth2.yaml"))
	code, out, errs := run(t, "explore", "--level", "runtime", "--depth", "2", "--mutant", "notice-forces-step", "--out", dir)
	if code != ExitUsage || !strings.Contains(out, "violation: ") || !strings.Contains(out, "PEND-2") || !strings.Contains(errs, "symbolic link") {
		t.Errorf("exit %d, want 2, the violation printed and the link named\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	victim.Untouched(t)
}

// TestBuiltinTurnLimitIsAnInputError: a runtime trace whose turn takes
// more steps than the built-in runtime runs in a turn is an input error,
// exit 2, before any verdict is printed; one that fits runs.
func TestBuiltinTurnLimitIsAnInputError(t *testing.T) {
	dir := t.TempDir()
	trace := func(calls int) string {
		var b strings.Builder
		b.WriteString("level: runtime\nname: long turn\nconfig: {section: \"Plan first.\"}\nhostTools: [{name: read_file}]\nsteps:\n  - turn:\n      agent: main\n      prompt: go\n      script:\n        responses:\n")
		for i := range calls {
			fmt.Fprintf(&b, "          - calls: [{id: c%d, name: read_file, args: {}}]\n", i)
		}
		b.WriteString("          - text: done\n")
		p := filepath.Join(dir, fmt.Sprintf("turn-%d.yaml", calls))
		write(t, p, b.String())
		return p
	}
	code, out, errs := run(t, "sim", "--level", "runtime", trace(3999))
	if code != ExitUsage || strings.Contains(out, "verdict") || !strings.Contains(errs, "step 1 (turn)") || !strings.Contains(errs, "256 steps") {
		t.Errorf("4,000 responses: exit %d, want 2 before any verdict, naming the step and the limit\nstdout:\n%s\nstderr:\n%s", code, clipped(out), errs)
	}
	if code, out, errs := run(t, "sim", "--level", "runtime", trace(255)); code != ExitPass || !strings.Contains(out, "verdict: pass") {
		t.Errorf("256 steps, the limit: exit %d, want it run and pass\n%s%s", code, clipped(out), errs)
	}
}

// TestMatrixOutIsCheckedFirst: mutants --matrix --out into a directory
// that does not exist fails at once, not after the matrix has run.
func TestMatrixOutIsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runBounded(t, 30*time.Second, dir, "", "mutants", "--matrix", "--out", filepath.Join(dir, "missing", "mutants.md"))
	if code != ExitUsage || !strings.Contains(errs, "--out") || out != "" {
		t.Errorf("exit %d, want 2 naming --out before the matrix runs\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

// TestDocsRefusesALinkedDirectory: with docs/cli a symbolic link to a
// directory elsewhere, plankit docs (go generate) refuses to write through
// it and writes nothing there.
func TestDocsRefusesALinkedDirectory(t *testing.T) {
	root := t.TempDir()
	copyModule(t, "../..", root)
	elsewhere := t.TempDir()
	if err := os.RemoveAll(filepath.Join(root, "docs", "cli")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(root, "docs", "cli")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	code, out, errs := run(t, "docs", "--root", root)
	if code != ExitUsage || !strings.Contains(errs, "docs/cli") || !strings.Contains(errs, "symbolic link") {
		t.Errorf("exit %d, want 2 naming docs/cli as a link\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) > 0 {
		t.Errorf("files written through the link: %v", entries)
	}
}

// copyModule copies the module's files (not .git, not node_modules) from
// src to dst.
func copyModule(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if e.IsDir() && (e.Name() == ".git" || e.Name() == "node_modules") {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		switch {
		case e.IsDir():
			return os.MkdirAll(target, 0o755)
		case e.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, 0o644)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
