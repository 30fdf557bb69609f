package main

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/render"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/trace"
	"github.com/spf13/cobra"
)

func newSimCmd() *cobra.Command {
	var (
		format string
		impl   implFlags
		level  levelFlags
		limits inputFlags
	)
	cmd := &cobra.Command{
		Use:   "sim TRACE...",
		Short: "Simulate trace files and check their expectations",
		Long: `sim runs each trace file against the implementation and prints what happened:
by default a readable timeline (one block per action: events appended, outcome,
get() after, and for each request the sections, tools and messages the model
saw); --format json is the machine record; --format jsonl is the session log in
dsh's JSONL format (plankit lint reads it); --format mermaid is a sequence
diagram and --format html a self-contained timeline page (docs/pictures.md).

Exit 0 when every expectation holds, 1 when one fails (naming the action,
expected and got; also when the run then stops at an action it cannot
perform), 2 for a malformed trace (file:line:column and field) or one past an input
bound (the --max-input-* flags; docs/reliability.md), 3 when
the implementation could not be run or the run was interrupted (SIGINT,
SIGTERM: the traces run so far are printed, the rest are named).

With --level runtime it replays runtime traces (docs/runtime-trace-format.md)
against the built-in runtime or, with --adapter, an external runtime over the
runtime protocol, and judges every observation (expectations, invariants,
lint); --format is text or json.`,
		Example: `  plankit sim examples/pend-cancel-before-boundary.yaml
  plankit sim --format jsonl examples/*.yaml`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := level.validate(cmd); err != nil {
				return err
			}
			if level.runtime() {
				newRuntime, err := runtimeFactory(&impl, &level)
				if err != nil {
					return err
				}
				if err := limits.validate(); err != nil {
					return err
				}
				return simRuntime(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args, format, limits.Limits, newRuntime)
			}
			if cmd.Flags().Changed(inputlimit.FlagTranscript[2:]) {
				return usageErr("%s bounds a runtime trace's run; it needs --level runtime", inputlimit.FlagTranscript)
			}
			newPort, err := impl.factory()
			if err != nil {
				return err
			}
			if !validFormat(format) {
				return usageErr("unknown --format %q (one of %s)", format, strings.Join(render.Formats, ", "))
			}
			if err := limits.validate(); err != nil {
				return err
			}
			code := ExitPass
			var firstErr error
			ctx := cmd.Context()
			for i, path := range args {
				if ie := interruption(ctx); ie != nil {
					return interrupted(ie, "%d of %d traces not run (from %s)", len(args)-i, len(args), safetext.Line(path))
				}
				t, err := trace.ReadFileWithLimits(path, limits.Limits)
				if err != nil {
					// Report it and go on: the other traces still run, and
					// the worst exit code wins.
					// The error names the file escaped (schemafile.Error).
					fmt.Fprintf(cmd.ErrOrStderr(), "plankit: %s\n", safetext.Text(err.Error()))
					if ExitUsage > code {
						code, firstErr = ExitUsage, withCode(ExitUsage, errors.New(""))
					}
					continue
				}
				run := trace.Execute(t, newPort())
				var out bytes.Buffer
				if err := render.Write(&out, format, run); err != nil {
					return err
				}
				cmd.OutOrStdout().Write(out.Bytes())
				if ie := interruption(ctx); ie != nil && run.Err != nil {
					// The interruption ended the adapter mid-trace.
					return interrupted(ie, "%s was cut short; %d of %d traces not finished", safetext.Line(path), len(args)-i, len(args))
				}
				c, err := runCode(run)
				if c > code {
					code, firstErr = c, err
				}
			}
			if code != ExitPass {
				return withCode(code, firstErr)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "text", "output format: "+strings.Join(render.Formats, ", "))
	impl.register(cmd)
	level.register(cmd)
	limits.register(cmd, inputlimit.Trace, "trace", boundBytes|boundDepth|boundNodes|boundActions|boundTranscript)
	return cmd
}

func validFormat(f string) bool {
	for _, x := range render.Formats {
		if f == x {
			return true
		}
	}
	return false
}

// runCode maps a run to its exit code and message: 3 when the
// implementation could not be run, else 1 when an expectation failed —
// also when the run then stopped at an action it could not perform, which
// is most often the failure's consequence (the state the trace expected
// is not the one it got) —, else 2 for an action the trace cannot ask.
func runCode(run *trace.Run) (int, error) {
	var impl *sim.ImplError
	switch {
	case run.Err != nil && errors.As(run.Err, &impl):
		return ExitImpl, run.Err
	case run.Failed():
		f, _ := run.FirstFailure()
		err := fmt.Errorf("%s: %s", run.Describe(f), f.Failures[0])
		if run.Err != nil {
			err = fmt.Errorf("%w; the run then stopped: %v", err, run.Err)
		}
		return ExitFail, err
	case run.Err != nil:
		return ExitUsage, run.Err
	}
	return ExitPass, nil
}
