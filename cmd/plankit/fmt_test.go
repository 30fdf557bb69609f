package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/linktest"
)

// oldTraces copies the format-1 traces of testdata/format1/LEVEL (examples
// as they were committed before the keys were renamed: plugin traces
// before commit 9a4ada6, runtime traces before it and 306f350) into a
// temporary directory and returns their paths there, and beside each the
// file as those commits rewrote it by hand (NAME.want).
func oldTraces(t *testing.T, level string) (paths []string, want map[string]string) {
	t.Helper()
	src := filepath.Join("testdata", "format1", level)
	olds, err := filepath.Glob(filepath.Join(src, "*.yaml"))
	if err != nil || len(olds) == 0 {
		t.Fatalf("no format-1 traces in %s: %v", src, err)
	}
	dir, want := t.TempDir(), map[string]string{}
	for _, old := range olds {
		data, err := os.ReadFile(old)
		if err != nil {
			t.Fatal(err)
		}
		w, err := os.ReadFile(strings.TrimSuffix(old, ".yaml") + ".want")
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.Base(old))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths, want[p] = append(paths, p), string(w)
	}
	return paths, want
}

// The traces users wrote before the last renames are refused by sim with
// the command that upgrades them; plankit fmt names their format, --fix
// rewrites each as the commits that renamed the keys rewrote the examples
// by hand, byte for byte (--diff shows it), and the upgraded traces pass
// plankit sim, at both levels.
func TestFmtUpgradesTheTracesOfTheLastRelease(t *testing.T) {
	for _, level := range []string{"plugin", "runtime"} {
		t.Run(level, func(t *testing.T) {
			paths, want := oldTraces(t, level)
			sim := []string{"sim"}
			if level == "runtime" {
				sim = append(sim, "--level", "runtime")
			}
			code, _, errs := run(t, append(sim, paths[0])...)
			if code != ExitUsage || !strings.Contains(errs, "now written") || !strings.Contains(errs, "plankit fmt --fix") {
				t.Errorf("sim of a format-1 trace: exit %d, want %d naming the new key and plankit fmt --fix\n%s", code, ExitUsage, errs)
			}
			code, out, errs := run(t, append([]string{"fmt"}, paths...)...)
			if code != ExitFail || strings.Count(out, "format 1; plankit fmt --fix rewrites it as format 2") != len(paths) {
				t.Errorf("fmt without --fix: exit %d, want %d naming format 1 for each of %d files\n%s%s", code, ExitFail, len(paths), out, errs)
			}
			for _, p := range paths {
				if data, _ := os.ReadFile(p); string(data) == want[p] {
					t.Fatalf("fmt without --fix changed %s", p)
				}
			}
			code, out, errs = run(t, append([]string{"fmt", "--fix", "--diff"}, paths...)...)
			if code != ExitPass || strings.Count(out, "upgraded to format 2") != len(paths) || !strings.Contains(out, "\n-") || !strings.Contains(out, "\n+") {
				t.Fatalf("fmt --fix --diff: exit %d, want %d with a diff and each file upgraded\n%s%s", code, ExitPass, out, errs)
			}
			for _, p := range paths {
				got, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != want[p] {
					t.Errorf("%s upgraded:\n%s\nwant, as the renaming commits wrote it:\n%s", filepath.Base(p), got, want[p])
				}
			}
			if code, out, errs := run(t, append(sim, paths...)...); code != ExitPass {
				t.Errorf("sim of the upgraded traces: exit %d\n%s%s", code, out, errs)
			}
			code, out, _ = run(t, append([]string{"fmt"}, paths...)...)
			if code != ExitPass || strings.Count(out, "format 2, current") != len(paths) {
				t.Errorf("fmt of the upgraded traces: exit %d, want %d with each current\n%s", code, ExitPass, out)
			}
		})
	}
}

// A trace that says its format: an earlier one is refused by sim and
// upgraded by fmt (its format line too); a later one than this plankit
// reads is refused by both, naming the format; what an upgrade cannot
// rewrite is an input error at its line; a symbolic link is not written
// through.
func TestFmtReadsTheFormatATraceDeclares(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const old = "format: 1\nname: old\nscript:\n  - prompt: {agent: main, text: Hi.}\n  - set: {agent: main, active: true}\n    expect: {plan: [], outcome: queued}\n"
	p := write("old.yaml", old)
	if code, _, errs := run(t, "sim", p); code != ExitUsage || !strings.Contains(errs, "plankit fmt --fix") {
		t.Errorf("sim of format 1: exit %d\n%s", code, errs)
	}
	if code, out, errs := run(t, "fmt", "--fix", p); code != ExitPass || !strings.Contains(out, "format 1, upgraded to format 2") {
		t.Fatalf("fmt --fix: exit %d\n%s%s", code, out, errs)
	}
	got, _ := os.ReadFile(p)
	if want := strings.NewReplacer("format: 1", "format: 2", "plan: []", "planMode: []").Replace(old); string(got) != want {
		t.Errorf("upgraded:\n%s\nwant\n%s", got, want)
	}
	if code, out, errs := run(t, "sim", p); code != ExitPass {
		t.Errorf("sim of the upgraded trace: exit %d\n%s%s", code, out, errs)
	}

	later := write("later.yaml", "format: 3\nname: later\nscript:\n  - prompt: {agent: main, text: Hi.}\n")
	for _, args := range [][]string{{"sim", later}, {"fmt", "--fix", later}} {
		if code, _, errs := run(t, args...); code != ExitUsage || !strings.Contains(errs, "format 3") || !strings.Contains(errs, "later plankit") {
			t.Errorf("%v: exit %d, want %d naming format 3\n%s", args, code, ExitUsage, errs)
		}
	}

	notATrace := write("not-a-trace.yaml", "name: no script\n")
	if code, _, errs := run(t, "fmt", notATrace); code != ExitUsage || !strings.Contains(errs, "not-a-trace.yaml") {
		t.Errorf("fmt of a file that is no trace: exit %d, want %d naming it\n%s", code, ExitUsage, errs)
	}

	both := write("both.yaml", "level: runtime\nsteps:\n  - get: {agent: main}\n    expect:\n      pending: true\n      noPending: true\n")
	if code, _, errs := run(t, "fmt", "--fix", both); code != ExitUsage || !strings.Contains(errs, "both.yaml:5:7") || !strings.Contains(errs, "contradict") {
		t.Errorf("contradictory get keys: exit %d\n%s", code, errs)
	}

	// The link's target is a trace to upgrade, so only the write could
	// go through the link.
	link := filepath.Join(dir, "link.yaml")
	victim := linktest.Plant(t, link)
	if err := os.WriteFile(victim.Path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "fmt", "--fix", link); code != ExitUsage || !strings.Contains(errs, "symbolic link") {
		t.Errorf("fmt --fix through a symbolic link: exit %d\n%s", code, errs)
	}
	if got, _ := os.ReadFile(victim.Path); string(got) != old {
		t.Errorf("the link's target changed:\n%s", got)
	}
}

// plankit version and --version print plankit's module version, the
// suite's and the protocols' and trace formats'.
func TestVersionNamesEveryVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errs := run(t, args...)
		if code != ExitPass {
			t.Fatalf("%v: exit %d\n%s", args, code, errs)
		}
		for _, want := range []string{"plankit ", "suite 1.", "adapter protocol 1.", "runtime protocol 1.", "trace format 2", "runtime trace format 2"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: no %q in\n%s", args, want, out)
			}
		}
	}
}
