package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plankit/plankit/internal/safetext/safetexttest"
)

// Outside text at its worst: lines a CI runner reads as workflow commands,
// a line break, a carriage return, a terminal control, bidirectional and
// invisible characters and a CI marker some runners read anywhere in a
// line. outsideName is the same as a file name (no slash).
// outsideTrace is outside as a trace may hold it: no control but a line
// feed (traces refuse the others, docs/reliability.md).
const (
	outside      = "::error file=x::OUTSIDE\n::error::OUTSIDE-LINE \u202e\u2066\u200b \x1b[31m\r##vso[task.setvariable]x"
	outsideName  = "::error::NAME\n::error::NAME-LINE \u202e\u200b \x1b[31m\r##vso[x]"
	outsideTrace = "::error file=x::OUTSIDE\n::error::OUTSIDE-LINE \u202e\u2066\u200b ##vso[task.setvariable]x"
)

// inertProblems is safetexttest.Problems: what outside text must never
// leave in an output.
func inertProblems(what string, data []byte) []string { return safetexttest.Problems(what, data) }

func clipped(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// outsideCase is one command run with outside text in one of its sources.
type outsideCase struct {
	name string
	// args are the command's; {out} is the case's own directory, for
	// reports and counterexamples (scanned too).
	args  []string
	stdin string
	// quiet: the command echoes none of the outside text (it is refused
	// without being named); only checked that none leaks.
	quiet bool
	// timeout bounds the run (default two minutes).
	timeout time.Duration
}

// TestOutsideTextIsInert drives every command with outside text in each
// source it reads — an adapter's or runtime's replies, error messages and
// stderr, file names, the contents of traces, runtime traces, logs,
// manifests and reports, flag values, request lines — and scans
// everything it writes (stdout, stderr, every report and counterexample)
// with inertProblems; each case must also echo some of the outside text,
// escaped, so that it shows the rule at work (docs/reliability.md,
// "Outside text").
func TestOutsideTextIsInert(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every command, many through an adapter")
	}
	plankit := plankitBin(t)
	hostile := builds.Program(t, "./testdata/hostileadapter")
	d := t.TempDir()
	writeOutsideFixtures(t, d)
	adapter := func(level, mode string) string { return shellQuote(hostile) + " " + level + " " + mode }
	plugin, runtime := "examples/plugin.yaml", "examples/runtime.yaml"

	var cases []outsideCase
	add := func(name string, args ...string) { cases = append(cases, outsideCase{name: name, args: args}) }
	quiet := func(name string, args ...string) {
		cases = append(cases, outsideCase{name: name, args: args, quiet: true})
	}
	modes := []string{"identity", "choice", "error", "unsupported", "garbage", "crash", "exception", "text"}

	// sim, both levels: trace contents in every format, file names, the
	// adapter's every kind of reply, flag values.
	for _, f := range []string{"text", "json", "jsonl", "mermaid", "html"} {
		add("sim/trace contents/"+f, "sim", "--format", f, "outside.yaml")
	}
	add("sim/malformed trace", "sim", "malformed.yaml")
	add("sim/file name", "sim", outsideName+".yaml")
	add("sim/missing file name", "sim", "nodir"+outsideName+"/t.yaml")
	add("sim/runtime/trace contents/text", "sim", "--level", "runtime", "outside-rt.yaml")
	add("sim/runtime/trace contents/json", "sim", "--level", "runtime", "--format", "json", "outside-rt.yaml")
	quiet("sim/runtime/file name", "sim", "--level", "runtime", outsideName+"-rt.yaml") // a run names no file
	add("sim/runtime/missing file name", "sim", "--level", "runtime", "nodir"+outsideName+"/t.yaml")
	for _, m := range modes {
		add("sim/adapter "+m, "sim", "--adapter", adapter("plugin", m), plugin)
		if m == "choice" {
			// the runtime level reads no fold-end choice
			quiet("sim/runtime/adapter "+m, "sim", "--level", "runtime", "--adapter", adapter("runtime", m), runtime)
			continue
		}
		add("sim/runtime/adapter "+m, "sim", "--level", "runtime", "--adapter", adapter("runtime", m), runtime)
	}
	for _, flag := range []string{"--format", "--mutant", "--level", "--adapter"} {
		add("sim/flag "+flag, "sim", flag, outside, plugin)
	}
	add("sim/flag --choice", "sim", "--choice", "fold-end="+outside, plugin)
	add("sim/flag --retry", "sim", "--level", "runtime", "--retry", outside, runtime)
	add("sim/--adapter-dir", "sim", "--adapter", "x", "--adapter-dir", outsideName, plugin)

	// check, both levels: the adapter's replies and stderr into the
	// console in every format and into every report; paths and values of
	// flags; a manifest's contents.
	reports := []string{"--junit", "{out}/r.xml", "--cucumber", "{out}/r.cucumber.json", "--json", "{out}/r.json", "--counterexamples", "{out}/cx"}
	for _, m := range []string{"identity", "error", "crash", "exception", "text"} {
		add("check/adapter "+m, append([]string{"check", "--checks", "1", "--format", "progress", "--adapter", adapter("plugin", m)}, reports...)...)
		add("check/runtime/adapter "+m, append([]string{"check", "--level", "runtime", "--checks", "1", "--format", "progress", "--adapter", adapter("runtime", m)}, reports...)...)
	}
	add("check/adapter error/pretty", append([]string{"check", "--format", "pretty", "--only", "features", "--adapter", adapter("plugin", "error")}, reports...)...)
	add("check/adapter error/summary", append([]string{"check", "--only", "features", "--adapter", adapter("plugin", "error")}, reports...)...)
	for _, flag := range []string{"--json", "--junit", "--cucumber"} {
		add("check/path "+flag, "check", "--only", "features", flag, "nodir"+outsideName+"/r.json")
	}
	add("check/path --expect", "check", "--expect", outsideName)
	add("check/path --counterexamples", "check", "--counterexamples", outsideName+".yaml")
	add("check/path --adapter-dir", "check", "--adapter", "x", "--adapter-dir", "nodir"+outsideName)
	add("check/manifest contents", "check", "--mutant", "pending-survives-restart", "--only", "features", "--tags", "@PEND-8", "--expect", "outside-manifest.txt", "--junit", "{out}/r.xml", "--json", "{out}/r.json", "--cucumber", "{out}/r.cucumber.json")
	quiet("check/malformed manifest", "check", "--expect", "malformed-manifest.txt") // the error names the line
	for _, flag := range []string{"--tags", "--only", "--format", "--assume", "--restarts", "--mutant", "--checks"} {
		add("check/flag "+flag, "check", flag, outside)
	}
	add("check/flag --choice", "check", "--choice", "fold-end="+outside)

	// explore and diff, both levels.
	add("explore/adapter error", "explore", "--depth", "2", "--adapter", adapter("plugin", "error"), "--out", "{out}")
	add("explore/runtime/adapter error", "explore", "--level", "runtime", "--depth", "1", "--adapter", adapter("runtime", "error"), "--out", "{out}")
	add("explore/runtime/adapter identity", "explore", "--level", "runtime", "--depth", "1", "--adapter", adapter("runtime", "identity"), "--out", "{out}")
	add("explore/adapter text", "explore", "--depth", "3", "--adapter", adapter("plugin", "text"), "--out", "{out}")
	add("explore/runtime/adapter text", "explore", "--level", "runtime", "--depth", "1", "--adapter", adapter("runtime", "text"), "--out", "{out}")
	add("explore/path --out", "explore", "--out", outsideName+".yaml")
	add("explore/runtime/path --out", "explore", "--level", "runtime", "--out", outsideName+".yaml")
	add("explore/path --expect", "explore", "--expect", outsideName)
	for _, flag := range []string{"--retries", "--empty-steps", "--assume"} {
		add("explore/flag "+flag, "explore", flag, outside)
	}
	for _, m := range []string{"identity", "error", "text"} {
		add("diff/adapter "+m, "diff", "--cases", "3", "--depth", "1", "--adapter", adapter("plugin", m), "--out", "{out}", "--json", "{out}/r.json", "--junit", "{out}/r.xml")
		add("diff/runtime/adapter "+m, "diff", "--level", "runtime", "--cases", "2", "--steps", "5", "--depth", "1", "--adapter", adapter("runtime", m), "--out", "{out}", "--json", "{out}/r.json", "--junit", "{out}/r.xml")
	}
	add("diff/path --json", "diff", "--json", "nodir"+outsideName+"/r.json")
	add("diff/runtime/path --json", "diff", "--level", "runtime", "--json", "nodir"+outsideName+"/r.json")
	add("diff/path --out", "diff", "--out", outsideName+".yaml")
	add("diff/path --expect", "diff", "--expect", outsideName)
	add("diff/flag --assume", "diff", "--assume", outside)

	// compare: report contents in every format, file names, standard input.
	for _, f := range []string{"text", "markdown", "json"} {
		add("compare/report contents/"+f, "compare", "--format", f, "old.json", "new.json")
	}
	add("compare/unknown status", "compare", "old.json", "unknown-status.json")
	add("compare/file name, not JSON", "compare", "old.json", outsideName+".yaml")
	add("compare/missing file name", "compare", "old.json", "nodir"+outsideName+"/r.json")
	quiet("compare/invalid UTF-8", "compare", "old.json", "invalid-utf8.json")
	add("compare/mismatched suites", "compare", "old.json", outsideName+".json")
	cases = append(cases, outsideCase{name: "compare/standard input", args: []string{"compare", "old.json", "-"}, stdin: mustRead(t, filepath.Join(d, "new.json"))})
	add("compare/flag --format", "compare", "--format", outside, "old.json", "new.json")

	// lint: log contents, file names, standard input, flag values.
	add("lint/log contents/text", "lint", "outside.jsonl")
	add("lint/log contents/json", "lint", "--format", "json", "outside.jsonl")
	add("lint/file name", "lint", outsideName+".jsonl")
	add("lint/missing file name", "lint", "nodir"+outsideName+"/l.jsonl")
	cases = append(cases, outsideCase{name: "lint/standard input", args: []string{"lint", "-"}, stdin: mustRead(t, filepath.Join(d, "outside.jsonl"))})
	add("lint/flag --choice", "lint", "--choice", outside, "outside.jsonl")

	// serve, both levels: request lines.
	requests := strings.Join([]string{
		`{"seq":1,"method":"start","params":{"protocol":1}}`,
		fmt.Sprintf(`{"seq":2,"method":"load","params":{"config":{"section":%s}}}`, jsonString(outside)),
		fmt.Sprintf(`{"seq":3,"method":%s,"params":{}}`, jsonString(outside)),
		strings.ReplaceAll(outside, "\n", " "),
	}, "\n") + "\n"
	cases = append(cases,
		outsideCase{name: "serve/request lines", args: []string{"serve"}, stdin: requests},
		outsideCase{name: "serve/runtime/request lines", args: []string{"serve", "--level", "runtime"}, stdin: strings.Replace(requests, `"params":{"protocol":1}`, `"params":{"protocol":1,"level":"runtime"}`, 1)},
	)

	// mutants, docs, catalog, schema and the root command: paths and
	// values.
	cases = append(cases, outsideCase{name: "mutants/path --out", args: []string{"mutants", "--matrix", "--out", "nodir" + outsideName + "/m.md"}, timeout: time.Minute})
	quiet("mutants/--out without --matrix", "mutants", "--out", outsideName)
	add("docs/--root", "docs", "--root", "nodir"+outsideName)
	add("catalog/subcommand", "catalog", "clauses", outside)
	add("schema/argument", "schema", outside)
	add("root/command", outside)
	quiet("root/flag", "--"+outside) // pflag names the flag up to its "="

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Each case its own process and directory: they run at once
			// (-parallel, GOMAXPROCS by default), most waiting on a child.
			t.Parallel()
			out := filepath.Join(d, "out", strings.NewReplacer("/", "_", " ", "_").Replace(tc.name))
			if err := os.MkdirAll(out, 0o755); err != nil {
				t.Fatal(err)
			}
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.ReplaceAll(a, "{out}", out)
			}
			timeout := tc.timeout
			if timeout == 0 {
				timeout = 2 * time.Minute
			}
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			cmd := exec.CommandContext(ctx, plankit, args...)
			cmd.Dir = d
			cmd.Stdin = strings.NewReader(tc.stdin)
			code, stdout, stderr := runProgram(t, cmd)
			if ctx.Err() != nil {
				t.Fatalf("still running after %v: killed (exit %d)\n%s", timeout, code, clipped(stderr))
			}
			all := stdout + stderr
			problems := append(inertProblems("stdout", []byte(stdout)), inertProblems("stderr", []byte(stderr))...)
			err := filepath.WalkDir(out, func(p string, e os.DirEntry, err error) error {
				if err != nil || e.IsDir() {
					return err
				}
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				all += string(data)
				rel, _ := filepath.Rel(out, p)
				problems = append(problems, inertProblems(rel, data)...)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range problems {
				t.Error(p)
			}
			if !tc.quiet && !strings.Contains(all, "OUTSIDE") && !strings.Contains(all, "NAME") && !strings.Contains(all, "ADAPTER") {
				t.Errorf("exit %d, and no outside text reached the output, escaped or not: the case shows nothing\nstdout: %s\nstderr: %s", code, clipped(stdout), clipped(stderr))
			}
		})
	}
}

// writeOutsideFixtures writes the inputs of TestOutsideTextIsInert into
// dir: traces, a log, manifests and reports whose text is outside text,
// and files named by it.
func writeOutsideFixtures(t *testing.T, dir string) {
	t.Helper()
	q := jsonString // a YAML double-quoted string is a JSON string
	files := map[string]string{
		"examples/plugin.yaml": mustRead(t, "../../examples/cmd-plan-message-steers.yaml"),
		"examples/runtime.yaml": `level: runtime
name: a turn, a command, a get
config: {section: "Plan first."}
services: {commands: true, userQuestions: true}
hostTools: [{name: read_file}]
steps:
  - turn:
      agent: main
      prompt: Read the code.
      script:
        responses:
          - calls: [{id: r1, name: read_file, args: {path: a.go}}]
          - text: Read it.
  - command: {agent: main, input: "/plan"}
  - turn: {agent: main, prompt: Plan., script: {responses: [{text: A plan.}]}}
  - get: {agent: main}
`,
		"outside.yaml": fmt.Sprintf(`name: %[1]s
description: %[1]s
clauses: [CMD-2]
script:
  - command: {agent: main, input: %[2]s}
    expect:
      command: {steered: [%[1]s]}
  - step: {agent: main}
    expect:
      userMessages: [%[1]s]
      sectionText: %[1]s
`, q(outsideTrace), q("/plan "+outsideTrace)),
		"malformed.yaml": fmt.Sprintf("name: t\nscript:\n  - step: {agent: main, %s: 1}\n", q(outsideTrace)),
		"outside-rt.yaml": fmt.Sprintf(`level: runtime
name: %[1]s
description: %[1]s
config: {section: %[1]s}
services: {commands: true, userQuestions: true}
hostTools: [{name: read_file}]
steps:
  - turn:
      agent: main
      prompt: %[1]s
      script:
        responses:
          - during: [{id: s1, set: {active: true}}]
            calls: [{id: r1, name: read_file, args: {path: %[1]s}}]
          - text: %[1]s
    expect: {clause: PEND-1, planMode: [false]}
  - command: {agent: main, input: %[2]s}
  - get: {agent: main}
    expect: {clause: PEND-7, state: {active: false, pending: none}}
`, q(outsideTrace), q("/plan "+outsideTrace)),
		"outside.jsonl": strings.Join([]string{
			`{"type":"session","version":0,"id":` + q(outside) + `}`,
			`{"type":"plan/mode","seq":0,"data":{"active":` + q(outside) + `}}`,
			`{"type":` + q(outside) + `,"seq":1,"data":{"x":` + q(outside) + `}}`,
			strings.ReplaceAll(outside, "\n", " ") + " not JSON",
		}, "\n") + "\n",
		"outside-manifest.txt":   "id:pend-lost-at-restart -- " + strings.ReplaceAll(outside, "\n", " ") + "\nclause:PEND-8 -- " + strings.ReplaceAll(outside, "\n", " ") + "\n",
		"malformed-manifest.txt": strings.ReplaceAll(outside, "\n", " ") + "\n",
		"invalid-utf8.json":      `{"suite":"plankit","suiteVersion":"1.0.0","verdict":"pass","cases":[{"id":"a","status":"passed","message":"` + "\xff" + `"}]}`,
	}
	old, newer, unknown, other := outsideReports()
	files["old.json"], files["new.json"], files["unknown-status.json"], files[outsideName+".json"] = old, newer, unknown, other
	files[outsideName+".yaml"] = files["examples/plugin.yaml"]
	files[outsideName+"-rt.yaml"] = files["examples/runtime.yaml"]
	files[outsideName+".jsonl"] = mustRead(t, "../../lint/testdata/dsh/plan-review.jsonl")
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// outsideReports are plankit JSON reports whose every text is outside
// text: check IDs, messages (with Markdown that would load an image and
// run a script), clauses, the implementation, how the run was made.
func outsideReports() (old, newer, unknownStatus, otherSuite string) {
	md := "![x](https://example.invalid/p.png) [t](javascript:alert(1)) <img src=x> " + outside
	c := func(id, status, msg string, clauses ...string) map[string]any {
		return map[string]any{"id": id, "kind": "scenario", "status": status, "message": msg, "clauses": clauses}
	}
	run := func(verdict string, cases ...map[string]any) map[string]any {
		return map[string]any{"suite": "plankit", "suiteVersion": "1.0.0", "seed": 1, "verdict": verdict, "filter": outside, "manifest": outside,
			"implementation": map[string]any{"name": outside, "version": outside, "language": "go", "choices": map[string]string{outside: outside}},
			"clauses":        []any{}, "cases": cases}
	}
	enc := func(v any) string {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			panic(err)
		}
		return string(b)
	}
	o := run("pass", c(outside, "passed", ""), c("fixed", "failed", md, outside), c("changed", "failed", md, "PEND-1"), c("not-run", "passed", ""))
	n := run("fail", c(outside, "failed", md, outside), c("fixed", "passed", ""), c("changed", "failed", outside, "PEND-2"), c("not-run", "not-run", md))
	u := run("fail", c(outside, "::error::STATUS\n"+outside, md))
	s := run("pass", c(outside, "passed", ""))
	s["suite"] = outside
	return enc(o), enc(n), enc(u), enc(s)
}

func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
