package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/rtrace"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
	"github.com/spf13/cobra"
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print plankit's version, the suite's and the protocols' and formats'",
		Long: `version prints which plankit this is: its module version as the go command
built it (v1.2.3 for go install github.com/plankit/plankit/cmd/plankit@v1.2.3;
(devel) for a build from a checkout, with the commit when the go command
recorded it), the version of the conformance suite its reports name, the
versions of the adapter protocol and the runtime protocol it speaks, and the
trace formats it reads and writes (plankit fmt --fix upgrades older traces).
plankit --version prints the same.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := io.WriteString(cmd.OutOrStdout(), versionText())
			return err
		},
	}
}

// versionText is what plankit version and plankit --version print.
func versionText() string {
	return fmt.Sprintf("plankit %s\nsuite %s\nadapter protocol %d.%d\nruntime protocol %d.%d\ntrace format %d\nruntime trace format %d\n",
		moduleVersion(), spec.SuiteVersion, adapter.ProtocolVersion, adapter.ProtocolMinor, adapter.ProtocolVersion, adapter.RuntimeProtocolMinor,
		trace.Format, rtrace.Format)
}

// moduleVersion is plankit's module version as the go command recorded it
// in the binary: the version go install …@VERSION fetched, or (devel) for
// a build in a checkout, then the commit and whether the tree had changes
// when the go command recorded them.
func moduleVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown: the binary carries no build information)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	if info.Main.Path != "" && info.Main.Path != modulePath {
		// A test binary, or plankit built into another module's program.
		for _, dep := range info.Deps {
			if dep.Path == modulePath {
				v = dep.Version
				if dep.Replace != nil {
					v += " => " + dep.Replace.Path + " " + dep.Replace.Version
				}
			}
		}
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" {
		v += " (commit " + rev
		if modified == "true" {
			v += ", with changes"
		}
		v += ")"
	}
	return v
}
