package main

import (
	"errors"
	"io/fs"
	"os"

	"github.com/plankit/plankit/internal/pathcheck"
)

// checkPaths are the paths a conformance run is given.
type checkPaths struct {
	JUnit, Cucumber, JSON string // reports to write; empty: none
	Expect                string // the manifest to read; empty: none
	Fix                   bool   // the manifest is rewritten (and may not exist yet)
	Counterexamples       string // directory for counterexamples; empty: a temporary one
}

// validate checks every path before anything runs, so that a report that
// cannot be written or a manifest that cannot be read is a usage error
// (exit 2) at once rather than after the whole suite ran.
func (p checkPaths) validate() error {
	for _, r := range []struct{ flag, path string }{{"--junit", p.JUnit}, {"--cucumber", p.Cucumber}, {"--json", p.JSON}} {
		if r.path == "" {
			continue
		}
		if err := pathcheck.OutputFile(r.flag, r.path); err != nil {
			return usageErr("%v", err)
		}
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
	if p.Counterexamples != "" {
		if err := pathcheck.OutputDir("--counterexamples", p.Counterexamples); err != nil {
			return usageErr("%v", err)
		}
	}
	return nil
}
