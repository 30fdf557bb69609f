package adapter_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/trace"
)

// BenchmarkRoundTrip measures request/reply round trips through
// `plankit serve`: one get per iteration on a started, loaded process.
func BenchmarkRoundTrip(b *testing.B) {
	roundTrips(b, adapter.Options{Command: []string{plankitBin(b), "serve"}})
}

// BenchmarkRoundTripPython is the same through the Python example.
func BenchmarkRoundTripPython(b *testing.B) {
	roundTrips(b, adapter.Options{Command: []string{"python3", "adapter.py"}, Dir: "../examples/adapters/python"})
}

// BenchmarkRoundTripValidated is BenchmarkRoundTrip with
// --validate-protocol.
func BenchmarkRoundTripValidated(b *testing.B) {
	roundTrips(b, adapter.Options{Command: []string{plankitBin(b), "serve"}, Validate: true})
}

func roundTrips(b *testing.B, opts adapter.Options) {
	pool := newPool(b, opts)
	port := pool.Port()
	if _, err := port.Start(); err != nil {
		b.Fatal(err)
	}
	defer port.Stop()
	if _, err := port.Load(sim.LoadRequest{Config: []byte(`{"section":"Plan first."}`), Services: sim.Services{Commands: true, UserQuestions: true}}); err != nil {
		b.Fatal(err)
	}
	if err := port.Open(sim.OpenRequest{Agent: "main"}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := port.Get(sim.Call{Agent: "main"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "roundtrips/s")
}

// BenchmarkExamplesServeVsInProcess runs every example trace
// (examples/*.yaml) in-process and through `plankit serve` in the same
// iteration and reports the wall-time ratio.
func BenchmarkExamplesServeVsInProcess(b *testing.B) {
	files, _ := filepath.Glob("../examples/*.yaml")
	servedVsInProcess(b, files, adapter.Options{Command: []string{plankitBin(b), "serve"}})
}

// BenchmarkExamplesPythonVsInProcess is the same through the Python
// example adapter.
func BenchmarkExamplesPythonVsInProcess(b *testing.B) {
	files, _ := filepath.Glob("../examples/*.yaml")
	servedVsInProcess(b, files, adapter.Options{Command: []string{"python3", "adapter.py"}, Dir: "../examples/adapters/python"})
}

// BenchmarkTourServeVsInProcess is the same for the driver's tour of
// every request, which restarts the process seven times.
func BenchmarkTourServeVsInProcess(b *testing.B) {
	servedVsInProcess(b, []string{"testdata/traces/tour.yaml"}, adapter.Options{Command: []string{plankitBin(b), "serve"}})
}

func servedVsInProcess(b *testing.B, files []string, opts adapter.Options) {
	if len(files) == 0 {
		b.Fatal("no traces")
	}
	var trs []*trace.Trace
	for _, f := range files {
		trs = append(trs, readTrace(b, f))
	}
	pool := newPool(b, opts)
	var local, served time.Duration
	for b.Loop() {
		t0 := time.Now()
		for _, tr := range trs {
			if run := trace.Execute(tr, reference.NewPort(reference.Options{})); run.Err != nil || run.Failed() {
				b.Fatalf("%s in-process: %v", tr.File, run.Err)
			}
		}
		t1 := time.Now()
		for _, tr := range trs {
			if run := trace.Execute(tr, pool.Port()); run.Err != nil || run.Failed() {
				b.Fatalf("%s through the adapter: %v", tr.File, run.Err)
			}
		}
		local += t1.Sub(t0)
		served += time.Since(t1)
	}
	b.ReportMetric(float64(local.Microseconds())/float64(b.N), "µs-in-process/op")
	b.ReportMetric(float64(served.Microseconds())/float64(b.N), "µs-served/op")
	b.ReportMetric(float64(served)/float64(local), "ratio")
}

// BenchmarkServeStart measures a cold start of `plankit serve`: spawn the
// process, the start handshake, stop and reap. No spare process and no
// reuse, so every iteration pays the whole start-up.
//
// "default" is the binary as go build makes it here (cgo on when a C
// toolchain is found: pflag and uuid import net, which then links the C
// resolver, so the binary is dynamically linked and every start runs the
// dynamic loader); "static" is the same code built with CGO_ENABLED=0,
// as scripts/conformance.sh builds it.
func BenchmarkServeStart(b *testing.B) {
	for _, c := range []struct {
		name string
		env  []string
	}{{"default", nil}, {"static", []string{"CGO_ENABLED=0"}}} {
		bin := buildEnv(b, "./cmd/plankit", c.env...)
		b.Run(c.name, func(b *testing.B) {
			pool := newPool(b, adapter.Options{Command: []string{bin, "serve"}, NoSpare: true, NoReuse: true})
			for b.Loop() {
				port := pool.Port()
				if _, err := port.Start(); err != nil {
					b.Fatal(err)
				}
				if err := port.Stop(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPipeFloor is the floor under any round trip: a line written to
// a child process that echoes it at once (the test binary itself, doing no
// work), read back. No adapter protocol can do better on this machine.
func BenchmarkPipeFloor(b *testing.B) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), echoEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	in := bufio.NewReader(stdout)
	line := []byte(`{"seq":1,"method":"get","params":{"agent":"main","sync":[]}}` + "\n")
	b.ResetTimer()
	for b.Loop() {
		if _, err := stdin.Write(line); err != nil {
			b.Fatal(err)
		}
		if _, err := in.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "roundtrips/s")
}

// BenchmarkServerHandle is the server's share of a round trip, in
// process: one get request decoded, answered by the reference and its
// reply encoded.
func BenchmarkServerHandle(b *testing.B) {
	srv, err := adapter.NewServer(reference.NewPort(reference.Options{}), adapter.ServeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range []string{
		`{"seq":1,"method":"start","params":{"protocol":1}}`,
		`{"seq":2,"method":"load","params":{"config":{"section":"Plan first."},"services":{"commands":true,"userQuestions":true}}}`,
		`{"seq":3,"method":"open","params":{"agent":"main","events":[]}}`,
	} {
		if _, _, err := srv.Handle([]byte(l)); err != nil {
			b.Fatal(err)
		}
	}
	get := []byte(`{"seq":4,"method":"get","params":{"agent":"main","sync":[]}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := srv.Handle(get); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRuntimeRestart measures a script of a turn, a scripted restart
// and a turn after it (on the restarted process, so a real restart pays
// the new process's first requests too), with the restart done each way:
// real (a new process) and reset (start on the same process, which
// declared reuse). Each script starts on a parked process, reset, in both.
// The runtime is plankit serve --level runtime, and with PLANKIT_BENCH_DSH
// set the dsh runtime (adapter/dsh-runtime/host.mjs, its node_modules
// installed). Figures: docs/performance.md.
func BenchmarkRuntimeRestart(b *testing.B) {
	runtimes := []struct {
		name string
		cmd  []string
	}{{"served", []string{plankitBin(b), "serve", "--level", "runtime"}}}
	if os.Getenv("PLANKIT_BENCH_DSH") != "" {
		runtimes = append(runtimes, struct {
			name string
			cmd  []string
		}{"dsh", []string{"node", "../adapter/dsh-runtime/host.mjs"}})
	}
	turn := loop.Step{Turn: &loop.TurnRequest{Agent: "main", Prompt: "Go on.", Script: loop.Script{Responses: []loop.Response{{Text: "Done."}}}}}
	script := loop.Trace{Config: []byte(`{"section":"Plan first."}`), Services: &sim.Services{Commands: true, UserQuestions: true},
		Steps: []loop.Step{turn, {Restart: &struct{}{}}, turn}}
	for _, rt := range runtimes {
		for _, mode := range []adapter.RestartMode{adapter.RestartReal, adapter.RestartReset} {
			b.Run(rt.name+"/"+string(mode), func(b *testing.B) {
				pool, err := adapter.NewRuntimePool(adapter.Options{Command: rt.cmd, Restarts: mode})
				if err != nil {
					b.Fatal(err)
				}
				defer pool.Close()
				for b.Loop() {
					if _, err := loop.Run(pool.Runtime(), script); err != nil {
						b.Fatal(err)
					}
				}
				if n := pool.Restarts(); (mode == adapter.RestartReal) != (n.Reset == 0) {
					b.Fatalf("--restarts %s: %+v", mode, n)
				}
			})
		}
	}
}
