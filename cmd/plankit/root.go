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
//
// Outside text (safetext) is made inert where it leaves the program:
// stdout and stderr pass through a safetext.Writer, which escapes any
// control, bidirectional or invisible character and CI marker that
// reached them, and the command's error is printed as one line after
// "plankit: ", every line break in it escaped, whatever text it wraps.
func Main(args []string, stdout, stderr io.Writer) int {
	out, errOut := safetext.NewWriter(stdout), safetext.NewWriter(stderr)
	defer out.Flush()
	defer errOut.Flush()
	stdout, stderr = out, errOut
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
		printError(stderr, err)
	}
	return code
}

// printError prints an error on w as plankit's one line: what it wraps
// may hold outside text (file names, an adapter's messages), so its line
// breaks are escaped with the rest (safetext.Line).
func printError(w io.Writer, err error) {
	io.WriteString(w, "plankit: "+safetext.Line(err.Error())+"\n")
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
