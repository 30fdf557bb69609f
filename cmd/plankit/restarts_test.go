package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/report"
)

// The JSON report of a check through an adapter says which restart policy
// ran and how many restarts of each kind it did; the counts are the same
// in a second run; an unknown policy is a usage error.
func TestCheckReportsRestarts(t *testing.T) {
	dir := t.TempDir()
	plankit := plankitBin(t)
	read := func(mode string) *report.Restarts {
		t.Helper()
		path := filepath.Join(dir, mode+".json")
		args := []string{"check", "--only", "properties", "--checks", "4", "--adapter", plankit + " serve", "--json", path, "--counterexamples", filepath.Join(dir, "cx")}
		if mode != "" {
			args = append(args, "--restarts", mode)
		}
		if code := Main(args, io.Discard, io.Discard); code != ExitPass {
			t.Fatalf("--restarts %q: exit %d", mode, code)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var rep report.Run
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Restarts == nil {
			t.Fatalf("--restarts %q: the report has no restarts", mode)
		}
		return rep.Restarts
	}
	auto := read("")
	if auto.Policy != "auto" || auto.Real == 0 || auto.Reset == 0 {
		t.Errorf("default policy: %+v, want auto with real and reset restarts", *auto)
	}
	if again := read("auto"); *again != *auto {
		t.Errorf("a second run counted %+v, the first %+v", *again, *auto)
	}
	total := auto.Real + auto.Reset
	if r := read("real"); r.Real != total || r.Reset != 0 {
		t.Errorf("--restarts real: %+v, want %d real", *r, total)
	}
	if r := read("reset"); r.Reset != total || r.Real != 0 {
		t.Errorf("--restarts reset: %+v, want %d reset", *r, total)
	}
	if code := Main([]string{"check", "--adapter", plankit + " serve", "--restarts", "sometimes"}, io.Discard, io.Discard); code != ExitUsage {
		t.Errorf("--restarts sometimes: exit %d, want %d", code, ExitUsage)
	}
}

// At the runtime level the JSON report through an adapter carries its
// restarts too, all real (the runtime protocol has no reset); --restarts,
// which picks a plugin adapter's, is refused there.
func TestRuntimeCheckReportsRestarts(t *testing.T) {
	dir := t.TempDir()
	plankit := plankitBin(t)
	path := filepath.Join(dir, "rt.json")
	args := []string{"check", "--level", "runtime", "--tags", "@PEND-8", "--adapter", plankit + " serve --level runtime", "--json", path, "--counterexamples", filepath.Join(dir, "cx")}
	if code := Main(args, io.Discard, io.Discard); code != ExitPass {
		t.Fatalf("exit %d", code)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Run
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Restarts == nil || rep.Restarts.Policy != "real" || rep.Restarts.Real == 0 || rep.Restarts.Reset != 0 {
		t.Errorf("restarts %+v, want policy real with real restarts only (the PEND-8 scenarios restart)", rep.Restarts)
	}
	if code := Main(append(args, "--restarts", "reset"), io.Discard, io.Discard); code != ExitUsage {
		t.Errorf("--level runtime --restarts reset: exit %d, want %d", code, ExitUsage)
	}
}
