package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/report"
)

// The JSON report of a check through an adapter says which restart policy
// ran and how many restarts of each kind it did; the counts are the same
// in a second run; an unknown policy is a usage error.
func TestCheckReportsRestarts(t *testing.T) {
	testRestartPolicies(t, "serve", "--checks", "4")
}

// At the runtime level --restarts means what it means at the plugin level
// (a reset is start sent to the same process, when the runtime declares
// reuse), by the same rule, and the JSON report counts both kinds.
func TestRuntimeCheckReportsRestarts(t *testing.T) {
	testRestartPolicies(t, "serve --level runtime", "--level", "runtime", "--checks", "40")
}

// testRestartPolicies checks the properties through plankit followed by
// serve (the built-in implementation served, with reuse) under each
// policy, with args.
func testRestartPolicies(t *testing.T, serve string, args ...string) {
	dir := t.TempDir()
	plankit := plankitBin(t)
	read := func(mode string) *report.Restarts {
		t.Helper()
		path := filepath.Join(dir, mode+".json")
		args := append([]string{"check", "--only", "properties", "--adapter", plankit + " " + serve, "--json", path, "--counterexamples", filepath.Join(dir, "cx")}, args...)
		if mode != "" {
			args = append(args, "--restarts", mode)
		}
		if code := Main(args, io.Discard, io.Discard); code != ExitPass {
			t.Fatalf("--restarts %q: exit %d", mode, code)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var rep report.Run
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Restarts == nil {
			t.Fatalf("--restarts %q: the report has no restarts", mode)
		}
		return rep.Restarts
	}
	auto := read("")
	if auto.Policy != "auto" || auto.Real == 0 || auto.Reset == 0 {
		t.Errorf("default policy: %+v, want auto with real and reset restarts", *auto)
	}
	if again := read("auto"); *again != *auto {
		t.Errorf("a second run counted %+v, the first %+v", *again, *auto)
	}
	total := auto.Real + auto.Reset
	if r := read("real"); r.Real != total || r.Reset != 0 {
		t.Errorf("--restarts real: %+v, want %d real", *r, total)
	}
	if r := read("reset"); r.Reset != total || r.Real != 0 {
		t.Errorf("--restarts reset: %+v, want %d reset", *r, total)
	}
	if code := Main(append([]string{"check", "--adapter", plankit + " " + serve, "--restarts", "sometimes"}, args...), io.Discard, io.Discard); code != ExitUsage {
		t.Errorf("--restarts sometimes: exit %d, want %d", code, ExitUsage)
	}
}

// A runtime that declares reuse promises that a start on a used process
// leaves nothing a new process would not have. Under --restarts reset
// every restart of the @PEND-8 scenarios is such a start, so a host that
// keeps a pending selection across it fails them (the fake runtime whose
// reset keeps it does, and passes with real restarts; under the default
// auto the properties' resets find it); the hosts this
// project ships pass them: plankit serve, the Python example and the dsh
// runtime host (when python3, and node with adapter/dsh-runtime's
// node_modules, are there).
func TestRuntimeResetForgetsWhatARestartLoses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds plankit and spawns processes")
	}
	check := func(adapter, restarts string) (int, string) {
		t.Helper()
		code, out, errs := run(t, "check", "--level", "runtime", "--only", "features", "--tags", "@PEND-8", "--restarts", restarts, "--adapter", adapter)
		return code, out + errs
	}
	fake := fakeRuntimeBin(t) + " keepsatreset start"
	if code, out := check(fake, "reset"); code != ExitFail || !strings.Contains(out, "rt-pend-lost-at-restart") {
		t.Errorf("a runtime whose reset keeps its pending selection, --restarts reset: exit %d, want %d failing rt-pend-lost-at-restart\n%s", code, ExitFail, out)
	}
	if code, out := check(fake, "real"); code != ExitPass {
		t.Errorf("the same runtime with real restarts: exit %d, want %d\n%s", code, ExitPass, out)
	}
	// Under the default auto the @PEND-8 scenarios restart it for real,
	// but the properties' resets meet the kept selection: a get right
	// after a restart reports it (PEND-8).
	code, out, errs := run(t, "check", "--level", "runtime", "--only", "properties", "--adapter", fake)
	if code != ExitFail || !strings.Contains(out+errs, "FAIL rt-invariants: PEND-8") {
		t.Errorf("the same runtime, the default --restarts auto: exit %d, want %d failing rt-invariants under PEND-8\n%s%s", code, ExitFail, out, errs)
	}
	hosts := []string{plankitBin(t) + " serve --level runtime"}
	if _, err := exec.LookPath("python3"); err == nil {
		hosts = append(hosts, "python3 ../../examples/runtimes/python/runtime.py")
	}
	if _, err := exec.LookPath("node"); err == nil {
		if _, err := os.Stat("../../adapter/dsh-runtime/node_modules/@deepseek-ai/dsh-agent-loop"); err == nil {
			hosts = append(hosts, "node ../../adapter/dsh-runtime/host.mjs")
		}
	}
	for _, h := range hosts {
		if code, out := check(h, "reset"); code != ExitPass {
			t.Errorf("%s, --restarts reset: exit %d\n%s", h, code, out)
		}
	}
}
