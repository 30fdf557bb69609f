package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckAtRuntimeLevel(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"built-in runtime", []string{"check", "--level", "runtime"}, ExitPass, "verdict: pass"},
		{"a mutant fails", []string{"check", "--level", "runtime", "--mutant", "retry-not-observed", "--only", "features"}, ExitFail, "FAIL rt-step-retry-observed [STEP-2"},
		{"a loop mutant fails under its clause", []string{"check", "--level", "runtime", "--mutant", "header-only-on-change", "--only", "features"}, ExitFail, "FAIL rt-step-header-per-request [STEP-7 STEP-6] first departure"},
		{"the plan-mode listener appended fails STEP-1", []string{"check", "--level", "runtime", "--mutant", "listener-appended", "--only", "features"}, ExitFail, "FAIL rt-step-listener-wraps-host-listeners [STEP-1 "},
		{"## Plan accepted fails EXIT-3", []string{"check", "--level", "runtime", "--mutant", "plan-heading-any-level", "--only", "features"}, ExitFail, "FAIL rt-exit-plan-heading/level-2-heading [EXIT-3] first departure"},
		{"a loop mutant needs the runtime level", []string{"check", "--mutant", "header-only-on-change"}, ExitUsage, "needs --level runtime"},
		{"the shipped retry fails STEP-2", []string{"check", "--level", "runtime", "--retry", "same-step", "--only", "features"}, ExitFail, "FAIL rt-step-retry-observed"},
		{"a tag filter", []string{"check", "--level", "runtime", "--tags", "@PEND-8"}, ExitPass, "7 checks: 7 passed"},
		{"unknown level", []string{"check", "--level", "loop"}, ExitUsage, `--level "loop"`},
		{"retry needs runtime level", []string{"check", "--retry", "none"}, ExitUsage, "--retry"},
		{"bad retry", []string{"check", "--level", "runtime", "--retry", "sometimes"}, ExitUsage, "retry must be"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := run(t, c.args...)
			if code != c.code || !strings.Contains(out+errs, c.want) {
				t.Fatalf("plankit %s: exit %d, want %d with %q\n%s\n%s", strings.Join(c.args, " "), code, c.code, c.want, out, errs)
			}
		})
	}
}

func TestSimAtRuntimeLevel(t *testing.T) {
	files, err := filepath.Glob("../../examples/runtime/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no runtime examples: %v", err)
	}
	code, out, errs := run(t, append([]string{"sim", "--level", "runtime"}, files...)...)
	if code != ExitPass {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	again, _, _ := run(t, append([]string{"sim", "--level", "runtime"}, files...)...)
	if again != code {
		t.Fatal("not deterministic")
	}
	_, out2, _ := run(t, append([]string{"sim", "--level", "runtime"}, files...)...)
	if out2 != out {
		t.Fatalf("two runs print different timelines")
	}
	code, out, _ = run(t, "sim", "--level", "runtime", "--retry", "same-step", "../../examples/runtime/step-retry-through-pre-step.yaml")
	if code != ExitFail || !strings.Contains(out, "STEP-2") {
		t.Fatalf("same-step retry: exit %d\n%s", code, out)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("level: runtime\nsteps:\n  - get: {agent: bob}\n"), 0o644)
	code, _, errs = run(t, "sim", "--level", "runtime", bad)
	if code != ExitUsage || !strings.Contains(errs, "bad.yaml:3:") {
		t.Fatalf("bad trace: exit %d: %s", code, errs)
	}
	code, _, _ = run(t, "sim", "--level", "runtime", "--format", "json", files[0])
	if code != ExitPass {
		t.Fatalf("json: exit %d", code)
	}
}

// Through the runtime protocol: plankit serve --level runtime passes the
// check, the Python runtime passes it, and a plugin adapter given to the
// runtime level is refused with exit 3.
func TestRuntimeProtocol(t *testing.T) {
	if testing.Short() {
		t.Skip("builds plankit and spawns processes")
	}
	bin := plankitBin(t)
	code, out, errs := run(t, "check", "--level", "runtime", "--validate-protocol", "--checks", "20", "--adapter", bin+" serve --level runtime")
	if code != ExitPass {
		t.Fatalf("serve --level runtime: exit %d\n%s\n%s", code, out, errs)
	}
	if _, err := exec.LookPath("python3"); err == nil {
		code, out, errs = run(t, "check", "--level", "runtime", "--validate-protocol", "--checks", "20", "--adapter", "python3 ../../examples/runtimes/python/runtime.py")
		if code != ExitPass {
			t.Fatalf("python runtime: exit %d\n%s\n%s", code, out, errs)
		}
	}
	code, _, errs = run(t, "check", "--level", "runtime", "--adapter", bin+" serve")
	if code != ExitImpl || !strings.Contains(errs, "level") {
		t.Fatalf("plugin adapter at runtime level: exit %d: %s", code, errs)
	}
	code, _, errs = run(t, "check", "--adapter", bin+" serve --level runtime")
	if code != ExitImpl || !strings.Contains(errs, "this is a runtime") {
		t.Fatalf("runtime at plugin level: exit %d: %s", code, errs)
	}
}

// The manifest works at runtime level as at plugin level: --fix writes the
// failures of a mutant, the run then passes with it, and a run of the
// faithful runtime with that manifest fails on the unexpected passes.
func TestManifestAtRuntimeLevel(t *testing.T) {
	m := filepath.Join(t.TempDir(), "expected.txt")
	args := []string{"check", "--level", "runtime", "--mutant", "retry-not-observed", "--expect", m}
	if code, out, errs := run(t, append(args, "--fix")...); code != ExitPass {
		t.Fatalf("--fix: exit %d\n%s\n%s", code, out, errs)
	}
	data, _ := os.ReadFile(m)
	if !strings.Contains(string(data), "rt-step-retry-observed") {
		t.Fatalf("manifest:\n%s", data)
	}
	if code, out, errs := run(t, args...); code != ExitPass {
		t.Fatalf("with the manifest: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, _ := run(t, "check", "--level", "runtime", "--expect", m); code != ExitFail {
		t.Fatalf("the faithful runtime with a stale manifest: exit %d, want 1", code)
	}
}

func TestExploreAtRuntimeLevel(t *testing.T) {
	if code, out, errs := run(t, "explore", "--level", "runtime", "--depth", "2"); code != ExitPass || !strings.Contains(out, "no violation") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	dir := t.TempDir()
	code, out, _ := run(t, "explore", "--level", "runtime", "--depth", "2", "--mutant", "narrate-twice", "--out", dir)
	if code != ExitFail || !strings.Contains(out, "STEP-6") {
		t.Fatalf("mutant: exit %d\n%s", code, out)
	}
	path := filepath.Join(dir, "runtime-lockstep-depth2.yaml")
	if code, _, _ := run(t, "sim", "--level", "runtime", "--mutant", "narrate-twice", path); code != ExitFail {
		t.Fatalf("replay against the mutant: exit %d, want 1", code)
	}
	if code, _, _ := run(t, "sim", "--level", "runtime", path); code != ExitPass {
		t.Fatalf("replay against the built-in runtime: exit %d, want 0", code)
	}
}

// TestRuntimeSimFailedExpectationThenStuck: a runtime trace whose
// expectation fails and whose run then stops at a step it cannot perform
// exits 1 (an expectation failed), not 2.
func TestRuntimeSimFailedExpectationThenStuck(t *testing.T) {
	code, _, errs := run(t, "sim", "--level", "runtime", "testdata/runtime-failing-then-stuck.yaml")
	if code != ExitFail || !strings.Contains(errs, `set outcome: got "committed", want "queued"; the run then stopped`) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}
