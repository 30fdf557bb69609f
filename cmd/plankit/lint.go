package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/lint"
	"github.com/plankit/plankit/spec"
	"github.com/spf13/cobra"
)

// lintOptions are the flags and arguments of plankit lint.
type lintOptions struct {
	format  string
	choices []string
	limits  inputFlags
	logs    []string // the logs, in argument order; "-" is standard input
}

func newLintCmd() *cobra.Command { return lintCmd(&lintOptions{}) }

func lintCmd(o *lintOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lint LOG.jsonl...",
		Short: "Check recorded session logs for the log-level rules of plan mode",
		Long: `lint reads session logs in dsh's JSONL format (with or without seq/time,
packed chunk rows, snapshot placeholders; several sessions per file as
plankit sim --format jsonl writes them) and checks the rules of plan mode a
log can show: plan/mode data is exactly {active: boolean} and never in the
transcript (LOG-1); every plan/mode is a change (LOG-4); inside a turn a
plan/mode comes only at a step boundary, before that step's request header,
and only for a step that goes on to a request (STEP-1, STEP-3, STEP-7); a
plan-mode notice only for a user's change the last header did not show, at
most one per change, never for an approved exit (STEP-6, EXIT-5); and, when
headers carry sections and tools, CFG-2, EXIT-1, EXIT-2 and EXIT-3.

Each finding is printed as file:line: CLAUSE: explanation. The plan state at
each request header is printed as a state line. A log's report keeps its
first 10,000 lines and says how many more there were (the counts and the exit
code include them); each log's report is printed as soon as it is linted. A truncated last line is a
warning; malformed lines are errors. An implementation that declares the
choice section-source=pending may render plan:policy from a selection whose
append failed: pass --choice section-source=pending to lint its logs. A
plan/mode whose data has a boolean active and other fields besides is folded
by its active (plan-mode-data=fold-active); pass --choice plan-mode-data=exact
for an implementation that folds only data that is exactly {active: boolean}.
What the fold does with a plan/mode whose data has no boolean active is not
judged by default (plan-mode-malformed=either): the data is reported under
LOG-1, and nothing is inferred from the state after it until a request header
shows the state or a plan/mode sets it; pass --choice plan-mode-malformed=keep
or =truthy to lint by that reading.

Exit 0 when clean, 1 when a rule is broken, 2 when some input could not be
read (a missing file, a malformed line, a broken seq, invalid UTF-8, or an input
past a bound of the --max-input-* flags; docs/reliability.md), 3 when
interrupted (SIGINT, SIGTERM: the logs linted so far are reported, the rest
named).`,
		Example: `  plankit lint lint/testdata/dsh/plan-review.jsonl
  plankit sim --format jsonl examples/step-narration-header-mismatch.yaml > run.jsonl && plankit lint run.jsonl
  plankit lint --format json session.jsonl`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.logs = args
			return runLint(cmd.Context(), o, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVarP(&o.format, "format", "f", "text", "output format: text or json")
	cmd.Flags().StringArrayVar(&o.choices, "choice", nil, "the implementation's choice section-source=log|pending (a header's plan:policy may then show an unlogged selection), plan-mode-data=fold-active|exact or plan-mode-malformed=either|keep|truthy")
	o.limits.register(cmd, inputlimit.Log, "log", boundBytes|boundLine|boundEvents)
	return cmd
}

// runLint is plankit lint: it lints each log in order (stdin for "-") and
// writes each report to stdout as soon as it is made.
func runLint(ctx context.Context, o *lintOptions, stdin io.Reader, stdout io.Writer) error {
	if o.format != "text" && o.format != "json" {
		return usageErr("unknown --format %q (one of text, json)", o.format)
	}
	if err := o.limits.validate(); err != nil {
		return err
	}
	opts := lint.Options{Limits: o.limits.Limits}
	for _, c := range o.choices {
		name, value, _ := strings.Cut(c, "=")
		switch name {
		case spec.ChoiceSectionSource:
			opts.SectionSource = value
		case spec.ChoicePlanModeData:
			opts.PlanModeData = value
		case spec.ChoicePlanModeMalformed:
			opts.PlanModeMalformed = value
		case spec.ChoiceUnloadedHeader:
			opts.UnloadedHeader = value
		default:
			return usageErr("--choice %q: lint reads only %s=log|pending, %s=fold-active|exact, %s=either|keep|truthy and %s=either|fold|shown|skipped", c, spec.ChoiceSectionSource, spec.ChoicePlanModeData, spec.ChoicePlanModeMalformed, spec.ChoiceUnloadedHeader)
		}
	}
	if err := opts.Validate(); err != nil {
		return usageErr("--choice %v", err)
	}
	// Each log's report is written as soon as it is linted and not
	// kept: memory is one report's (bounded by lint.DefaultMaxEntries),
	// however many logs.
	out := lint.NewStream(stdout, o.format)
	var cut error
	for i, path := range o.logs {
		if ie := interruption(ctx); ie != nil {
			cut = interrupted(ie, "%d of %d logs not linted (from %s)", len(o.logs)-i, len(o.logs), safetext.Line(path))
			break
		}
		var r *lint.Report
		if path == "-" {
			// Standard input may stay open: an interruption must not
			// wait for it.
			got := make(chan *lint.Report, 1)
			go func() { got <- lint.Reader("-", stdin, opts) }()
			select {
			case r = <-got:
			case <-ctx.Done():
			}
			if r == nil {
				if ie := interruption(ctx); ie != nil {
					cut = interrupted(ie, "%d of %d logs not linted (from %s)", len(o.logs)-i, len(o.logs), path)
				} else {
					cut = withCode(ExitInterrupted, context.Cause(ctx))
				}
				break
			}
		} else {
			r = lint.File(path, opts)
		}
		if err := out.Write(r); err != nil {
			return err
		}
	}
	if err := out.Close(); err != nil {
		return err
	}
	if cut != nil {
		return cut
	}
	switch code := out.Code(); code {
	case lint.ExitInput:
		return withCode(ExitUsage, fmt.Errorf("some input could not be read (see the error lines)"))
	case lint.ExitFindings:
		n := out.Count(lint.LevelFinding)
		noun := "findings"
		if n == 1 {
			noun = "finding"
		}
		return withCode(ExitFail, fmt.Errorf("%d %s", n, noun))
	}
	return nil
}
