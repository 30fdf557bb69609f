package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// check, explore and diff give byte-identical reports and output for any
// number of workers: in-process, with a failing mutant (counterexamples
// shrunk and written, divergences traced), and through an adapter.
func TestJobsSameOutput(t *testing.T) {
	dir := t.TempDir()
	plankit := plankitBin(t)
	run := func(name string, args ...string) (int, string, map[string][]byte) {
		t.Helper()
		return runWithReports(t, filepath.Join(dir, name), "--counterexamples", args...)
	}
	cases := []struct {
		name string
		args []string
	}{
		{"reference", []string{"check", "--checks", "20"}},
		{"mutant", []string{"check", "--only", "properties", "--checks", "20", "--mutant", "pending-survives-restart"}},
		{"serve", []string{"check", "--only", "properties", "--checks", "6", "--adapter", plankit + " serve"}},
		// Failing properties through an adapter: cases run ahead of a
		// failure must not change the restart counts of the report.
		{"served mutant", []string{"check", "--only", "properties", "--checks", "8", "--adapter", plankit + " serve --mutant fold-first"}},
		// the runtime level's restarts, real and reset, counted the same
		{"served runtime", []string{"check", "--level", "runtime", "--only", "properties", "--checks", "20", "--adapter", plankit + " serve --level runtime"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code1, out1, files1 := run(c.name+"-1", append(c.args, "--jobs", "1")...)
			code4, out4, files4 := run(c.name+"-4", append(c.args, "--jobs", "4")...)
			if code1 != code4 {
				t.Errorf("exit %d with --jobs 1, %d with --jobs 4", code1, code4)
			}
			if out1 != out4 {
				t.Errorf("output differs:\n--- jobs 1\n%s\n--- jobs 4\n%s", out1, out4)
			}
			if len(files1) < 3 || len(files1) != len(files4) {
				t.Errorf("files: %d with --jobs 1, %d with --jobs 4", len(files1), len(files4))
			}
			for name, b := range files1 {
				if !bytes.Equal(b, files4[name]) {
					t.Errorf("%s differs between --jobs 1 and --jobs 4", name)
				}
			}
			if strings.HasSuffix(c.name, "mutant") && (code1 != ExitFail || len(files1) < 4) {
				t.Errorf("the mutant run did not fail with a counterexample: exit %d, files %d", code1, len(files1))
			}
		})
	}
	t.Run("explore", func(t *testing.T) {
		var outs []string
		for _, jobs := range []string{"1", "4"} {
			for _, mutant := range []string{"", "append-on-abort"} {
				args := []string{"explore", "--depth", "4", "--jobs", jobs, "--out", filepath.Join(dir, "explore-"+jobs)}
				if mutant != "" {
					args = append(args, "--mutant", mutant)
				}
				var stdout bytes.Buffer
				code := Main(args, &stdout, &bytes.Buffer{})
				outs = append(outs, strings.ReplaceAll(stdout.String(), "explore-"+jobs, "explore-N")+string(rune('0'+code)))
			}
		}
		if outs[0] != outs[2] || outs[1] != outs[3] {
			t.Errorf("explore differs between --jobs 1 and 4:\n%s\n%s\n%s\n%s", outs[0], outs[2], outs[1], outs[3])
		}
		if !strings.HasSuffix(outs[1], "1") {
			t.Errorf("the mutant exploration did not fail: %s", outs[1])
		}
	})
	// diff: the reference (no divergence), a mutant found by a later
	// random sequence, one found only by the depth search, and a mutant
	// behind an adapter (one process per worker).
	for _, c := range []struct {
		name string
		code int
		args []string
	}{
		{"reference", ExitPass, []string{"diff", "--cases", "60", "--depth", "3"}},
		{"mutant", ExitFail, []string{"diff", "--cases", "300", "--depth", "0", "--mutant", "pending-survives-restart"}},
		{"depth", ExitFail, []string{"diff", "--cases", "0", "--depth", "4", "--mutant", "append-on-abort"}},
		{"served", ExitFail, []string{"diff", "--cases", "40", "--depth", "0", "--adapter", plankit + " serve --mutant narrate-twice"}},
		{"served runtime", ExitFail, []string{"diff", "--level", "runtime", "--cases", "40", "--depth", "0", "--adapter", plankit + " serve --level runtime --mutant narrate-twice"}},
	} {
		t.Run("diff "+c.name, func(t *testing.T) {
			code1, out1, files1 := runWithReports(t, filepath.Join(dir, "diff-"+c.name+"-1"), "--out", append(c.args, "--jobs", "1")...)
			code4, out4, files4 := runWithReports(t, filepath.Join(dir, "diff-"+c.name+"-4"), "--out", append(c.args, "--jobs", "4")...)
			if code1 != c.code || code4 != c.code {
				t.Fatalf("exit %d with --jobs 1, %d with --jobs 4, want %d\n%s", code1, code4, c.code, out1)
			}
			if out1 != out4 {
				t.Errorf("output differs:\n--- jobs 1\n%s\n--- jobs 4\n%s", out1, out4)
			}
			want := 3
			if c.code == ExitFail {
				want = 4 // and the divergence's trace
			}
			if len(files1) != want || len(files4) != want {
				t.Errorf("files: %d with --jobs 1, %d with --jobs 4, want %d", len(files1), len(files4), want)
			}
			for name, b := range files1 {
				if !bytes.Equal(b, files4[name]) {
					t.Errorf("%s differs between --jobs 1 and --jobs 4:\n%s\n---\n%s", name, b, files4[name])
				}
			}
		})
	}
	var stderr bytes.Buffer
	if code := Main([]string{"diff", "--jobs", "0"}, &bytes.Buffer{}, &stderr); code != ExitUsage {
		t.Errorf("--jobs 0: exit %d, want %d (%s)", code, ExitUsage, stderr.String())
	}
}

// runWithReports runs plankit with args, writing its reports (--json,
// --junit, --cucumber) and, through filesFlag, its other files (traces,
// counterexamples) under out. It returns the exit code, the output and
// every file written, with out read as OUT, for comparing runs.
func runWithReports(t *testing.T, out, filesFlag string, args ...string) (int, string, map[string][]byte) {
	t.Helper()
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	args = append(args, "--json", filepath.Join(out, "report.json"), "--junit", filepath.Join(out, "junit.xml"),
		"--cucumber", filepath.Join(out, "cucumber.json"), filesFlag, filepath.Join(out, "cx"))
	var stdout bytes.Buffer
	code := Main(args, &stdout, &bytes.Buffer{})
	files := map[string][]byte{}
	filepath.WalkDir(out, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			rel, _ := filepath.Rel(out, path)
			files[rel] = bytes.ReplaceAll(b, []byte(out), []byte("OUT"))
		}
		return nil
	})
	return code, strings.ReplaceAll(stdout.String(), out, "OUT"), files
}
