package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/plankit/plankit/catalog"
	"github.com/plankit/plankit/catalog/coverage"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/spec"
	"github.com/spf13/cobra"
)

func newCatalogCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "catalog",
		Short: "Print the clause, event and service catalogs and the clause coverage",
		Long: `catalog prints what plankit knows: every clause of the specification with its
group, the suite version it entered and the choices for the silent points
(clauses); every event type the simulator writes with the shape of its data
(events); and the plan-mode service's get/set signatures with their doc
comments, generated from the reference's Go source (service).

catalog coverage checks that every clause has a scenario and a property and
that every check cites known clauses, and exits 1 when it fails.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usageErr("catalog needs a subcommand: clauses, events, service or coverage")
		},
	}
	show := func(use, short string, render func(format string) ([]byte, error)) *cobra.Command {
		var format string
		c := &cobra.Command{
			Use:   use,
			Short: short,
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				if format != "md" && format != "json" {
					return usageErr("unknown --format %q (one of md, json)", format)
				}
				out, err := render(format)
				if err != nil {
					return err
				}
				_, err = cmd.OutOrStdout().Write(out)
				return err
			},
		}
		c.Flags().StringVarP(&format, "format", "f", "md", "output format: md or json")
		return c
	}
	cmd.AddCommand(
		show("clauses", "Print every clause with its group, suite version and silent-point choices", func(f string) ([]byte, error) {
			if f == "json" {
				return catalog.ClausesJSON(), nil
			}
			return catalog.ClausesMarkdown(), nil
		}),
		show("events", "Print every event type the simulator writes with its data shape", func(f string) ([]byte, error) {
			if f == "json" {
				return catalog.EventsJSON(), nil
			}
			return catalog.EventsMarkdown(), nil
		}),
		show("service", "Print the service's get/set signatures and doc comments", func(f string) ([]byte, error) {
			svc, err := catalog.GeneratedService()
			if err != nil {
				return nil, err
			}
			if f == "json" {
				return catalog.ServiceJSON(svc), nil
			}
			return catalog.ServiceMarkdown(svc), nil
		}),
		newCatalogCoverageCmd(),
	)
	return cmd
}

func newCatalogCoverageCmd() *cobra.Command {
	var root, features, runtimeFeatures, format string
	cmd := &cobra.Command{
		Use:   "coverage",
		Short: "Print the clause × {scenarios, properties, runtime checks} matrix and what a runtime cannot show; fail on gaps or unknown clauses",
		Long: `coverage relates every clause to the checks that cite it: scenarios are read
from the clause tags (@PEND-5) and ID tags (@id:...) of features/*.feature,
properties from the property registry, and the runtime-level checks (the
runtime column) from loop/suite/*.feature and the runtime properties. It then
lists what a runtime cannot show, clause by clause, with why (the runtime
level's gaps, declared in loop/suite/gaps.go); a clause no runtime check cites
must be one whose whole is such a gap.

Exit 0 when every clause has at least one scenario and one property and every
check cites only known clauses, depends only on known choices (@choice:NAME=VALUE)
and has a stable ID; 1 listing each problem;
2 when a feature file cannot be read or parsed (file and line named).`,
		Example: `  plankit catalog coverage
  plankit catalog coverage --format md`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "text" && format != "md" && format != "json" {
				return usageErr("unknown --format %q (one of text, md, json)", format)
			}
			explicit := features != ""
			if features == "" {
				dir, err := moduleRoot(root)
				if err != nil {
					return err
				}
				features = filepath.Join(dir, "features")
			}
			if st, err := os.Stat(features); err != nil || !st.IsDir() {
				return usageErr("features directory %s not found (--features DIR)", features)
			}
			if runtimeFeatures == "" && !explicit {
				// A --features directory is coverage of its own: the
				// runtime column then comes only from --runtime-features.
				dir, err := moduleRoot(root)
				if err != nil {
					return err
				}
				runtimeFeatures = filepath.Join(dir, "loop", "suite")
			}
			scenarios, err := scenarioChecks(features)
			if err != nil {
				return withCode(ExitUsage, err)
			}
			var runtimeScenarios []coverage.Check
			if runtimeFeatures != "" {
				if st, err := os.Stat(runtimeFeatures); err != nil || !st.IsDir() {
					return usageErr("runtime features directory %s not found (--runtime-features DIR)", runtimeFeatures)
				}
				if runtimeScenarios, err = scenarioChecks(runtimeFeatures); err != nil {
					return withCode(ExitUsage, err)
				}
			}
			m := coverage.ComputeWithChoices(spec.ClauseIDs(), knownChoices(), scenarios, propertyChecks())
			if runtimeFeatures != "" {
				m.AddRuntime(append(runtimeScenarios, runtimePropertyChecks()...))
				m.AddRuntimeGaps(runtimeGaps())
			}
			var buf bytes.Buffer
			switch format {
			case "md":
				err = m.WriteMarkdown(&buf)
			case "json":
				err = m.WriteJSON(&buf)
			default:
				err = m.WriteText(&buf)
			}
			if err != nil {
				return err
			}
			cmd.OutOrStdout().Write(buf.Bytes())
			if !m.OK() {
				return withCode(ExitFail, fmt.Errorf("clause coverage: %d problem(s)", len(m.Problems)))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&root, "root", "", "module root (default: found from the working directory)")
	cmd.Flags().StringVar(&features, "features", "", "directory of .feature files (default: the module's features/)")
	cmd.Flags().StringVar(&runtimeFeatures, "runtime-features", "", "directory of runtime-level .feature files (default: the module's loop/suite/, unless --features is given)")
	cmd.Flags().StringVarP(&format, "format", "f", "text", "output format: text, md or json")
	return cmd
}

// knownChoices are the catalog's choices with their values.
func knownChoices() coverage.Choices {
	out := coverage.Choices{}
	for _, c := range catalog.Choices() {
		for _, v := range c.Values {
			out[c.Name] = append(out[c.Name], v.Value)
		}
	}
	return out
}

// scenarioChecks reads the scenario checks of every .feature file in dir,
// in file name order, naming each by its path under dir.
func scenarioChecks(dir string) ([]coverage.Check, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.feature"))
	if err != nil {
		return nil, err
	}
	wd, _ := os.Getwd()
	var checks []coverage.Check
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		name := f
		if rel, err := filepath.Rel(wd, f); err == nil && filepath.IsAbs(f) && !strings.HasPrefix(rel, "..") {
			name = rel // name files as the user would type them
		}
		cs, err := coverage.ParseFeature(filepath.ToSlash(name), src)
		if err != nil {
			return nil, err
		}
		checks = append(checks, cs...)
	}
	return checks, nil
}

// propertyChecks returns the property checks that coverage counts: one per
// registered property, with the clauses it cites.
func propertyChecks() []coverage.Check {
	var checks []coverage.Check
	for _, p := range properties.Catalog() {
		checks = append(checks, coverage.Check{ID: p.Name, Name: p.Doc, Clauses: p.Clauses})
	}
	return checks
}

// runtimePropertyChecks are the runtime-level properties (loop/suite).
func runtimePropertyChecks() []coverage.Check {
	var checks []coverage.Check
	for _, p := range suite.PropertyCases() {
		checks = append(checks, coverage.Check{ID: p.ID, Name: p.Name, Clauses: p.Clauses})
	}
	return checks
}

// runtimeGaps are the parts of clauses the runtime level cannot check.
func runtimeGaps() []coverage.Gap {
	var gaps []coverage.Gap
	for _, g := range suite.Gaps {
		gaps = append(gaps, coverage.Gap{Clause: g.Clause, Part: g.Part, Why: g.Why})
	}
	return gaps
}

// modulePath identifies plankit's own module root.
const modulePath = "github.com/plankit/plankit"

// moduleRoot returns dir when given, else the nearest directory at or
// above the working directory whose go.mod declares plankit's module.
func moduleRoot(dir string) (string, error) {
	if dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
			return "", usageErr("--root %s: no go.mod there", dir)
		}
		return dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", withCode(ExitUsage, err)
	}
	for d := wd; ; {
		mod, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil && isPlankitModule(mod) {
			return d, nil
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", withCode(ExitUsage, err)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", usageErr("not inside the plankit module (no go.mod declaring %s above %s); use --root", modulePath, wd)
		}
		d = parent
	}
}

func isPlankitModule(gomod []byte) bool {
	for _, line := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			return f[1] == modulePath
		}
	}
	return false
}
