package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/plankit/plankit/conformance"
	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/internal/pathcheck"
	"github.com/plankit/plankit/report"
	"github.com/spf13/cobra"
)

// reportFlags are the report files a run writes: --json, --junit and
// --cucumber (empty: none).
type reportFlags struct{ report.Files }

func (r *reportFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&r.JUnit, "junit", "", "write a JUnit XML report to `PATH`")
	f.StringVar(&r.Cucumber, "cucumber", "", "write a cucumber JSON report to `PATH`")
	f.StringVar(&r.JSON, "json", "", "write the plankit JSON report to `PATH`")
}

// validate checks every report path before anything runs, so that a
// report that cannot be written is a usage error (exit 2) at once rather
// than after the whole run.
func (r reportFlags) validate() error {
	for _, f := range []struct{ flag, path string }{{"--junit", r.JUnit}, {"--cucumber", r.Cucumber}, {"--json", r.JSON}} {
		if f.path == "" {
			continue
		}
		if err := pathcheck.OutputFile(f.flag, f.path); err != nil {
			return usageErr("%v", err)
		}
	}
	return nil
}

// checkPaths are the other paths a conformance run is given.
type checkPaths struct {
	Expect          string // the manifest to read; empty: none
	Fix             bool   // the manifest is rewritten (and may not exist yet)
	Counterexamples string // directory for counterexamples; empty: a temporary one
}

// validate checks the manifest and counterexample paths before anything
// runs, as reportFlags.validate does the reports.
func (p checkPaths) validate() error {
	if p.Fix && p.Expect == "" {
		return usageErr("--fix needs --expect FILE")
	}
	if p.Expect != "" {
		var err error
		switch _, statErr := os.Stat(p.Expect); {
		case p.Fix && errors.Is(statErr, fs.ErrNotExist):
			err = pathcheck.OutputFile("--expect", p.Expect)
		case p.Fix:
			if err = pathcheck.InputFile("--expect", p.Expect); err == nil {
				err = pathcheck.OutputFile("--expect", p.Expect)
			}
		default:
			err = pathcheck.InputFile("--expect", p.Expect)
		}
		if err != nil {
			return usageErr("%v", err)
		}
	}
	return outputDir("--counterexamples", p.Counterexamples)
}

// manifest reads the --expect manifest within lim (nil without one), for
// conformance.Options.Manifest; with --fix also the UpdateManifest that
// rewrites it, saying so on stdout.
func (p checkPaths) manifest(stdout io.Writer, lim inputlimit.Limits) (*report.Manifest, func([]report.Case) (*report.Manifest, error), error) {
	if p.Expect == "" {
		return nil, nil, nil
	}
	wrote := func() { fmt.Fprintf(stdout, "rewrote %s\n", p.Expect) }
	m, update, err := conformance.ManifestFile(p.Expect, p.Fix, lim, wrote)
	if err != nil {
		return nil, nil, usageErr("%v", err)
	}
	return m, update, nil
}

// outputDir checks a directory flag before anything runs; empty is a
// temporary directory.
func outputDir(flag, path string) error {
	if path == "" {
		return nil
	}
	if err := pathcheck.OutputDir(flag, path); err != nil {
		return usageErr("%v", err)
	}
	return nil
}

// readExpect checks and reads the manifest of --expect (nil without one),
// for the assume: lines of explore and diff.
func readExpect(path string) (*report.Manifest, error) {
	if path == "" {
		return nil, nil
	}
	if err := (checkPaths{Expect: path}).validate(); err != nil {
		return nil, err
	}
	m, err := report.ReadManifest(path)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return m, nil
}
