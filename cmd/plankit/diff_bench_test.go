package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkRuntimeDiff runs `plankit diff --level runtime` at its defaults
// (1000 random scripts of 40 steps, then every script up to depth 2)
// against the built-in runtime in-process and through `plankit serve
// --level runtime`, and, when PLANKIT_BENCH_DSH is set (its node_modules
// installed), against the dsh runtime (adapter/dsh-runtime/host.mjs) with
// its known deviations assumed (the assume: lines of its manifest), at the
// default --restarts auto and with --restarts reset, in the same
// iteration; it reports the wall times and the ratios to in-process. A
// run that finds a divergence stops there, so its time is the time to find
// it. Run it with -benchtime 1x. Figures: docs/performance.md.
func BenchmarkRuntimeDiff(b *testing.B) {
	dir := b.TempDir()
	bin := plankitBin(b)
	diff := func(args ...string) time.Duration {
		cmd := exec.Command(bin, append([]string{"diff", "--level", "runtime", "--out", filepath.Join(dir, "out")}, args...)...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		t0 := time.Now()
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == ExitFail) {
			b.Fatalf("plankit diff %v: %v\n%s", args, err, out.String())
		}
		return time.Since(t0)
	}
	host, err := filepath.Abs("../../adapter/dsh-runtime/host.mjs")
	if err != nil {
		b.Fatal(err)
	}
	manifest := filepath.Join(filepath.Dir(host), "expected-failures.txt")
	runs := []struct {
		name string
		args []string
	}{
		{"in-process", nil},
		{"served", []string{"--adapter", bin + " serve --level runtime"}},
	}
	if os.Getenv("PLANKIT_BENCH_DSH") != "" {
		runs = append(runs, struct {
			name string
			args []string
		}{"dsh", []string{"--adapter", "node " + host, "--expect", manifest}}, struct {
			name string
			args []string
		}{"dsh-reset", []string{"--adapter", "node " + host, "--expect", manifest, "--restarts", "reset"}})
	}
	total := make([]time.Duration, len(runs))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, r := range runs {
			total[j] += diff(r.args...)
		}
	}
	for j, r := range runs {
		b.ReportMetric(total[j].Seconds()/float64(b.N), "s-"+r.name)
		if j > 0 {
			b.ReportMetric(total[j].Seconds()/total[0].Seconds(), "ratio-"+r.name)
		}
	}
}
