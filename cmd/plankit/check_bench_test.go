package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkCheckInProcessVsServe runs the full check (features and
// properties, default settings) against the reference in-process, through
// `plankit serve` (default restart policy and workers, then real restarts,
// then one worker) and through the Python example, in the same iteration,
// and reports the wall times and their ratios to in-process. Run it with
// -benchtime 1x: an iteration takes a few minutes. Figures:
// docs/performance.md.
func BenchmarkCheckInProcessVsServe(b *testing.B) {
	dir := b.TempDir()
	bin := plankitBin(b)
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
	py, err := filepath.Abs("../../examples/adapters/python")
	if err != nil {
		b.Fatal(err)
	}
	runs := []struct {
		name string
		args []string
	}{
		{"in-process", nil},
		{"served", []string{"--adapter", bin + " serve"}},
		{"served-real-restarts", []string{"--adapter", bin + " serve", "--restarts", "real"}},
		{"served-jobs1", []string{"--adapter", bin + " serve", "--jobs", "1"}},
		{"python", []string{"--adapter", "python3 adapter.py", "--adapter-dir", py}},
	}
	total := make([]time.Duration, len(runs))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, r := range runs {
			total[j] += check(r.args...)
		}
	}
	for j, r := range runs {
		b.ReportMetric(total[j].Seconds()/float64(b.N), "s-"+r.name)
		if j > 0 {
			b.ReportMetric(total[j].Seconds()/total[0].Seconds(), "ratio-"+r.name)
		}
	}
}
