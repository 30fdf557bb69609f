package main

import (
	"io"

	"github.com/spf13/cobra"
)

// Main runs plankit with args and returns the exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	pools.closeAll()
	if err != nil && err.Error() != "" {
		io.WriteString(stderr, "plankit: "+err.Error()+"\n")
	}
	return codeOf(err)
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "plankit",
		Short: "Conformance kit and deterministic simulator for plan mode",
		Long: `plankit checks implementations of plan mode, the logged per-agent planning
state of AI agent runtimes, against its specification (SPEC.md clauses).

Exit codes: 0 pass, 1 a check or expectation failed, 2 usage or input error,
3 the implementation or adapter could not be run.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(newSimCmd(), newCheckCmd(), newExploreCmd(), newDiffCmd(), newMutantsCmd(), newServeCmd(), newLintCmd(), newCatalogCmd(), newDocsCmd(), newSchemaCmd())
	return root
}
