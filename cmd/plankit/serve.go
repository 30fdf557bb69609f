package main

import (
	"context"
	"errors"
	"io"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
	"github.com/spf13/cobra"
)

// serveOptions are the flags of plankit serve.
type serveOptions struct {
	mutant   string
	choices  []string
	validate bool
	level    levelFlags
}

func newServeCmd() *cobra.Command { return serveCmd(&serveOptions{}) }

func serveCmd(o *serveOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the reference implementation over the adapter protocol on stdin/stdout",
		Long: `serve answers the adapter protocol (docs/adapter-protocol.md) on stdin and
stdout with the reference implementation, or one of its mutants, so that
any command can drive it as an external implementation:

  plankit sim --adapter "plankit serve" examples/*.yaml

It returns after a stop request or at the end of stdin (exit 0). Exit 2
when a line is not a protocol request (not JSON, or longer than the 4 MiB
line limit); exit 3 when its output cannot be written or it is
interrupted (SIGINT, SIGTERM).

A start request resets the served reference, so serve declares the
"reuse" capability. The mutant pending-survives-restart keeps its pending
selections in the reference's memory across a stop; a restart through the
protocol is a new process, or a start that resets the process without a
stop, so served, that mutant behaves as the reference.

With --level runtime it serves the built-in runtime (plankit's loop around
the reference) over the runtime protocol (docs/runtime-protocol.md).`,
		Example: `  plankit sim --adapter "plankit serve --mutant fold-first" examples/*.yaml`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), o, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&o.mutant, "mutant", "", "serve a named mutant of the reference (see docs/mutants.md), or with --level runtime one of the built-in runtime's loop (docs/mutants-runtime.md)")
	cmd.Flags().StringArrayVar(&o.choices, "choice", nil, "reference choice for a silent point of the spec, name=value (repeatable)")
	o.level.register(cmd)
	cmd.Flags().BoolVar(&o.validate, "validate-protocol", false, "answer requests that fail the protocol's JSON Schemas with an error reply")
	return cmd
}

// runServe is plankit serve: it answers the protocol's requests read from
// stdin on stdout until a stop request, the end of stdin or an
// interruption.
func runServe(ctx context.Context, o *serveOptions, stdin io.Reader, stdout io.Writer) error {
	if err := o.level.validate(); err != nil {
		return err
	}
	own, mutant, err := loopMutant(&o.level, o.mutant)
	if err != nil {
		return err
	}
	opts := reference.Options{}
	if mutant != "" {
		m, err := reference.LookupMutant(mutant)
		if err != nil {
			return usageErr("%v", err)
		}
		opts.Mutants = reference.Mutants{m.Name}
	}
	if len(o.choices) > 0 {
		ch, err := parseChoiceFlags(o.choices)
		if err != nil {
			return err
		}
		opts.Choices = ch
	}
	serve := func() error {
		// The reference declares every capability (reference.Capabilities).
		return adapter.Serve(stdin, stdout, reference.NewPort(opts), adapter.ServeOptions{Validate: o.validate})
	}
	if o.level.runtime() {
		b, err := loop.NewBuiltinWith(reference.NewPort(opts), loop.BuiltinOptions{Retry: o.level.retry, Mutants: own})
		if err != nil {
			return usageErr("--retry: %v", err)
		}
		serve = func() error { return adapter.ServeRuntime(stdin, stdout, b, o.validate) }
	}
	served := make(chan error, 1)
	go func() { served <- serve() }()
	select {
	case err = <-served:
	case <-ctx.Done():
		// Interrupted (the driving plankit ends its adapters'
		// process groups with SIGTERM): stop at once, at either
		// level.
		if ie := interruption(ctx); ie != nil {
			return interrupted(ie, "")
		}
		return withCode(ExitImpl, context.Cause(ctx))
	}
	if errors.Is(err, adapter.ErrBadRequest) {
		return withCode(ExitUsage, err) // the peer broke the protocol
	}
	return withCode(ExitImpl, err) // the server could not run (its output failed)
}
