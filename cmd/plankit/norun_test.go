package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// trapNames are programs a command might run behind the user's back: the
// Go toolchain (a dependency once ran `go env` at start-up), shells,
// interpreters, version control and downloaders.
var trapNames = []string{"go", "gofmt", "git", "sh", "bash", "node", "npm", "npx", "python", "python3", "curl", "wget", "uname", "xdg-open", "open"}

// TestNoProgramRun runs every command (but the hidden generator `docs`,
// which writes into the module) with a PATH holding only traps that
// record their invocation, and fails if any trap ran: plankit runs no
// program but the adapter command it is given. A last subtest gives a
// trapped name as the adapter and expects the trap to fire, which shows
// the traps work. The test binary of a separate module that runs
// conformance.Test, built against plankit from a module proxy
// (TestInstallFromAModuleProxy), runs under the same traps.
func TestNoProgramRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the traps are shell scripts")
	}
	dir := t.TempDir()
	plankit := plankitBin(t)
	traps := filepath.Join(dir, "traps")
	record := filepath.Join(dir, "ran.log")
	if err := os.Mkdir(traps, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range trapNames {
		script := fmt.Sprintf("#!/bin/sh\necho \"%s $*\" >> %s\nexit 97\n", name, record)
		if err := os.WriteFile(filepath.Join(traps, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	example := filepath.Join(root, "examples", "pend-restart-loses-late-selection.yaml")
	logs, _ := filepath.Glob(filepath.Join(root, "lint", "testdata", "dsh", "*.jsonl"))
	if len(logs) == 0 {
		t.Fatal("no lint fixtures")
	}
	serve := plankit + " serve"
	out := t.TempDir()
	runs := []struct {
		args  []string
		stdin string
		codes []int // acceptable exit codes: the command really ran
	}{
		{[]string{"--help"}, "", []int{0}},
		{[]string{"sim", example}, "", []int{0}},
		{[]string{"sim", "--format", "json", "--adapter", serve, example}, "", []int{0}},
		{[]string{"check", "--checks", "2", "--json", filepath.Join(out, "a.json"), "--counterexamples", filepath.Join(out, "cx")}, "", []int{0}},
		{[]string{"check", "--checks", "2", "--adapter", serve, "--json", filepath.Join(out, "b.json"), "--counterexamples", filepath.Join(out, "cx")}, "", []int{0}},
		{[]string{"check", "--mutant", "pending-survives-restart", "--only", "features", "--counterexamples", filepath.Join(out, "cx")}, "", []int{0, 1}},
		{[]string{"explore", "--depth", "2"}, "", []int{0}},
		{[]string{"explore", "--depth", "2", "--adapter", serve}, "", []int{0}},
		{append([]string{"lint"}, logs...), "", []int{0, 1}},
		{[]string{"serve"}, `{"seq":1,"method":"start","params":{"protocol":1}}` + "\n" + `{"seq":2,"method":"stop","params":{}}` + "\n", []int{0}},
		{[]string{"serve", "--validate-protocol"}, `{"seq":1,"method":"start","params":{"protocol":1}}` + "\n", []int{0}},
		{[]string{"catalog", "clauses"}, "", []int{0}},
		{[]string{"catalog", "events"}, "", []int{0}},
		{[]string{"catalog", "service"}, "", []int{0}},
		{[]string{"catalog", "coverage"}, "", []int{0}},
		{[]string{"check", "--level", "runtime", "--checks", "2", "--json", filepath.Join(out, "c.json"), "--counterexamples", filepath.Join(out, "cx")}, "", []int{0}},
		{[]string{"check", "--level", "runtime", "--checks", "2", "--adapter", serve + " --level runtime", "--counterexamples", filepath.Join(out, "cx")}, "", []int{0}},
		{[]string{"explore", "--level", "runtime", "--depth", "1"}, "", []int{0}},
		{[]string{"schema"}, "", []int{0}},
		{[]string{"compare", filepath.Join(root, "compare", "testdata", "dsh-plan-mode-0.1.0-rc.8.json"), filepath.Join(root, "compare", "testdata", "dsh-plan-mode-mutated.json")}, "", []int{1}},
	}
	env := append(os.Environ(), "PATH="+traps, "GOTOOLCHAIN=auto", "GOFLAGS=")
	for _, r := range runs {
		t.Run(strings.Join(r.args, " "), func(t *testing.T) {
			os.Remove(record)
			code, stderr := runIn(t, root, env, plankit, r.stdin, r.args...)
			if !containsInt(r.codes, code) {
				t.Fatalf("exit %d, want one of %v (the command did not really run):\n%s", code, r.codes, stderr)
			}
			if b, err := os.ReadFile(record); err == nil {
				t.Fatalf("plankit %s ran programs from PATH:\n%s", strings.Join(r.args, " "), b)
			}
		})
	}
	// A Go implementer's module gets the same guarantee: its test binary,
	// linking conformance (and so the patched godog) from plankit as
	// released, runs the suite against the reference with only the traps
	// on PATH.
	t.Run("a downstream module's go test", func(t *testing.T) {
		ds := downstreamModule(t)
		os.Remove(record)
		cmd := exec.Command(ds.testBin, "-test.count=1")
		cmd.Dir, cmd.Env = ds.dir, env
		code, stdout, stderr := runProgram(t, cmd)
		if code != 0 || !strings.Contains(stdout, "PASS") {
			t.Fatalf("the downstream module's test binary exits %d (want 0: the suite really ran):\n%s%s", code, stdout, stderr)
		}
		if b, err := os.ReadFile(record); err == nil {
			t.Fatalf("the test binary of a module importing conformance ran programs from PATH:\n%s", b)
		}
	})
	t.Run("the traps fire", func(t *testing.T) {
		os.Remove(record)
		code, _ := runIn(t, root, env, plankit, "", "sim", "--adapter", "go run ./adapter", example)
		if code != ExitImpl {
			t.Errorf("exit %d with a trapped adapter, want %d", code, ExitImpl)
		}
		b, err := os.ReadFile(record)
		if err != nil || !strings.HasPrefix(string(b), "go run ./adapter") {
			t.Fatalf("the trap did not record the adapter it was given as the adapter: %q, %v", b, err)
		}
	})
}

func runIn(t *testing.T, dir string, env []string, prog, stdin string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = strings.NewReader(stdin)
	code, _, errs := runProgram(t, cmd)
	return code, errs
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
