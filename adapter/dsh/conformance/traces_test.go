package conformance

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/trace"
)

// repoRoot is the module root, where the page's input paths start.
const repoRoot = "../../.."

// TestDeviationTraces: every deviation's trace names its clause and holds
// against the reference; against the real package (installed with npm ci
// --prefix adapter/dsh) its expectations fail, which is the deviation.
func TestDeviationTraces(t *testing.T) {
	t.Chdir(repoRoot)
	notes, err := readNotes(PluginSubject.DeviationsPath, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes.Deviations) == 0 {
		t.Fatal("no deviations to check")
	}
	var pool *adapter.Pool
	if _, err := os.Stat("adapter/dsh/node_modules/@deepseek-ai/dsh-plan-mode"); err == nil {
		if _, err := exec.LookPath("node"); err == nil {
			if pool, err = adapter.NewPool(adapter.Options{Command: []string{"node", "adapter/dsh/host.mjs"}}); err != nil {
				t.Fatal(err)
			}
			defer pool.Close()
		}
	}
	for _, d := range notes.Deviations {
		t.Run(d.ID, func(t *testing.T) {
			if filepath.Dir(d.Trace) != "examples/dsh" {
				t.Errorf("trace %s is not under examples/dsh", d.Trace)
			}
			tr, err := trace.ReadFile(d.Trace)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(tr.Clauses, d.Clause) {
				t.Errorf("trace %s does not name clause %s (clauses %v)", d.Trace, d.Clause, tr.Clauses)
			}
			ref := trace.Execute(tr, reference.NewPort(reference.Options{}))
			if ref.Err != nil || ref.Failed() {
				f, _ := ref.FirstFailure()
				t.Errorf("the reference must pass %s: err %v, failures %v", d.Trace, ref.Err, f.Failures)
			}
			if pool == nil {
				t.Skip("the real package is not installed (npm ci --prefix adapter/dsh); checked the reference only")
			}
			real := trace.Execute(tr, pool.Port())
			if real.Err != nil {
				t.Fatalf("the package could not run %s: %v", d.Trace, real.Err)
			}
			if !real.Failed() {
				t.Errorf("%s passes against the package: the deviation is gone, remove it from %s", d.Trace, PluginSubject.DeviationsPath)
			}
		})
	}
}
