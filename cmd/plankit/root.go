package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/plankit/plankit/internal/safetext"

	"github.com/spf13/cobra"
)

// Main runs plankit with args and returns the exit code. The command runs
// under a context that SIGINT and SIGTERM cancel (interrupt.go); the
// adapter processes it started are ended however it returns.
func Main(args []string, stdout, stderr io.Writer) int {
	pools := &poolSet{}
	ctx, stopSignals := catchSignals(stderr, pools)
	ctx = withPools(ctx, pools)
	defer pools.closeAll() // a panic too
	root := newRootCmd()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	stopSignals()
	pools.closeAll()
	code := codeOf(err)
	if ie := interruption(ctx); ie != nil && !errors.As(err, new(*interruptError)) {
		// The command did not say so: the interruption decides the code,
		// and the message names it next to the command's own.
		if err == nil || err.Error() == "" {
			err = errors.New(ie.Error())
		} else {
			err = fmt.Errorf("%v (%v)", err, ie)
		}
		code = ExitInterrupted
	}
	if err != nil && err.Error() != "" {
		io.WriteString(stderr, "plankit: "+safetext.Text(err.Error())+"\n")
	}
	return code
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "plankit",
		Short: "Conformance kit and deterministic simulator for plan mode",
		Long: `plankit checks implementations of plan mode, the logged per-agent planning
state of AI agent runtimes, against its specification (SPEC.md clauses).

Exit codes: 0 pass, 1 a check or expectation failed, 2 usage or input error,
3 the implementation or adapter could not be run, or the run was interrupted
(SIGINT, SIGTERM: reports are still written and say so; docs/checks.md).`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(newSimCmd(), newCheckCmd(), newExploreCmd(), newDiffCmd(), newCompareCmd(), newMutantsCmd(), newServeCmd(), newLintCmd(), newCatalogCmd(), newDocsCmd(), newSchemaCmd(), newFmtCmd(), newVersionCmd())
	// plankit --version prints what plankit version does.
	root.Version = versionText()
	root.SetVersionTemplate("{{.Version}}")
	return root
}
