// Package conformance renders the conformance pages of the published dsh
// subjects: docs/conformance/dsh-plan-mode-0.1.0-rc.8.md, of the
// @deepseek-ai/dsh-plan-mode package checked inside plankit's loop
// (adapter/dsh), and docs/conformance/dsh-runtime-0.1.0-rc.8.md, of the real
// dsh agent loop running it, checked at the runtime level
// (adapter/dsh-runtime). Each is rendered from the JSON report of `plankit
// check --json`, the written-up deviations (deviations.yaml) and the
// expected-failure manifest (expected-failures.txt). The pages are
// generated files: `go generate ./...` writes them and the module's
// freshness test fails when one is stale.
//
// It refuses to render a page that would be wrong: a failing check no
// deviation explains, a deviation naming a check that passes or does not
// exist, and a manifest entry or deviation check missing from the other are
// all errors.
package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/plankit/plankit/internal/generated"
	"github.com/plankit/plankit/report"
)

// Subject is one published subject a conformance page is written for: the
// committed inputs, the page, and the words that differ between a plan-mode
// package checked inside plankit's loop and a whole runtime.
type Subject struct {
	ReportPath     string
	DeviationsPath string
	ManifestPath   string
	PagePath       string
	AdapterCommand string
	// ChoicesPath is the file that explains the declared choices (its
	// choices:), when it is not DeviationsPath.
	ChoicesPath string
	// Level is the --level of the check ("" for the plugin level).
	Level string
	// Install, CheckFlags and Counterexamples make up the refresh command.
	Install         string
	CheckFlags      string
	Counterexamples string
	// What says what is checked and through what host (a sentence's end).
	What string
	// ChoicesVerified says how the declared choices are verified.
	ChoicesVerified string
	// TracesKept says what keeps every trace failing against the subject
	// and passing against plankit.
	TracesKept string
	// Belongs: every deviation says whether it belongs to the loop, the
	// plugin or where they meet.
	Belongs bool
}

// The published plan-mode package, checked inside plankit's own loop.
var PluginSubject = Subject{
	ReportPath:      "docs/conformance/dsh-plan-mode-0.1.0-rc.8.json",
	DeviationsPath:  "adapter/dsh/deviations.yaml",
	ManifestPath:    "adapter/dsh/expected-failures.txt",
	PagePath:        "docs/conformance/dsh-plan-mode-0.1.0-rc.8.md",
	AdapterCommand:  "node adapter/dsh/host.mjs",
	Install:         "npm ci --prefix adapter/dsh",
	CheckFlags:      "--checks 10",
	Counterexamples: "plankit-counterexamples/dsh",
	What:            "through the host in `adapter/dsh/host.mjs`, which runs the real package inside a real `@deepseek-ai/cordis` Context",
	ChoicesVerified: "each is verified by running the package (`adapter/dsh/test/choices.test.mjs`)",
	TracesKept:      "`adapter/dsh/conformance/traces_test.go` keeps both true",
}

// The real dsh agent loop running the published plan-mode package, checked
// at the runtime level.
var RuntimeSubject = Subject{
	ReportPath:      "docs/conformance/dsh-runtime-0.1.0-rc.8.json",
	DeviationsPath:  "adapter/dsh-runtime/deviations.yaml",
	ManifestPath:    "adapter/dsh-runtime/expected-failures.txt",
	PagePath:        "docs/conformance/dsh-runtime-0.1.0-rc.8.md",
	AdapterCommand:  "node adapter/dsh-runtime/host.mjs",
	ChoicesPath:     "adapter/dsh/deviations.yaml",
	Level:           "runtime",
	Install:         "npm ci --prefix adapter/dsh-runtime",
	Counterexamples: "plankit-counterexamples/dsh-runtime",
	What:            "at the runtime level through the host in `adapter/dsh-runtime/host.mjs`, which runs the real `@deepseek-ai/dsh-agent-loop` with the real `@deepseek-ai/dsh-plan-mode` and the published services; plankit plays only the user, the model, host code and faults",
	ChoicesVerified: "they are the plan-mode package's own readings, verified at the plugin level (`adapter/dsh/test/choices.test.mjs`)",
	TracesKept:      "CI runs `adapter/dsh-runtime/replay-traces.sh` to keep both true",
	Belongs:         true,
}

// Page renders the conformance page of the published plan-mode package
// from the committed inputs under root (the module root).
func Page(root string) (generated.File, error) { return PageOf(root, PluginSubject) }

// PageOf renders the conformance page of sub from the committed inputs
// under root (the module root).
func PageOf(root string, sub Subject) (generated.File, error) {
	in, err := inputsOf(root, sub)
	if err != nil {
		return generated.File{}, err
	}
	page, err := render(in)
	if err != nil {
		return generated.File{}, err
	}
	return generated.File{Path: sub.PagePath, Content: page}, nil
}

// inputsOf reads sub's committed inputs under root: its report, its
// deviations and choices, and its manifest.
func inputsOf(root string, sub Subject) (Inputs, error) {
	in := Inputs{Subject: sub, RunPath: sub.ReportPath, DeviationsPath: sub.DeviationsPath, Adapter: sub.AdapterCommand, Output: sub.PagePath}
	at := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	data, err := os.ReadFile(at(sub.ReportPath))
	if err != nil {
		return Inputs{}, err
	}
	if err := json.Unmarshal(data, &in.Run); err != nil {
		return Inputs{}, fmt.Errorf("%s: not a plankit JSON report: %w", sub.ReportPath, err)
	}
	if in.Notes, err = readNotes(at(sub.DeviationsPath), sub.Belongs); err != nil {
		return Inputs{}, err
	}
	if sub.ChoicesPath != "" {
		other, err := readNotes(at(sub.ChoicesPath), false)
		if err != nil {
			return Inputs{}, err
		}
		in.Notes.Choices = other.Choices
	}
	manifest, err := os.ReadFile(at(sub.ManifestPath))
	if err != nil {
		return Inputs{}, fmt.Errorf("expected-failure manifest: %w", err)
	}
	if in.Manifest, err = report.ParseManifest(sub.ManifestPath, manifest); err != nil {
		return Inputs{}, err
	}
	return in, nil
}
