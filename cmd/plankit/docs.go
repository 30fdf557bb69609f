package main

//go:generate go run . docs

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	dshconformance "github.com/plankit/plankit/adapter/dsh/conformance"
	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/catalog"
	"github.com/plankit/plankit/examples"
	"github.com/plankit/plankit/examples/mistakes"
	"github.com/plankit/plankit/internal/generated"
	"github.com/plankit/plankit/internal/schemadoc"
	"github.com/plankit/plankit/lockstep"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/rtrace"
	"github.com/plankit/plankit/trace"
	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// newDocsCmd is what `go generate ./...` runs: it writes every generated
// file of the module. It is hidden, being a maintainer's step and not part
// of the tool; the freshness test (TestGeneratedFilesAreFresh) fails when a
// committed file differs from what it writes.
func newDocsCmd() *cobra.Command {
	var root string
	cmd := &cobra.Command{
		Use:    "docs",
		Short:  "Write every generated file of the plankit module (go generate ./... runs it)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := moduleRoot(root)
			if err != nil {
				return err
			}
			set, err := generatedFiles(dir)
			if err != nil {
				return withCode(ExitUsage, err)
			}
			n, err := set.Write(dir)
			if err != nil {
				return withCode(ExitUsage, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%d generated files, %d written or removed\n", len(set.Files), n)
			return nil
		},
	}
	cmd.Flags().StringVar(&root, "root", "", "module root (default: found from the working directory)")
	return cmd
}

// generatedFiles is the one list of the module's generated files under
// root (internal/generated.Set): those `go generate ./...` writes, in a
// fixed order: the CLI reference, the trace-format reference, the catalogs,
// the conformance pages of the published package and runtime, the
// generated regions of hand-written pages (generatedRegions), the
// examples' golden pictures, and the scripts that run the documentation's
// commands; and those other commands write (generatedElsewhere).
func generatedFiles(root string) (generated.Set, error) {
	set := generated.Set{Owned: []string{"docs/cli/*.md", docScriptDir + "/*.txtar"}, Unmarked: examples.Owned, Elsewhere: generatedElsewhere}
	docs, err := generatedDocs()
	if err != nil {
		return set, err
	}
	set.Files = append(set.Files, docs...)
	if err := catalog.Check(); err != nil {
		return set, err
	}
	cat, err := catalog.Files(os.DirFS(root))
	if err != nil {
		return set, err
	}
	set.Files = append(set.Files, cat...)
	events, err := loop.EventReference(reference.Factory(reference.Options{}))
	if err != nil {
		return set, err
	}
	set.Files = append(set.Files, generated.File{Path: loop.EventReferencePath, Content: events})
	for _, sub := range []dshconformance.Subject{dshconformance.PluginSubject, dshconformance.RuntimeSubject} {
		page, err := dshconformance.PageOf(root, sub)
		if err != nil {
			return set, err
		}
		set.Files = append(set.Files, page)
	}
	regions, err := generatedRegions(root)
	if err != nil {
		return set, err
	}
	set.Files = append(set.Files, regions...)
	corpus, err := mistakes.Page()
	if err != nil {
		return set, err
	}
	set.Files = append(set.Files, corpus)
	pictures, err := examples.Goldens(root)
	if err != nil {
		return set, err
	}
	set.Files = append(set.Files, pictures...)
	scripts, err := docScripts(root, set.Files)
	if err != nil {
		return set, err
	}
	set.Files = append(set.Files, scripts...)
	return set, nil
}

// generatedElsewhere are the generated files `go generate ./...` does not
// write: kill matrices too slow to run on every generate, and test
// fixtures their test's -update flag rewrites.
var generatedElsewhere = []generated.Elsewhere{
	{Path: "docs/mutants.md", Command: "go run ./cmd/plankit mutants --matrix --out docs/mutants.md", Test: "cmd/plankit TestMutantsDocIsFresh"},
	{Path: runtimeMatrixPath, Command: runtimeMatrixCmd, Test: "cmd/plankit TestMutantsAreKilledAtRuntimeLevel"},
	{Path: "adapter/dsh/conformance/testdata/page.golden.md", Command: "go test ./adapter/dsh/conformance -run TestRenderGolden -update", Test: "adapter/dsh/conformance TestRenderGolden"},
	{Path: "cmd/plankit/testdata/snippets.txtar", Command: "go test ./cmd/plankit -run TestDocScriptOfAFixturePage -update", Test: "cmd/plankit TestDocScriptOfAFixturePage"},
}

// generatedDocs renders the reference pages under docs/: one page per
// command of the tree (with every flag) and the trace format.
func generatedDocs() ([]generated.File, error) {
	root := newRootCmd()
	var cmds []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.IsAvailableCommand() && c != root || c.IsAdditionalHelpTopicCommand() {
			return
		}
		c.DisableAutoGenTag = true // no date: the pages must be reproducible
		cmds = append(cmds, c)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	var files []generated.File
	for _, c := range cmds {
		var buf bytes.Buffer
		buf.WriteString(generated.MarkdownNote)
		if err := doc.GenMarkdownCustom(c, &buf, func(s string) string { return s }); err != nil {
			return nil, err
		}
		name := strings.ReplaceAll(c.CommandPath(), " ", "_") + ".md"
		files = append(files, generated.File{Path: path.Join("docs/cli", name), Content: buf.Bytes()})
	}
	schema, err := trace.BuildSchema()
	if err != nil {
		return nil, err
	}
	files = append(files, generated.File{Path: "trace/schema.json", Content: schema})
	rschema, err := rtrace.BuildSchema()
	if err != nil {
		return nil, err
	}
	files = append(files, generated.File{Path: "rtrace/schema.json", Content: rschema})
	page, err := schemadoc.Markdown(schema, "Trace file format",
		"Generated from the trace file JSON Schema (`trace/schema.json`, printed by `plankit schema`). A trace is YAML or JSON; `plankit sim` validates it against the schema and reports every problem with its file, line, column and field. A trace is UTF-8, at most 1 MiB, 64 levels deep, 100,000 YAML nodes (aliases counted as what they expand to) and 5,000 actions by default; the `--max-input-*` flags raise each bound ([reliability](reliability.md#input-limits)). See [getting started](getting-started.md) for a first trace. The format has a version (`format`, now 2; `plankit version` prints it): a trace of an earlier format is refused with the key it used and the command that upgrades it, `plankit fmt --fix FILE`, which rewrites only what the format changed ([runtime traces](runtime-trace-format.md#formats) have the same).")
	if err != nil {
		return nil, err
	}
	files = append(files, generated.File{Path: "docs/trace-format.md", Content: append([]byte(generated.MarkdownNote), page...)})
	return files, nil
}

// generatedRegions are the tables and lists hand-written pages carry
// between generated markers (generated.Region): the recipes of
// docs/architecture.md, which the evidence test holds (recipe.go), the
// attribution table of docs/lockstep.md, and the rules (attribution.Checks)
// by ID of docs/lint.md and docs/checking-your-runtime.md.
func generatedRegions(root string) ([]generated.File, error) {
	var files []generated.File
	for _, page := range []struct {
		path    string
		regions [][2]string // name, content
	}{
		{"docs/architecture.md", [][2]string{{"recipe-clause", recipeMarkdown(clauseRecipe, false)}, {"recipe-mutant", recipeMarkdown(clauseRecipe, true)}, {"recipe-action", recipeMarkdown(actionRecipe, false)}, {"recipe-step", recipeMarkdown(stepRecipe, false)}}},
		{"docs/lockstep.md", [][2]string{{"attribution-table", lockstep.TableMarkdown()}, {"ledger", attribution.LedgerMarkdown()}}},
		{"docs/lint.md", [][2]string{{"lint-rules", attribution.ChecksMarkdown("lint/")}}},
		{"docs/runtime-trace-format.md", [][2]string{{"runtime-steps", loop.StepsMarkdown()}}},
		{"docs/checking-your-runtime.md", [][2]string{{"runtime-rules", attribution.ChecksMarkdown("invariant/") + "\n" + attribution.ChecksMarkdown("expect/")}}},
	} {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page.path)))
		if err != nil {
			return nil, err
		}
		for _, r := range page.regions {
			if data, err = generated.Region(page.path, data, r[0], []byte(r[1])); err != nil {
				return nil, err
			}
		}
		files = append(files, generated.File{Path: page.path, Content: data})
	}
	return files, nil
}
