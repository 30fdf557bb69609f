package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/rtrace"
	"github.com/plankit/plankit/sim"
	"github.com/spf13/cobra"
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
}

func (l *levelFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&l.level, "level", levelPlugin, "what is checked: plugin (a plan-mode plugin in plankit's loop, through the adapter protocol) or runtime (a whole runtime with its loop, through the runtime protocol)")
	cmd.Flags().StringVar(&l.retry, "retry", loop.RetryPreStep, "with --level runtime and no --adapter: how the built-in runtime's request recovery retries: pre-step (the specification), same-step (the shipped dsh loop) or none")
}

func (l *levelFlags) validate(cmd *cobra.Command) error {
	switch l.level {
	case levelPlugin:
		if cmd.Flags().Changed("retry") {
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
		return func() loop.Runtime { return pool.Runtime() }, nil
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
// or record (json) and returns the worst exit code.
func simRuntime(w, errw io.Writer, paths []string, format string, maxBytes int64, newRuntime func() loop.Runtime) error {
	if format != "text" && format != "json" {
		return usageErr("--format %q: at --level runtime want text or json", format)
	}
	code, first := ExitPass, error(nil)
	worse := func(c int, err error) {
		if c > code {
			code, first = c, err
		}
	}
	for _, path := range paths {
		var t *loop.Trace
		data, err := inputlimit.ReadFile(path, maxBytes)
		if err == nil {
			t, err = rtrace.Parse(path, data)
		}
		if err != nil {
			fmt.Fprintf(errw, "plankit: %v\n", err)
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
			fmt.Fprintf(w, "%s\n", data)
		} else if err := loop.WriteTimeline(w, *t, rec, findings); err != nil {
			return err
		}
		var in *sim.InputError
		switch {
		case runErr != nil && errors.As(runErr, &in):
			worse(ExitUsage, fmt.Errorf("%s: %w", path, runErr))
		case runErr != nil && loop.IsSkip(runErr):
			worse(ExitImpl, fmt.Errorf("%s: the runtime cannot run this trace: %w", path, runErr))
		case runErr != nil:
			worse(ExitImpl, fmt.Errorf("%s: %w", path, runErr))
		case len(findings) > 0:
			worse(ExitFail, fmt.Errorf("%s: %s", path, findings[0]))
		}
	}
	if code != ExitPass {
		return withCode(code, first)
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

// exploreRuntime is plankit explore --level runtime.
func exploreRuntime(cmd *cobra.Command, impl *implFlags, level *levelFlags, depth int, out string) error {
	if cmd.Flags().Changed("retries") {
		return usageErr("--retries is the plugin level's; at --level runtime use --retry")
	}
	newRuntime, err := runtimeFactory(impl, level)
	if err != nil {
		return err
	}
	res, err := suite.Explore(cmd.Context(), suite.ExploreOptions{NewRuntime: newRuntime, Depth: depth})
	if err != nil {
		var ie *sim.ImplError
		if errors.As(err, &ie) || !errors.Is(err, context.Canceled) {
			return withCode(ExitImpl, err)
		}
		return err
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "explored to depth %d: %d step sequences (%d-step alphabet, %d steps run)\n", depth, res.Sequences, res.Alphabet, res.Steps)
	if res.Violation == nil {
		fmt.Fprintln(w, "no violation")
		return nil
	}
	if out == "" {
		if out, err = os.MkdirTemp("", "plankit-explore-"); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return usageErr("--out: %v", err)
	}
	data, err := rtrace.Marshal(*res.Violation)
	if err != nil {
		return err
	}
	path := filepath.Join(out, fmt.Sprintf("explore-runtime-depth%d.yaml", depth))
	if err := atomicfile.Write(path, data); err != nil {
		return usageErr("--out: %v", err)
	}
	fmt.Fprintf(w, "violation: %s\ncounterexample: %s\n", res.Findings[0], path)
	return withCode(ExitFail, fmt.Errorf("violation after %d steps; replay with plankit sim --level runtime %s", len(res.Violation.Steps), path))
}
