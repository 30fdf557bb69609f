package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/render"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/trace"
	"github.com/spf13/cobra"
)

// simOptions are the flags and arguments of plankit sim, and which flags
// were given.
type simOptions struct {
	format string
	impl   implFlags
	level  levelFlags
	limits inputFlags
	traces []string // the trace files, in argument order
	// transcriptSet: the runtime level's transcript bound was given.
	transcriptSet bool
}

func newSimCmd() *cobra.Command { return simCmd(&simOptions{}) }

func simCmd(o *simOptions) *cobra.Command {
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
			o.traces, o.transcriptSet = args, cmd.Flags().Changed(inputlimit.FlagTranscript[2:])
			return runSim(cmd.Context(), o, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVarP(&o.format, "format", "f", "text", "output format: "+strings.Join(render.Formats, ", "))
	o.impl.register(cmd)
	o.level.register(cmd)
	o.limits.register(cmd, inputlimit.Trace, "trace", boundBytes|boundDepth|boundNodes|boundActions|boundTranscript)
	return cmd
}

// runSim is plankit sim: it runs each trace in order, prints its timeline
// to stdout and each unreadable trace's error to stderr, and returns the
// worst outcome.
func runSim(ctx context.Context, o *simOptions, stdout, stderr io.Writer) error {
	if err := o.level.validate(); err != nil {
		return err
	}
	if o.level.runtime() {
		newRuntime, err := runtimeFactory(&o.impl, &o.level)
		if err != nil {
			return err
		}
		if err := o.limits.validate(); err != nil {
			return err
		}
		return simRuntime(ctx, stdout, stderr, o.traces, o.format, o.limits.Limits, newRuntime, o.impl.adapter == "")
	}
	if o.transcriptSet {
		return usageErr("%s bounds a runtime trace's run; it needs --level runtime", inputlimit.FlagTranscript)
	}
	newPort, err := o.impl.factory()
	if err != nil {
		return err
	}
	if !validFormat(o.format) {
		return usageErr("unknown --format %q (one of %s)", o.format, strings.Join(render.Formats, ", "))
	}
	if err := o.limits.validate(); err != nil {
		return err
	}
	code := ExitPass
	var firstErr error
	for i, path := range o.traces {
		if ie := interruption(ctx); ie != nil {
			return interrupted(ie, "%d of %d traces not run (from %s)", len(o.traces)-i, len(o.traces), safetext.Line(path))
		}
		t, err := trace.ReadFileWithLimits(path, o.limits.Limits)
		if err != nil {
			// Report it and go on: the other traces still run, and
			// the worst exit code wins.
			// The error names the file escaped (schemafile.Error).
			printError(stderr, err)
			if ExitUsage > code {
				code, firstErr = ExitUsage, withCode(ExitUsage, errors.New(""))
			}
			continue
		}
		run := trace.Execute(t, newPort())
		var out bytes.Buffer
		if err := render.Write(&out, o.format, run); err != nil {
			return err
		}
		stdout.Write(out.Bytes())
		if ie := interruption(ctx); ie != nil && run.Err != nil {
			// The interruption ended the adapter mid-trace.
			return interrupted(ie, "%s was cut short; %d of %d traces not finished", safetext.Line(path), len(o.traces)-i, len(o.traces))
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
