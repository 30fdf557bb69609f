package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/conformance"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

// The library gives plankit check's verdict by default: for the same
// implementation, seed and checks, conformance.Run with no option beyond
// them gives the per-clause table and the JSON report plankit check
// writes, byte for byte — failing checks attributed the same way — for an
// implementation in-process (a mutant of the reference) and through an
// adapter (plankit serve running that mutant; the caller that owns the
// adapter's pool reports its restarts, as check does).
func TestLibraryGivesCheckVerdict(t *testing.T) {
	const mutant = reference.ReplyAnnouncesEntering
	factory := reference.Factory(reference.Options{Mutants: reference.Mutants{mutant}})
	serve := []string{plankitBin(t), "serve", "--mutant", string(mutant)}
	for _, tc := range []struct {
		name string
		flag []string
		lib  func(t *testing.T) (conformance.Options, func(*report.Run))
	}{
		{"in-process", []string{"--mutant", string(mutant)}, func(*testing.T) (conformance.Options, func(*report.Run)) {
			return conformance.Options{NewPort: factory}, func(*report.Run) {}
		}},
		{"adapter", []string{"--adapter", shellQuote(serve[0]) + " serve --mutant " + string(mutant)}, func(t *testing.T) (conformance.Options, func(*report.Run)) {
			pool, err := adapter.NewPool(adapter.Options{Command: serve, Restarts: adapter.RestartAuto})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(pool.Close)
			o := conformance.Options{NewPort: func() sim.Port { return pool.Port() }, PortFor: func(c sim.Check) sim.Port { return pool.PortFor(c) },
				Discard: func(c sim.Check) { pool.Forget(c.ID) }}
			return o, func(rep *report.Run) {
				n := pool.Restarts()
				rep.Restarts = &report.Restarts{Policy: string(adapter.RestartAuto), Real: n.Real, Reset: n.Reset}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cex := filepath.Join(dir, "counterexamples")
			code, _, errs := run(t, append([]string{"check", "--seed", "1", "--checks", "5", "--jobs", "1", "--json", filepath.Join(dir, "check.json"), "--counterexamples", cex}, tc.flag...)...)
			if code != ExitFail {
				t.Fatalf("plankit check: exit %d, want %d\n%s", code, ExitFail, errs)
			}
			want, err := os.ReadFile(filepath.Join(dir, "check.json"))
			if err != nil {
				t.Fatal(err)
			}

			opts, restarts := tc.lib(t)
			opts.Seed, opts.Checks, opts.CounterexampleDir = 1, 5, cex
			rep, err := conformance.Run(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			restarts(&rep)
			got, err := report.JSON(rep)
			if err != nil {
				t.Fatal(err)
			}
			var wantRep report.Run
			if err := json.Unmarshal(want, &wantRep); err != nil {
				t.Fatal(err)
			}
			var gotTable, wantTable bytes.Buffer
			report.WriteTable(&gotTable, rep.Clauses)
			report.WriteTable(&wantTable, wantRep.Clauses)
			if gotTable.String() != wantTable.String() {
				t.Errorf("the per-clause tables differ:\nlibrary\n%s\nplankit check\n%s", gotTable.String(), wantTable.String())
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the JSON reports differ at byte %d:\nlibrary …%s…\nplankit check …%s…", firstDifference(got, want), around(got, want), around(want, got))
			}
			// Failing properties are named by the observation that
			// diverged, not by their tags, with no option set.
			attributed := 0
			for _, c := range rep.Cases {
				if c.Failing() && c.Kind == report.KindProperty && len(c.Attributed) > 0 {
					attributed++
				}
			}
			if rep.Verdict != report.VerdictFail || attributed == 0 {
				t.Errorf("verdict %s, %d failing properties attributed", rep.Verdict, attributed)
			}
		})
	}
}

// firstDifference is the offset of the first byte at which a and b differ.
func firstDifference(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// around is a's text around its first difference from b.
func around(a, b []byte) string {
	i := firstDifference(a, b)
	return string(a[max(0, i-80):min(len(a), i+80)])
}

// The report names a failing property's trace; the console's summary line
// adds the command that replays it against the implementation check ran.
func TestCheckConsoleSaysHowToReplay(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, "check", "--mutant", "fold-first", "--only", "properties", "--checks", "10", "--json", filepath.Join(dir, "r.json"), "--counterexamples", filepath.Join(dir, "cex"))
	if code != ExitFail {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	data, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Run
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, c := range rep.Cases {
		if !c.Failing() {
			continue
		}
		if c.Counterexample == "" || bytes.Contains([]byte(c.Message), []byte("replay:")) {
			t.Errorf("%s: counterexample %q, message %q: want the trace named and no command", c.ID, c.Counterexample, c.Message)
		}
		want := "(replay: plankit sim --mutant fold-first " + c.Counterexample + ")"
		if !bytes.Contains([]byte(out), []byte(want)) {
			t.Errorf("%s: the console does not say %q:\n%s", c.ID, want, out)
		}
		checked++
	}
	if checked == 0 {
		t.Fatalf("no property failed against fold-first:\n%s", out)
	}
}
