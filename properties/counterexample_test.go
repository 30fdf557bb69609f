package properties

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/linktest"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/trace"
)

// TestCounterexampleReplays: a broken implementation fails a property, the
// property writes a shrunk trace, and replaying that trace shows the same
// failure against the broken implementation and passes against the
// reference.
func TestCounterexampleReplays(t *testing.T) {
	for m, prop := range map[reference.Mutant]string{
		reference.AppendOnReject:          NameAppendAccept,
		reference.NarrateTwice:            NameNarration,
		reference.PendingSurvivesRestart:  NameRecovery,
		reference.ConfigUnknownKeyIgnored: NameConfig,
		reference.OffKeepsPending:         NameStateMachine,
	} {
		t.Run(string(m), func(t *testing.T) {
			mutant := reference.Factory(reference.Options{Mutants: reference.Mutants{m}})
			dir := t.TempDir()
			var out strings.Builder
			cases, err := Run(context.Background(), Options{NewPort: mutant, Seed: 3, Checks: 100, Only: []string{prop}, CounterexampleDir: dir, Output: &out})
			if err != nil {
				t.Fatal(err)
			}
			var failed *report.Case
			for i := range cases {
				if cases[i].Status == report.Failed {
					failed = &cases[i]
					break
				}
			}
			if failed == nil {
				t.Fatalf("no property failed against %s:\n%s", m, out.String())
			}
			if !strings.Contains(out.String(), "seed 3") || !strings.Contains(out.String(), failed.Counterexample) {
				t.Fatalf("output does not name the seed and the trace:\n%s", out.String())
			}
			if strings.Contains(failed.Message, "cannot express") {
				t.Fatalf("counterexample does not reproduce: %s", failed.Message)
			}
			tr, err := trace.ReadFile(failed.Counterexample)
			if err != nil {
				b, _ := os.ReadFile(failed.Counterexample)
				t.Fatalf("%v\n%s", err, b)
			}
			b, _ := os.ReadFile(failed.Counterexample)
			t.Logf("%s\n%s", out.String(), b)
			if len(tr.Script) > 12 {
				t.Errorf("counterexample not shrunk: %d actions", len(tr.Script))
			}
			run := trace.Execute(tr, mutant())
			if run.Err != nil || !run.Failed() {
				t.Fatalf("replay against %s: err %v, failed %v", m, run.Err, run.Failed())
			}
			if run := trace.Execute(tr, reference.Factory(reference.Options{})()); run.Err != nil || run.Failed() {
				f, _ := run.FirstFailure()
				t.Fatalf("the counterexample's expectation fails against the reference: %v %v", run.Err, f.Failures)
			}
		})
	}
}

// TestCounterexampleRefusesSymlink: a symbolic link planted at a
// counterexample's name (say, committed to a repository) is refused and
// the file it points to is left as it was.
func TestCounterexampleRefusesSymlink(t *testing.T) {
	mutant := reference.Factory(reference.Options{Mutants: reference.Mutants{reference.AppendOnReject}})
	opts := Options{NewPort: mutant, Seed: 3, Checks: 100, Only: []string{NameAppendAccept}}
	first := opts
	first.CounterexampleDir = t.TempDir()
	cases, err := Run(context.Background(), first)
	if err != nil || len(cases) != 1 || cases[0].Counterexample == "" {
		t.Fatalf("no counterexample to learn the name from: %v %+v", err, cases)
	}
	dir := t.TempDir()
	victim := linktest.Plant(t, filepath.Join(dir, filepath.Base(cases[0].Counterexample)))
	opts.CounterexampleDir = dir
	_, err = Run(context.Background(), opts)
	if !errors.Is(err, atomicfile.ErrSymlink) {
		t.Fatalf("writing through the link: err %v, want atomicfile.ErrSymlink", err)
	}
	victim.Untouched(t)
}

// TestCounterexampleDefaultDir: with no directory named, counterexamples go
// to one new temporary directory, never the current one.
func TestCounterexampleDefaultDir(t *testing.T) {
	mutant := reference.Factory(reference.Options{Mutants: reference.Mutants{reference.AppendOnReject}})
	cases, err := Run(context.Background(), Options{NewPort: mutant, Seed: 3, Checks: 100, Only: []string{NameAppendAccept, NameStateMachine}})
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, c := range cases {
		if c.Counterexample != "" {
			dirs = append(dirs, filepath.Dir(c.Counterexample))
		}
	}
	if len(dirs) == 0 {
		t.Fatal("no counterexample written")
	}
	t.Cleanup(func() { os.RemoveAll(dirs[0]) })
	if !strings.HasPrefix(dirs[0], os.TempDir()) || !strings.Contains(dirs[0], "plankit-counterexamples-") {
		t.Fatalf("counterexample directory %s is not a new temporary directory", dirs[0])
	}
	for _, d := range dirs[1:] {
		if d != dirs[0] {
			t.Fatalf("one run used two directories: %v", dirs)
		}
	}
}
