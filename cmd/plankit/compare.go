package main

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/plankit/plankit/compare"
	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/report"
	"github.com/spf13/cobra"
)

func newCompareCmd() *cobra.Command {
	var (
		format string
		limits inputFlags
		opts   compare.Options
	)
	cmd := &cobra.Command{
		Use:   "compare OLD.json NEW.json",
		Short: "Compare two JSON reports: what is fixed, what newly fails, what changed",
		Long: `compare reads two plankit JSON reports of the same suite version — of
plankit check, or of plankit diff, at either level; typically the previous
release of an implementation (OLD) and the new one (NEW) — and prints, per
check and per clause, what changed:

  new failures   fail in NEW and did not fail in OLD (passed, skipped, absent)
  changed        fail in both, with another reason or under other clauses
  could not run  not judged in NEW because the implementation could not be
                 run (error) or the run was cut short (not-run)
  fixed          failed in OLD, pass in NEW
  one-sided      judged in one report and not the other (skipped, absent;
                 error and not-run too with --allow-unjudged)

A check fails whether or not a manifest expected it (failed and
expected-failed alike): a manifest that lists a new failure does not hide it.
A reason is the report's message without the manifest's note. Differences
in how the runs were made (seed, filter, manifest, declared choices) are
named first, as they can explain changes.

A report is a regular file, or standard input named -. Exit 0 when NEW has
no failure OLD did not have and judged every check, 1 when it has a new
failure or a check it could not judge (a regression: gate CI on it against
a baseline report; --allow-unjudged accepts checks NEW could not judge), 2
when a report cannot be read (not a regular file, not UTF-8, not a plankit
report) or the two cannot be compared (reports of different commands or
suite versions, or with no check in common).`,
		Example: `  plankit compare baseline.json plankit-report.json
  plankit compare --format markdown old.json new.json >> "$GITHUB_STEP_SUMMARY"`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(compare.Formats, format) {
				return usageErr("unknown --format %q (one of %s)", format, strings.Join(compare.Formats, ", "))
			}
			if err := limits.validate(); err != nil {
				return err
			}
			if args[0] == compare.Stdin && args[1] == compare.Stdin {
				return usageErr("OLD and NEW are both standard input (-): name one of them as a file")
			}
			var runs [2]report.Run
			for i, file := range args {
				run, err := readReport(cmd.Context(), file, cmd.InOrStdin(), limits.Bytes)
				if err != nil {
					return err
				}
				runs[i] = run
			}
			cmp, err := compare.Reports(args[0], runs[0], args[1], runs[1], opts)
			var mismatch *compare.MismatchError
			if errors.As(err, &mismatch) {
				return withCode(ExitUsage, err)
			}
			if err != nil {
				return err
			}
			if err := compare.Write(cmd.OutOrStdout(), cmp, format); err != nil {
				return err
			}
			if cmp.Regressions > 0 {
				return withCode(ExitFail, errors.New("")) // the output ends with the verdict
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: "+strings.Join(compare.Formats, ", "))
	cmd.Flags().BoolVar(&opts.AllowUnjudged, "allow-unjudged", false, "do not count checks NEW could not judge (status error or not-run) as regressions")
	limits.register(cmd, inputlimit.Report, "report", boundBytes)
	return cmd
}

// readReport reads one report of compare; standard input is read aside,
// so that an interruption does not wait for it to end.
func readReport(ctx context.Context, file string, stdin io.Reader, limit int64) (report.Run, error) {
	type read struct {
		run report.Run
		err error
	}
	if ctx == nil {
		ctx = context.Background()
	}
	got := make(chan read, 1)
	go func() {
		run, err := compare.Read(file, stdin, limit)
		got <- read{run, err}
	}()
	select {
	case r := <-got:
		if r.err != nil {
			return r.run, withCode(ExitUsage, r.err)
		}
		return r.run, nil
	case <-ctx.Done():
		if ie := interruption(ctx); ie != nil {
			return report.Run{}, interrupted(ie, "while reading %s", safetext.Quote(file))
		}
		return report.Run{}, withCode(ExitInterrupted, context.Cause(ctx))
	}
}
