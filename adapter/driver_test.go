package adapter_test

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/internal/proctest"
	"github.com/plankit/plankit/sim"
)

// A served reference gives the same timeline as the in-process one, byte
// for byte (the identity included: it is the same implementation), for
// every example trace and the tour of every request.
func TestServeMatchesInProcess(t *testing.T) {
	pool := newPool(t, adapter.Options{Command: []string{plankitBin(t), "serve"}, Validate: true})
	for _, f := range traces(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			tr := readTrace(t, f)
			want := inProcess(t, tr)
			got, run := timeline(t, tr, pool.Port())
			if run.Err != nil {
				t.Fatalf("served run: %v", run.Err)
			}
			if got != want {
				t.Fatalf("served timeline differs from in-process:\n--- served\n%s\n--- in-process\n%s", got, want)
			}
		})
	}
	if n := pool.Failures(); n != 0 {
		t.Fatalf("%d processes failed", n)
	}
}

// The Python example passes every example trace and its timeline equals
// the reference's except for the implementation line.
func TestPythonExampleMatchesReference(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatalf("python3 is needed for the second-language example: %v", err)
	}
	pool := newPool(t, adapter.Options{Command: []string{"python3", "adapter.py"}, Dir: "../examples/adapters/python", Validate: true})
	for _, f := range traces(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			tr := readTrace(t, f)
			want := proctest.WithoutIdentity(inProcess(t, tr))
			out, run := timeline(t, tr, pool.Port())
			if run.Err != nil || run.Failed() {
				t.Fatalf("python run: err %v, failed %v\n%s", run.Err, run.Failed(), out)
			}
			withPlugin := tr.Runtime == nil || tr.Runtime.Plugin == nil || *tr.Runtime.Plugin
			if withPlugin && !strings.Contains(out, "implementation plankit-example-python 0.1.0 (python)") {
				t.Fatalf("no python identity line:\n%s", out)
			}
			if got := proctest.WithoutIdentity(out); got != want {
				t.Fatalf("python timeline differs from the reference:\n--- python\n%s\n--- reference\n%s", got, want)
			}
		})
	}
}

// broken runs the first example against a fake adapter that misbehaves at
// the second preStep and returns the run's error.
func broken(t *testing.T, opts adapter.Options, args ...string) (time.Duration, error) {
	t.Helper()
	opts.Command = append([]string{fakeBin(t)}, args...)
	if opts.Timeout == 0 {
		// Short for the hang; generous otherwise, so that a slow start on
		// a loaded machine is not mistaken for the failure under test.
		opts.Timeout = 10 * time.Second
		if args[0] == "hang" {
			opts.Timeout = time.Second
		}
	}
	pool := newPool(t, opts)
	tr := readTrace(t, "../examples/pend-mid-turn-later-turn.yaml")
	t0 := time.Now()
	_, run := timeline(t, tr, pool.Port())
	return time.Since(t0), run.Err
}

// Each broken adapter ends the run with an implementation error (exit 3)
// that names the request and the cause, well within a bound.
func TestBrokenAdapters(t *testing.T) {
	cases := []struct {
		mode     string
		kind     string
		contains []string
	}{
		{"hang", adapter.KindTimeout, []string{`seq 13 "preStep"`, "no reply within 1s", "hanging on preStep"}},
		{"crash", adapter.KindExited, []string{`seq 13 "preStep"`, "exited (exit status 7)", "stderr:", "simulated crash in preStep"}},
		{"garbage", adapter.KindProtocol, []string{`seq 13 "preStep"`, "not valid JSON", `reply: this is not json`, `expected: {"seq": 13, "result": {"decision"`}},
		{"schema", adapter.KindProtocol, []string{`seq 13 "preStep"`, "does not match the protocol schema", "/decision/kind", `reply: {"seq":13`, "expected:"}},
		{"wrongseq", adapter.KindProtocol, []string{`seq 13 "preStep"`, "has seq 14, want seq 13", "request:", "expected:"}},
		{"oversized", adapter.KindProtocol, []string{`seq 13 "preStep"`, "longer than the limit of 4194304 bytes", "docs/adapter-protocol.md#limits"}},
		{"flood-crash", adapter.KindExited, []string{`seq 13 "preStep"`, "stderr, last 4096 of", "simulated crash after the flood in preStep"}},
		{"error", adapter.KindReported, []string{`seq 13 "preStep"`, "failed to handle the request: simulated failure in preStep"}},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			took, err := broken(t, adapter.Options{}, c.mode, "preStep", "2")
			var impl *sim.ImplError
			if !errors.As(err, &impl) {
				t.Fatalf("want an implementation error, got %T %v", err, err)
			}
			var re *adapter.RequestError
			if !errors.As(err, &re) || re.Kind != c.kind || re.Method != "preStep" || re.Seq != 13 {
				t.Fatalf("want a %s failure of preStep seq 13, got %#v", c.kind, re)
			}
			for _, s := range c.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("message lacks %q:\n%v", s, err)
				}
			}
			if len(err.Error()) > 8000 {
				t.Errorf("message is %d bytes; quotes must be bounded", len(err.Error()))
			}
			if took > 20*time.Second {
				t.Errorf("took %v", took)
			}
		})
	}
}

// An exception the adapter caught inside the command's handler (minor 3)
// is an implementation error carrying its text, not a command reply the
// checks judge under CMD-2..4.
func TestCommandExceptionIsAnImplementationError(t *testing.T) {
	pool := newPool(t, adapter.Options{Command: []string{fakeBin(t), "exception", "command"}, Timeout: 10 * time.Second})
	_, run := timeline(t, readTrace(t, "../examples/cmd-plan-message-steers.yaml"), pool.Port())
	var impl *sim.ImplError
	var re *adapter.RequestError
	if !errors.As(run.Err, &impl) || !errors.As(run.Err, &re) || re.Kind != adapter.KindException ||
		!strings.Contains(run.Err.Error(), "TypeError: agent.steer is not a function") {
		t.Fatalf("want an implementation error of kind exception with the handler's text, got %T %v", run.Err, run.Err)
	}
}

func TestUnsupportedIsDistinct(t *testing.T) {
	_, err := broken(t, adapter.Options{}, "unsupported", "preStep", "1")
	var u *adapter.UnsupportedError
	if !errors.As(err, &u) || u.Method != "preStep" || u.Message != "preStep is not implemented" {
		t.Fatalf("want an UnsupportedError for preStep, got %T %v", err, err)
	}
	var re *adapter.RequestError
	if errors.As(err, &re) {
		t.Fatalf("unsupported must not be a RequestError: %v", err)
	}
}

// A stderr flood never blocks the run: it passes with the reference's
// timeline.
func TestStderrFloodDoesNotBlock(t *testing.T) {
	tr := readTrace(t, "../examples/pend-mid-turn-later-turn.yaml")
	pool := newPool(t, adapter.Options{Command: []string{fakeBin(t), "flood", "none"}, Timeout: 10 * time.Second})
	got, run := timeline(t, tr, pool.Port())
	if run.Err != nil {
		t.Fatal(run.Err)
	}
	if want := inProcess(t, tr); got != want {
		t.Fatalf("timeline differs under a stderr flood:\n%s", got)
	}
}

// Without --validate-protocol unknown fields are allowed; with it they are
// protocol errors.
func TestValidateRejectsUnknownFields(t *testing.T) {
	if _, err := broken(t, adapter.Options{}, "extra", "get", "1"); err != nil {
		t.Fatalf("lenient run failed: %v", err)
	}
	_, err := broken(t, adapter.Options{Validate: true}, "extra", "get", "1")
	if err == nil || !strings.Contains(err.Error(), "does not match the protocol schema") || !strings.Contains(err.Error(), "extra") {
		t.Fatalf("want a schema error naming the extra field, got %v", err)
	}
}

// A process that crashed is replaced for the next scenario; the
// restart budget bounds how many are replaced.
func TestCrashThenNextScenarioRuns(t *testing.T) {
	once := filepath.Join(t.TempDir(), "crashed")
	// No spare: the first process spawned must be the one that breaks.
	pool := newPool(t, adapter.Options{Command: []string{fakeBin(t), "crash", "preStep", "2", "--once", once}, Timeout: 2 * time.Second, NoSpare: true})
	tr := readTrace(t, "../examples/pend-mid-turn-later-turn.yaml")
	if _, run := timeline(t, tr, pool.Port()); run.Err == nil || !strings.Contains(run.Err.Error(), "simulated crash") {
		t.Fatalf("first scenario: want the crash, got %v", run.Err)
	}
	got, run := timeline(t, tr, pool.Port())
	if run.Err != nil || got != inProcess(t, tr) {
		t.Fatalf("second scenario after the crash: %v\n%s", run.Err, got)
	}
}

func TestRestartBudget(t *testing.T) {
	pool := newPool(t, adapter.Options{Command: []string{fakeBin(t), "crash", "start"}, RestartBudget: 2})
	for i := 0; i < 3; i++ {
		_, err := pool.Port().Start()
		var re *adapter.RequestError
		if !errors.As(err, &re) || re.Kind != adapter.KindExited {
			t.Fatalf("start %d: want the crash, got %v", i+1, err)
		}
	}
	_, err := pool.Port().Start()
	var se *adapter.StartError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "restart budget of 2") || !strings.Contains(err.Error(), "simulated crash in start") {
		t.Fatalf("want the budget to be spent, got %v", err)
	}
}

func TestCommandNotFound(t *testing.T) {
	pool := newPool(t, adapter.Options{Command: []string{filepath.Join(t.TempDir(), "no-such-adapter")}})
	_, err := pool.Port().Start()
	if err == nil || !strings.Contains(err.Error(), "cannot start") {
		t.Fatalf("want cannot start, got %v", err)
	}
}

func TestWorkingDirectory(t *testing.T) {
	// python3 adapter.py only resolves from the example's directory.
	pool := newPool(t, adapter.Options{Command: []string{"python3", "adapter.py"}, Dir: "../examples/adapters/python"})
	port := pool.Port()
	id, err := port.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer port.Stop()
	if id.Language != "python" {
		t.Fatalf("identity %+v", id)
	}
}
