// Package conformance renders docs/conformance/dsh-plan-mode-0.1.0-rc.8.md,
// the conformance page of the published @deepseek-ai/dsh-plan-mode package,
// from the JSON report of `plankit check --adapter "node adapter/dsh/host.mjs"
// --json`, the written-up deviations (adapter/dsh/deviations.yaml) and the
// expected-failure manifest (adapter/dsh/expected-failures.txt). The page is
// a generated file: `go generate ./...` writes it and the module's
// freshness test fails when it is stale.
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

// The page's inputs and the page itself, relative to the module root.
const (
	ReportPath     = "docs/conformance/dsh-plan-mode-0.1.0-rc.8.json"
	DeviationsPath = "adapter/dsh/deviations.yaml"
	ManifestPath   = "adapter/dsh/expected-failures.txt"
	PagePath       = "docs/conformance/dsh-plan-mode-0.1.0-rc.8.md"
	AdapterCommand = "node adapter/dsh/host.mjs"
)

// Page renders the conformance page from the committed inputs under root
// (the module root).
func Page(root string) (generated.File, error) {
	in := Inputs{RunPath: ReportPath, DeviationsPath: DeviationsPath, Adapter: AdapterCommand, Output: PagePath}
	at := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	data, err := os.ReadFile(at(ReportPath))
	if err != nil {
		return generated.File{}, err
	}
	if err := json.Unmarshal(data, &in.Run); err != nil {
		return generated.File{}, fmt.Errorf("%s: not a plankit JSON report: %w", ReportPath, err)
	}
	if in.Notes, err = readNotes(at(DeviationsPath)); err != nil {
		return generated.File{}, err
	}
	manifest, err := os.ReadFile(at(ManifestPath))
	if err != nil {
		return generated.File{}, fmt.Errorf("expected-failure manifest: %w", err)
	}
	if in.Manifest, err = report.ParseManifest(ManifestPath, manifest); err != nil {
		return generated.File{}, err
	}
	page, err := render(in)
	if err != nil {
		return generated.File{}, err
	}
	return generated.File{Path: PagePath, Content: page}, nil
}
