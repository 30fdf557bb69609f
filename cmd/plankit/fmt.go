package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/goccy/go-yaml"
	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/internal/schemafile"
	"github.com/plankit/plankit/rtrace"
	"github.com/plankit/plankit/trace"
	"github.com/pmezard/go-difflib/difflib"
	"github.com/spf13/cobra"
)

// fmtOptions are the flags of plankit fmt.
type fmtOptions struct {
	fix, diff bool
}

func newFmtCmd() *cobra.Command {
	o := &fmtOptions{}
	cmd := &cobra.Command{
		Use:   "fmt [--fix] [--diff] FILE...",
		Short: "Upgrade trace files written for an earlier trace format",
		Long: `fmt reads each trace file (a trace, or a runtime trace: level: runtime),
says which trace format it is written in, and with --fix rewrites a file of
an earlier format as the current one, in place and atomically (a temporary
file renamed over it; a symbolic link is refused). Only what changed between
formats is rewritten — keys renamed, a get step's result gathered into
state — and every other line keeps its text, comments and layout. --diff
prints each change as a unified diff, with or without --fix.

A trace may say its format (format: N); one that does not is read as the
current format unless it has a key of an earlier one. plankit version prints
the formats this plankit reads (docs/runtime-trace-format.md#formats).

Exit codes: 0 every file is of the current format (or was upgraded, with
--fix); 1 a file is of an earlier format and --fix was not given; 2 usage or
input error (a file that cannot be read, is not a trace, or says a later
format than this plankit reads).`,
		Example: `  plankit fmt examples/*.yaml
  plankit fmt --fix --diff old-trace.yaml`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFmt(o, args, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().BoolVar(&o.fix, "fix", false, "rewrite each file of an earlier format as the current one, in place")
	cmd.Flags().BoolVar(&o.diff, "diff", false, "print each upgrade as a unified diff")
	return cmd
}

// runFmt is plankit fmt: every file is looked at; the worst exit code wins.
func runFmt(o *fmtOptions, paths []string, stdout, stderr io.Writer) error {
	code, first := ExitPass, error(nil)
	worse := func(c int, err error) {
		if c > code {
			code, first = c, err
		}
	}
	for _, path := range paths {
		data, err := schemafile.ReadFile(path, inputlimit.Trace)
		if err != nil {
			fmt.Fprintf(stderr, "plankit: %s\n", safetext.Line(err.Error()))
			worse(ExitUsage, fmt.Errorf("%d of %d files could not be upgraded", 1, len(paths)))
			continue
		}
		what, current, upgrade := "trace", trace.Format, trace.Upgrade
		parse := func(path string, data []byte) error { _, err := trace.Parse(path, data); return err }
		if runtimeTrace(data) {
			what, current, upgrade = "runtime trace", rtrace.Format, rtrace.Upgrade
			parse = func(path string, data []byte) error { _, err := rtrace.Parse(path, data); return err }
		}
		out, from, err := upgrade(path, data)
		if err != nil {
			fmt.Fprintf(stderr, "plankit: %s\n", safetext.Line(err.Error()))
			worse(ExitUsage, fmt.Errorf("%s could not be upgraded", safetext.Line(path)))
			continue
		}
		if from == current && bytes.Equal(out, data) {
			// Nothing to upgrade: it must be a trace of this format.
			if err := parse(path, data); err != nil {
				fmt.Fprintf(stderr, "plankit: %s\n", safetext.Line(err.Error()))
				worse(ExitUsage, fmt.Errorf("%s is not a %s of format %d", safetext.Line(path), what, current))
				continue
			}
			fmt.Fprintf(stdout, "%s: %s format %d, current\n", safetext.Quote(path), what, current)
			continue
		}
		if o.diff {
			if err := writeDiff(stdout, path, data, out); err != nil {
				return err
			}
		}
		if !o.fix {
			fmt.Fprintf(stdout, "%s: %s format %d; plankit fmt --fix rewrites it as format %d\n", safetext.Quote(path), what, from, current)
			worse(ExitFail, fmt.Errorf("%s is of an earlier trace format (plankit fmt --fix upgrades it)", safetext.Line(path)))
			continue
		}
		if err := atomicfile.Write(path, out); err != nil {
			fmt.Fprintf(stderr, "plankit: %s: %s\n", safetext.Line(path), safetext.Line(err.Error()))
			worse(ExitUsage, fmt.Errorf("%s could not be written", safetext.Line(path)))
			continue
		}
		fmt.Fprintf(stdout, "%s: %s format %d, upgraded to format %d\n", safetext.Quote(path), what, from, current)
	}
	if code != ExitPass {
		return withCode(code, first)
	}
	return nil
}

// runtimeTrace reports whether data is a runtime trace (level: runtime at
// its top); anything else is read as a trace.
func runtimeTrace(data []byte) bool {
	var top struct {
		Level any `yaml:"level"`
	}
	return yaml.Unmarshal(data, &top) == nil && top.Level == rtrace.Level
}

// writeDiff prints the upgrade of path, before to after, as a unified diff.
func writeDiff(w io.Writer, path string, before, after []byte) error {
	d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(string(before)), B: difflib.SplitLines(string(after)),
		FromFile: path, ToFile: path + " (upgraded)", Context: 2,
	})
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, d)
	return err
}
