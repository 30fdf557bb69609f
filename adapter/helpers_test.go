package adapter_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/internal/proctest"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/render"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/trace"
)

// builds holds the programs the tests drive, built once per test binary.
var builds proctest.Builds

func TestMain(m *testing.M) {
	if os.Getenv(echoEnv) == "1" {
		echo()
		return
	}
	code := m.Run()
	builds.Remove()
	os.Exit(code)
}

// build compiles a main package of the module (a path from the module
// root), once per test binary.
func build(t testing.TB, pkg string) string { return buildEnv(t, pkg) }

// buildEnv is build with extra environment for go build (e.g.
// CGO_ENABLED=0).
func buildEnv(t testing.TB, pkg string, env ...string) string {
	t.Helper()
	return builds.Program(t, filepath.Join("..", pkg), env...)
}

func plankitBin(t testing.TB) string { return build(t, "./cmd/plankit") }
func fakeBin(t testing.TB) string    { return build(t, "./adapter/testdata/fakeadapter") }

// traces are every example trace plus the driver's tour of every request.
func traces(t testing.TB) []string {
	t.Helper()
	ex, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(ex) == 0 {
		t.Fatalf("no example traces: %v", err)
	}
	tours, _ := filepath.Glob("testdata/traces/*.yaml")
	return append(ex, tours...)
}

func readTrace(t testing.TB, path string) *trace.Trace {
	t.Helper()
	tr, err := trace.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// timeline runs a trace against port and renders the text timeline.
func timeline(t testing.TB, tr *trace.Trace, port sim.Port) (string, *trace.Run) {
	t.Helper()
	run := trace.Execute(tr, port)
	var b bytes.Buffer
	if err := render.Write(&b, "text", run); err != nil {
		t.Fatal(err)
	}
	return b.String(), run
}

func refPort() sim.Port { return reference.NewPort(reference.Options{}) }

func inProcess(t testing.TB, tr *trace.Trace) string {
	out, run := timeline(t, tr, refPort())
	if run.Err != nil {
		t.Fatalf("in-process run of %s: %v", tr.File, run.Err)
	}
	return out
}

func newPool(t testing.TB, opts adapter.Options) *adapter.Pool {
	t.Helper()
	pool, err := adapter.NewPool(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// echoEnv makes the test binary an echo process: every line read on stdin
// is written back at once (BenchmarkPipeFloor).
const echoEnv = "PLANKIT_ADAPTER_TEST_ECHO"

func echo() {
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadSlice('\n')
		if err != nil {
			return
		}
		out.Write(line)
		if out.Flush() != nil {
			return
		}
	}
}
