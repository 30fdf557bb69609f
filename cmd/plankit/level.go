package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/lockstep"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/rtrace"
	"github.com/plankit/plankit/sim"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Levels of checking: the plan-mode plugin inside plankit's loop, or a
// whole runtime with its own loop (docs/runtime-protocol.md).
const (
	levelPlugin  = "plugin"
	levelRuntime = "runtime"
)

// levelFlags pick the level and, for the built-in runtime, its retry
// behaviour.
type levelFlags struct {
	level string
	retry string
	// flags are the command's, which validate asks what was given.
	flags *pflag.FlagSet
}

func (l *levelFlags) register(cmd *cobra.Command) {
	l.flags = cmd.Flags()
	cmd.Flags().StringVar(&l.level, "level", levelPlugin, "what is checked: plugin (a plan-mode plugin in plankit's loop, through the adapter protocol) or runtime (a whole runtime with its loop, through the runtime protocol)")
	cmd.Flags().StringVar(&l.retry, "retry", loop.RetryPreStep, "with --level runtime and no --adapter: how the built-in runtime's request recovery retries: pre-step (the specification), same-step (the shipped dsh loop) or none")
}

func (l *levelFlags) validate() error {
	switch l.level {
	case levelPlugin:
		if l.flags.Changed("retry") {
			return usageErr("--retry picks the built-in runtime's behaviour; it needs --level runtime")
		}
	case levelRuntime:
	default:
		return usageErr("--level %q: want plugin or runtime", l.level)
	}
	return nil
}

func (l *levelFlags) runtime() bool { return l.level == levelRuntime }

// loopMutant sorts --mutant: a mutant of the built-in runtime's own loop
// (loop.Mutants) is returned as own and taken out of the name the
// reference looks up (rest) at the runtime level; any other name is the
// reference's.
func loopMutant(l *levelFlags, name string) (own []loop.Mutant, rest string, err error) {
	m, ok := loop.LookupMutant(name)
	if !ok || !l.runtime() {
		// the reference looks it up (and names the level a loop's needs)
		return nil, name, nil
	}
	return []loop.Mutant{m.Name}, "", nil
}

// runtimeFactory returns a function building a fresh runtime for each run:
// the built-in runtime around the reference (with --mutant, naming a
// reference mutant or one of the built-in runtime's loop, and --choice),
// or an external runtime over the runtime protocol.
func runtimeFactory(f *implFlags, l *levelFlags) (func() loop.Runtime, error) {
	if f.adapter != "" {
		if l.retry != loop.RetryPreStep {
			return nil, usageErr("--retry picks the built-in runtime's behaviour; an external runtime declares its own")
		}
		pool, err := f.startPool("the runtime", "plankit serve --level runtime", adapter.NewRuntimePool)
		if err != nil {
			return nil, err
		}
		f.pool = pool // its restarts go into the JSON report
		return func() loop.Runtime { return pool.Runtime() }, nil
	}
	if _, err := f.restartMode(); err != nil {
		return nil, err
	}
	own, rest, err := loopMutant(l, f.mutant)
	if err != nil {
		return nil, err
	}
	named := f.mutant
	f.mutant = rest
	newPort, err := f.factory()
	f.mutant = named
	if err != nil {
		return nil, err
	}
	opts := loop.BuiltinOptions{Retry: l.retry, Mutants: own}
	if _, err := loop.NewBuiltinWith(nil, opts); err != nil {
		return nil, usageErr("--retry: %v", err)
	}
	return func() loop.Runtime {
		b, _ := loop.NewBuiltinWith(newPort(), opts)
		return b
	}, nil
}

// simRuntime replays runtime traces: it prints each run's timeline (text)
// or record (json) and returns the worst exit code. Interrupted (ctx
// cancelled by SIGINT or SIGTERM), it stops before the next trace and
// names the traces it did not run. With builtin (the runtime is plankit's
// own), a trace whose turn the built-in runtime cannot play to its end is
// an input error before it runs.
func simRuntime(ctx context.Context, w, errw io.Writer, paths []string, format string, lim inputlimit.Limits, newRuntime func() loop.Runtime, builtin bool) error {
	if format != "text" && format != "json" {
		return usageErr("--format %q: at --level runtime want text or json", format)
	}
	code, first := ExitPass, error(nil)
	worse := func(c int, err error) {
		if c > code {
			code, first = c, err
		}
	}
	for i, path := range paths {
		if ie := interruption(ctx); ie != nil {
			return interrupted(ie, "%d of %d traces not run (from %s)", len(paths)-i, len(paths), safetext.Line(path))
		}
		t, err := rtrace.ReadFileWithLimits(path, lim)
		if err == nil && builtin {
			err = builtinTurnLimit(path, *t)
		}
		if err != nil {
			// The error names the file escaped (schemafile.Error).
			printError(errw, err)
			worse(ExitUsage, errors.New(""))
			continue
		}
		rec, runErr := loop.Run(newRuntime(), *t)
		findings := loop.Verdict(*t, rec)
		if format == "json" {
			data, err := json.MarshalIndent(struct {
				Trace    string         `json:"trace"`
				Record   loop.Record    `json:"record"`
				Findings []loop.Finding `json:"findings"`
				Error    string         `json:"error,omitempty"`
			}{path, rec, nonNilFindings(findings), errString(runErr)}, "", "  ")
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "%s\n", safetext.Bytes(data))
		} else if err := loop.WriteTimeline(w, *t, rec, findings); err != nil {
			return err
		}
		if ie := interruption(ctx); ie != nil && runErr != nil {
			return interrupted(ie, "%s was cut short; %d of %d traces not finished", path, len(paths)-i, len(paths))
		}
		// As at plugin level: a finding is exit 1 also when the run then
		// stopped at a step it could not perform (runCode).
		var in *sim.InputError
		input := runErr != nil && errors.As(runErr, &in)
		switch {
		case runErr != nil && loop.IsSkip(runErr):
			worse(ExitImpl, fmt.Errorf("%s: the runtime cannot run this trace: %w", safetext.Line(path), runErr))
		case runErr != nil && !input:
			worse(ExitImpl, fmt.Errorf("%s: %w", safetext.Line(path), runErr))
		case len(findings) > 0 && input:
			worse(ExitFail, fmt.Errorf("%s: %s; the run then stopped: %v", safetext.Line(path), findings[0], runErr))
		case len(findings) > 0:
			worse(ExitFail, fmt.Errorf("%s: %s", safetext.Line(path), findings[0]))
		case input:
			worse(ExitUsage, fmt.Errorf("%s: %w", safetext.Line(path), runErr))
		}
	}
	if code != ExitPass {
		return withCode(code, first)
	}
	return nil
}

// builtinTurnLimit refuses a trace with a turn the built-in runtime cannot
// play to its end: its script holds more responses before the first that
// ends the turn (text without tool calls, not a failed request) than the
// runtime takes steps in a turn (loop.MaxTurnSteps). The trace asks for
// what the runtime cannot do, so it is an input error, before anything
// runs, not the runtime's failure.
func builtinTurnLimit(path string, t loop.Trace) error {
	for i, st := range t.Steps {
		var sc *loop.Script
		switch {
		case st.Turn != nil:
			sc = &st.Turn.Script
		case st.Command != nil:
			sc = st.Command.Script
		}
		if sc == nil {
			continue
		}
		steps := len(sc.Responses) + 1 // the runtime's own ending response after the last
		for j, r := range sc.Responses {
			if len(r.Calls) == 0 && !r.Fail {
				steps = j + 1
				break
			}
		}
		if steps > loop.MaxTurnSteps {
			return fmt.Errorf("%s: step %d (%s): the turn's script takes %d steps before a response can end it (one without tool calls that does not fail); the built-in runtime ends a turn after %d steps, so it cannot play this trace", safetext.Quote(path), i+1, st.Name(), steps, loop.MaxTurnSteps)
		}
	}
	return nil
}

func nonNilFindings(f []loop.Finding) []loop.Finding {
	if f == nil {
		return []loop.Finding{}
	}
	return f
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// exploreRuntime is plankit explore --level runtime; retriesSet says
// whether the plugin level's --retries was given.
func exploreRuntime(ctx context.Context, w io.Writer, impl *implFlags, level *levelFlags, depth int, out string, retriesSet bool) error {
	if retriesSet {
		return usageErr("--retries is the plugin level's; at --level runtime use --retry")
	}
	if err := impl.checkJobs(); err != nil {
		return err
	}
	if err := outputDir("--out", out); err != nil {
		return err
	}
	newRuntime, err := runtimeFactory(impl, level)
	if err != nil {
		return err
	}
	// Every script of the runtime alphabet up to the depth, each compared
	// step by step with the model: the built-in runtime around the
	// reference (lockstep at runtime level, no random scripts).
	res, err := lockstep.RunRuntime(ctx, lockstep.RuntimeOptions{NewImpl: newRuntime, Depth: depth, Out: out, Output: w, Jobs: impl.jobs})
	if ie := interruption(ctx); ie != nil {
		states := 0
		if res != nil {
			states = res.States
		}
		return interrupted(ie, "explored %d distinct states before it, no verdict for depth %d", states, depth)
	}
	var ie *sim.ImplError
	if err != nil && res != nil && res.Runtime != nil && !errors.As(err, &ie) {
		// A violation was found but its trace could not be written (a
		// symbolic link at its name): an input error, the violation
		// still reported, as at the plugin level.
		d := res.Runtime
		fmt.Fprintf(w, "explored to depth %d: %d distinct states, %d step sequences compared with the model\n", depth, res.States, res.Transitions)
		fmt.Fprintf(w, "violation: %s\nclauses: %s\ncounterexample: not written\n", d.Diff.String(), strings.Join(d.Clauses, " "))
		return withCode(ExitUsage, fmt.Errorf("writing the counterexample of the violation: %w", err))
	}
	if err != nil {
		if errors.As(err, &ie) || !errors.Is(err, context.Canceled) {
			return withCode(ExitImpl, err)
		}
		return err
	}
	fmt.Fprintf(w, "explored to depth %d: %d distinct states, %d step sequences compared with the model\n", depth, res.States, res.Transitions)
	d := res.Runtime
	if d == nil {
		fmt.Fprintln(w, "no violation")
		return nil
	}
	fmt.Fprintf(w, "violation: %s\nclauses: %s\ncounterexample: %s\n", d.Diff.String(), strings.Join(d.Clauses, " "), d.Path)
	return withCode(ExitFail, fmt.Errorf("violation after %d steps; replay with %s %s", len(d.Trace.Steps), replayCommand(impl, level), d.Path))
}
