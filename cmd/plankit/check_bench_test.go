package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkCheckInProcessVsServe runs the full check (features and
// properties, default settings) against the reference in-process and
// through `plankit serve` in the same iteration, and reports both wall
// times and their ratio. Run it with -benchtime 1x: an iteration takes
// about a minute. Figures: docs/performance.md.
func BenchmarkCheckInProcessVsServe(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "plankit")
	if msg, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, msg)
	}
	check := func(args ...string) time.Duration {
		cmd := exec.Command(bin, append([]string{"check", "--format", "summary", "--counterexamples", filepath.Join(dir, "cex")}, args...)...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		t0 := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("plankit check %v: %v\n%s", args, err, out.String())
		}
		return time.Since(t0)
	}
	var in, served time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in += check()
		served += check("--adapter", bin+" serve")
	}
	b.ReportMetric(in.Seconds()/float64(b.N), "s-in-process")
	b.ReportMetric(served.Seconds()/float64(b.N), "s-served")
	b.ReportMetric(served.Seconds()/in.Seconds(), "ratio")
}
