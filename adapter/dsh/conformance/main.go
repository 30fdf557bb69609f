// Command conformance generates docs/conformance/dsh-plan-mode-0.1.0-rc.8.md,
// the conformance page of the published @deepseek-ai/dsh-plan-mode package,
// from the JSON report of `plankit check --adapter "node adapter/dsh/host.mjs"
// --json`, the written-up deviations (adapter/dsh/deviations.yaml) and the
// expected-failure manifest (adapter/dsh/expected-failures.txt).
//
// It refuses to write a page that would be wrong: a failing check no
// deviation explains, a deviation naming a check that passes or does not
// exist, and a manifest entry or deviation check missing from the other are
// all errors (exit 1). Run it from the repository root:
//
//	go run ./adapter/dsh/conformance
//	go run ./adapter/dsh/conformance -check   # exit 1 if the page is stale
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/report"
)

// Default paths, relative to the repository root.
const (
	defaultReport     = "docs/conformance/dsh-plan-mode-0.1.0-rc.8.json"
	defaultDeviations = "adapter/dsh/deviations.yaml"
	defaultManifest   = "adapter/dsh/expected-failures.txt"
	defaultOutput     = "docs/conformance/dsh-plan-mode-0.1.0-rc.8.md"
	defaultAdapter    = "node adapter/dsh/host.mjs"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := Inputs{}
	var manifestPath string
	var checkOnly bool
	fs.StringVar(&in.RunPath, "report", defaultReport, "JSON report of plankit check")
	fs.StringVar(&in.DeviationsPath, "deviations", defaultDeviations, "written-up deviations")
	fs.StringVar(&manifestPath, "manifest", defaultManifest, "expected-failure manifest (empty: none)")
	fs.StringVar(&in.Output, "o", defaultOutput, "the page to write")
	fs.StringVar(&in.Adapter, "adapter", defaultAdapter, "the --adapter command line the check ran with")
	fs.BoolVar(&checkOnly, "check", false, "do not write; exit 1 when the page differs from what would be generated")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "conformance: unexpected arguments %q\n", fs.Args())
		return 2
	}
	page, err := generate(in, manifestPath)
	if err != nil {
		fmt.Fprintf(stderr, "conformance: %v\n", err)
		return 1
	}
	if checkOnly {
		old, err := os.ReadFile(in.Output)
		if err != nil || !bytes.Equal(old, page) {
			fmt.Fprintf(stderr, "conformance: %s is stale; run go run ./adapter/dsh/conformance\n", in.Output)
			return 1
		}
		return 0
	}
	if err := atomicfile.Write(in.Output, page); err != nil {
		fmt.Fprintf(stderr, "conformance: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s\n", in.Output)
	return 0
}

// generate reads the inputs and renders the page.
func generate(in Inputs, manifestPath string) ([]byte, error) {
	data, err := os.ReadFile(in.RunPath)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &in.Run); err != nil {
		return nil, fmt.Errorf("%s: not a plankit JSON report: %w", in.RunPath, err)
	}
	if in.Notes, err = readNotes(in.DeviationsPath); err != nil {
		return nil, err
	}
	if manifestPath != "" {
		if in.Manifest, err = report.ReadManifest(manifestPath); err != nil {
			return nil, err
		}
	}
	return render(in)
}
