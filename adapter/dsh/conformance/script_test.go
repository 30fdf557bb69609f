package conformance

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/shlex"
)

// TestConformanceScriptRunsEachPagesRefreshCommand holds that the CI gate
// (scripts/conformance.sh) checks each published subject with the flags its
// page prints as the refresh command (Subject: level, CheckFlags, adapter,
// manifest, counterexamples, report): the committed report is compared with
// the gate's run, so a flag set in one place and not the other would make
// the page's refresh command produce a different report. Only --format,
// which changes what is printed, not the report, may differ.
func TestConformanceScriptRunsEachPagesRefreshCommand(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "scripts", "conformance.sh"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\\\n", " "), "\n")
	for _, sub := range []Subject{PluginSubject, RuntimeSubject} {
		in, err := inputsOf(filepath.Join("..", "..", ".."), sub)
		if err != nil {
			t.Fatal(err)
		}
		want := in.refreshArgs()
		var found []string
		report := ""
		for _, l := range lines {
			if m := reportVar.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
				report = m[1]
			}
			args, err := shlex.Split(l)
			if err != nil || len(args) < 2 || args[0] != "$pk" || args[1] != "check" || !slices.Contains(args, sub.AdapterCommand) {
				continue
			}
			args = withoutFlag(args[2:], "--format")
			for i, a := range args {
				if a == "$report" {
					args[i] = report
				}
			}
			found = args
		}
		if found == nil {
			t.Errorf("scripts/conformance.sh runs no check of %s", sub.AdapterCommand)
			continue
		}
		if got := pairs(found); !slices.Equal(got, pairs(want)) {
			t.Errorf("scripts/conformance.sh checks %s with\n  %v\nthe page's refresh command with\n  %v", sub.AdapterCommand, got, pairs(want))
		}
	}
}

// reportVar is the script's assignment of the report a check writes.
var reportVar = regexp.MustCompile(`^report=(\S+)$`)

func withoutFlag(args []string, flag string) []string {
	if i := slices.Index(args, flag); i >= 0 && i+1 < len(args) {
		return append(args[:i:i], args[i+2:]...)
	}
	return args
}

// pairs are the flags with their values, sorted: the order of flags does
// not matter.
func pairs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
			out = append(out, args[i]+" "+args[i+1])
			i++
			continue
		}
		out = append(out, args[i])
	}
	slices.Sort(out)
	return out
}
