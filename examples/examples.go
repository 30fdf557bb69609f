// Package examples holds the example traces (NAME.yaml) and, beside each,
// the pictures the reference draws of it: the text timeline NAME.txt that
// `plankit sim --format text examples/NAME.yaml` prints and, for a few
// traces, the Mermaid (NAME.mmd.golden) and HTML (NAME.html.golden)
// pictures, suffixed so that no tool takes them for sources. A picture of a
// run against a mutant carries the mutant's name (NAME.MUTANT.mmd.golden). The pictures are golden files: Goldens renders them,
// `go generate ./...` writes them and the freshness test fails when one
// differs, so a change in what a run logs shows up as a reviewed diff.
//
// The pictures are byte for byte what plankit prints, so they carry no
// "generated" header; docs/writing-docs.md lists them as generated.
package examples

import (
	"bytes"
	"path"
	"path/filepath"
	"strings"

	"github.com/plankit/plankit/internal/generated"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/render"
	"github.com/plankit/plankit/trace"
)

// Dir is where the examples live, relative to the module root.
const Dir = "examples"

// Picture is a run whose Mermaid and HTML pictures are golden: a trace,
// and the mutant it runs against ("" for the reference itself).
type Picture struct {
	Trace  string // file name under Dir
	Mutant reference.Mutant
}

// Pictures are the runs drawn in every format: passing traces, and one run
// against a mutant so that an expectation fails.
var Pictures = []Picture{
	{"pend-mid-turn-later-turn.yaml", ""},
	{"exit-approved-next-step-no-notice.yaml", ""},
	{"step-narration-header-mismatch.yaml", reference.NarrateTwice},
	{"log-fork-and-compaction.yaml", ""},
}

// Owned are the golden files' patterns: a picture no trace produces any
// more is removed.
var Owned = []string{Dir + "/*.txt", Dir + "/*.golden"}

// extensions are the golden files' extensions by render format.
var extensions = map[string]string{"text": "txt", "mermaid": "mmd.golden", "html": "html.golden"}

// Base is the name shared by a picture's files: the trace's name without
// .yaml, then the mutant's name if any.
func (p Picture) Base() string {
	base := strings.TrimSuffix(p.Trace, ".yaml")
	if p.Mutant != "" {
		base += "." + string(p.Mutant)
	}
	return base
}

// Run executes the picture's trace, read from the module root, against the
// reference (with the mutant, if any). The trace is named as the user
// would type it from the root, examples/NAME.yaml.
func (p Picture) Run(root string) (*trace.Run, error) {
	tr, err := trace.ReadFile(filepath.Join(root, Dir, p.Trace))
	if err != nil {
		return nil, err
	}
	tr.File = path.Join(Dir, p.Trace)
	opts := reference.Options{}
	if p.Mutant != "" {
		opts.Mutants = reference.Mutants{p.Mutant}
	}
	return trace.Execute(tr, reference.NewPort(opts)), nil
}

// Goldens renders every example's text timeline and the Mermaid and HTML
// pictures of Pictures, from the traces under root/examples.
func Goldens(root string) ([]generated.File, error) {
	traces, err := filepath.Glob(filepath.Join(root, Dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	var files []generated.File
	draw := func(p Picture, formats ...string) error {
		run, err := p.Run(root)
		if err != nil {
			return err
		}
		for _, format := range formats {
			var b bytes.Buffer
			if err := render.Write(&b, format, run); err != nil {
				return err
			}
			files = append(files, generated.File{Path: path.Join(Dir, p.Base()+"."+extensions[format]), Content: b.Bytes()})
		}
		return nil
	}
	for _, t := range traces {
		if err := draw(Picture{Trace: filepath.Base(t)}, "text"); err != nil {
			return nil, err
		}
	}
	for _, p := range Pictures {
		if err := draw(p, "mermaid", "html"); err != nil {
			return nil, err
		}
	}
	return files, nil
}
