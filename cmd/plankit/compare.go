package main

import (
	"errors"
	"slices"
	"strings"

	"github.com/plankit/plankit/compare"
	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/spf13/cobra"
)

func newCompareCmd() *cobra.Command {
	var (
		format string
		limits inputFlags
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
  fixed          failed in OLD, pass in NEW
  one-sided      judged in one report and not the other (skipped, error,
                 not-run, absent)

A check fails whether or not a manifest expected it (failed and
expected-failed alike): a manifest that lists a new failure does not hide it.
A reason is the report's message without the manifest's note. Differences
in how the runs were made (seed, filter, manifest, declared choices) are
named first, as they can explain changes.

Exit 0 when NEW has no failure OLD did not have, 1 when it has (a regression:
gate CI on it against a baseline report), 2 when a report cannot be read or
the two cannot be compared (reports of different commands or suite versions,
or with no check in common).`,
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
			old, err := compare.Read(args[0], limits.Bytes)
			if err != nil {
				return withCode(ExitUsage, err)
			}
			new, err := compare.Read(args[1], limits.Bytes)
			if err != nil {
				return withCode(ExitUsage, err)
			}
			cmp, err := compare.Reports(args[0], old, args[1], new)
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
	limits.register(cmd, inputlimit.Report, "report", boundBytes)
	return cmd
}
