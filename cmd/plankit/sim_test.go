package main

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/trace"
)

// run invokes plankit through its real entry point. A check writes its
// counterexamples to a temporary directory, never into the source tree.
func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if len(args) > 0 && args[0] == "check" && !slices.Contains(args, "--counterexamples") {
		args = append(args, "--counterexamples", t.TempDir())
	}
	var out, errb bytes.Buffer
	code = Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestEveryExamplePasses(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			code, out, errs := run(t, "sim", f)
			if code != ExitPass {
				t.Fatalf("plankit sim %s: exit %d\n%s\n%s", f, code, out, errs)
			}
		})
	}
}

func TestSimExitCodes(t *testing.T) {
	t.Run("malformed trace exits 2 with file:line:column and field", func(t *testing.T) {
		code, _, errs := run(t, "sim", "../../trace/testdata/bad/unknown-agent.yaml")
		if code != ExitUsage || !strings.Contains(errs, "unknown-agent.yaml:6:14: script[1].set.agent: unknown agent") {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
	})
	t.Run("failed expectation exits 1 naming the action", func(t *testing.T) {
		code, out, errs := run(t, "sim", "testdata/failing-expectation.yaml")
		if code != ExitFail || !strings.Contains(errs, "failing-expectation.yaml:4:5: action 2 (set): outcome: expected committed, got queued") {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		if !strings.Contains(out, "FAIL outcome: expected committed, got queued") {
			t.Fatalf("timeline does not mark the failure:\n%s", out)
		}
	})
	t.Run("a failed expectation exits 1 also when the run then cannot go on", func(t *testing.T) {
		code, out, errs := run(t, "sim", "testdata/failing-expectation-then-stuck.yaml")
		if code != ExitFail || !strings.Contains(errs, "action 1 (set): outcome: expected queued, got committed; the run then stopped") {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		if !strings.Contains(out, "FAIL outcome: expected queued, got committed") || !strings.Contains(out, "STOPPED") {
			t.Fatalf("timeline does not show the failure and the stop:\n%s", out)
		}
	})
	t.Run("an unreadable trace is reported and the others still run", func(t *testing.T) {
		code, out, errs := run(t, "sim", "testdata/none.yaml", "testdata/failing-expectation.yaml")
		if code != ExitUsage || !strings.Contains(errs, "none.yaml") || !strings.Contains(out, "FAIL outcome") {
			t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errs)
		}
	})
	t.Run("missing file exits 2", func(t *testing.T) {
		if code, _, _ := run(t, "sim", "testdata/none.yaml"); code != ExitUsage {
			t.Fatalf("exit %d", code)
		}
	})
	t.Run("unknown format exits 2", func(t *testing.T) {
		if code, _, _ := run(t, "sim", "--format", "xml", "testdata/failing-expectation.yaml"); code != ExitUsage {
			t.Fatalf("exit %d", code)
		}
	})
	t.Run("unknown mutant exits 2", func(t *testing.T) {
		if code, _, _ := run(t, "sim", "--mutant", "nope", "testdata/failing-expectation.yaml"); code != ExitUsage {
			t.Fatalf("exit %d", code)
		}
	})
	t.Run("no arguments exits 2", func(t *testing.T) {
		if code, _, _ := run(t, "sim"); code != ExitUsage {
			t.Fatalf("exit %d", code)
		}
	})
	t.Run("a mutant fails an example with exit 1", func(t *testing.T) {
		code, _, errs := run(t, "sim", "--mutant", "narrate-twice", "../../examples/step-narration-header-mismatch.yaml")
		if code != ExitFail || !strings.Contains(errs, "action 5 (step): appended: expected 6 events") {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
	})
}

// unstartablePort is an implementation whose process cannot be started.
type unstartablePort struct{ sim.Port }

func (unstartablePort) Start() (sim.Identity, error) {
	return sim.Identity{}, errors.New("exec: no such file")
}

func TestImplementationFailureIsExit3(t *testing.T) {
	tr, err := trace.ReadFile("testdata/failing-expectation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	code, err := runCode(trace.Execute(tr, unstartablePort{}))
	if code != ExitImpl || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("code %d err %v", code, err)
	}
}
