// Package mistakes declares the corpus of realistic mistakes plankit is
// held to: each is one thing an implementer writing from SPEC.md could get
// wrong, emulated behind a flag by one of the example implementations
// (Impl: the Python plugin and runtime, `python3 adapter.py --mistake NAME`,
// `python3 runtime.py --mistake NAME`, or the Node ones, written apart from
// the reference in their own voice, `node plugin.mjs --mistake NAME`,
// `node runtime.mjs --mistake NAME`), with the clause of SPEC.md it breaks.
// The table is mistakes.json beside this file, read by the Python examples
// too (they refuse a name it does not declare); the corpus test runs
// `plankit check` on each, holds that the kit fails it and names that
// clause first (Blamed), and measures how many failing checks are
// attributed to it (Figures, attribution.json); Page renders
// docs/mistakes.md from both.
package mistakes

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/plankit/plankit/internal/generated"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/spec"
)

// Levels at which a mistake is checked, as `plankit check --level` names them.
const (
	LevelPlugin  = "plugin"
	LevelRuntime = "runtime"
)

// Implementations that emulate the corpus, as a row's impl names them.
const (
	ImplPython = "python"
	ImplNode   = "node"
)

// File is the table's path relative to the module root.
const File = "examples/mistakes/mistakes.json"

//go:embed mistakes.json
var table []byte

// Mistake is one entry of the corpus.
type Mistake struct {
	// Name is the value of the example's --mistake flag; a name is
	// declared once per implementation.
	Name string `json:"name"`
	// Impl is the implementation that emulates it: python (the default)
	// or node.
	Impl string `json:"impl,omitempty"`
	// Levels are the levels it is checked at: plugin (the
	// implementation's plugin in plankit's loop) and runtime (its runtime:
	// the Python runtime loads the same plugin into a loop of its own, the
	// Node runtime has its own plan mode).
	Levels []string `json:"levels"`
	// Clauses are the clauses of SPEC.md it breaks, by their words; the
	// kit must name one of them first.
	Clauses []string `json:"clauses"`
	// Description says in one sentence what the implementation gets wrong.
	Description string `json:"description"`
	// Properties: at the plugin level the corpus test runs the properties
	// too (with a small budget), not only the scenarios. Set for a mistake
	// whose failing scenarios, each counted under the clauses it is tagged
	// with, name another clause more often than the one the mistake breaks,
	// while the properties, replayed in lockstep, name the observation
	// that diverged.
	Properties bool `json:"properties,omitempty"`
}

var namePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Corpus reads the table: every field required, no unknown field, names
// unique, levels and clauses known.
func Corpus() ([]Mistake, error) {
	var doc struct {
		Mistakes []Mistake `json:"mistakes"`
	}
	dec := json.NewDecoder(bytes.NewReader(table))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: %v", File, err)
	}
	seen := map[string]bool{}
	for i := range doc.Mistakes {
		m := &doc.Mistakes[i]
		where := fmt.Sprintf("%s: mistakes[%d]", File, i)
		if m.Impl == "" {
			m.Impl = ImplPython
		}
		switch {
		case !namePattern.MatchString(m.Name):
			return nil, fmt.Errorf("%s: name %q: want lower-case words joined by '-'", where, m.Name)
		case m.Impl != ImplPython && m.Impl != ImplNode:
			return nil, fmt.Errorf("%s (%s): impl %q: want %s or %s", where, m.Name, m.Impl, ImplPython, ImplNode)
		case seen[m.Impl+"/"+m.Name]:
			return nil, fmt.Errorf("%s: name %q is declared twice for %s", where, m.Name, m.Impl)
		case len(m.Levels) == 0:
			return nil, fmt.Errorf("%s (%s): no levels", where, m.Name)
		case len(m.Clauses) == 0:
			return nil, fmt.Errorf("%s (%s): no clauses", where, m.Name)
		case strings.TrimSpace(m.Description) == "":
			return nil, fmt.Errorf("%s (%s): no description", where, m.Name)
		}
		seen[m.Impl+"/"+m.Name] = true
		for _, l := range m.Levels {
			if l != LevelPlugin && l != LevelRuntime {
				return nil, fmt.Errorf("%s (%s): level %q: want %s or %s", where, m.Name, l, LevelPlugin, LevelRuntime)
			}
		}
		for _, c := range m.Clauses {
			if !slices.Contains(spec.ClauseIDs(), c) {
				return nil, fmt.Errorf("%s (%s): %q is not a clause of SPEC.md", where, m.Name, c)
			}
		}
	}
	return doc.Mistakes, nil
}

// Adapter is the `plankit check` adapter flags that run impl's example of
// level with mistake on ("" for the faithful example), from the module root.
func Adapter(level, impl, mistake string) (command, dir string) {
	switch {
	case impl == ImplNode && level == LevelRuntime:
		command, dir = "node runtime.mjs", "examples/runtimes/node"
	case impl == ImplNode:
		command, dir = "node plugin.mjs", "examples/adapters/node"
	case level == LevelRuntime:
		command, dir = "python3 runtime.py", "examples/runtimes/python"
	default:
		command, dir = "python3 adapter.py", "examples/adapters/python"
	}
	if mistake != "" {
		command += " --mistake " + mistake
	}
	return command, dir
}

// Blamed are the clauses a report names first: of the clause table's
// deviating rows, those with the most failing checks counted under them
// (each failing check counts under the clauses of its first failing
// observation, report.Case.FailedClauses). Empty when nothing failed.
func Blamed(rows []report.ClauseRow) []string {
	most := 0
	for _, r := range rows {
		most = max(most, r.Failed)
	}
	var out []string
	for _, r := range rows {
		if most > 0 && r.Failed == most {
			out = append(out, r.Clause)
		}
	}
	return out
}

// PagePath is the generated docs page of the corpus.
const PagePath = "docs/mistakes.md"

// Page renders docs/mistakes.md: the corpus, by clause in SPEC.md order,
// with the attribution the corpus test measured (FiguresFile).
func Page() (generated.File, error) {
	corpus, err := Corpus()
	if err != nil {
		return generated.File{}, err
	}
	figs, err := ReadFigures()
	if err != nil {
		return generated.File{}, err
	}
	measured := map[string]Figure{}
	for _, f := range figs.Rows {
		measured[f.Impl+"/"+f.Level+"/"+f.Name] = f
	}
	sort.SliceStable(corpus, func(i, j int) bool {
		return clauseIndex(corpus[i].Clauses[0]) < clauseIndex(corpus[j].Clauses[0])
	})
	total := figs.Totals()
	var b strings.Builder
	b.WriteString(generated.MarkdownNote)
	b.WriteString(`# A corpus of realistic mistakes

Each row is one thing an implementer writing from SPEC.md could
get wrong, emulated behind a flag by one of the example implementations, with
the clause of SPEC.md ([the clause catalog](../catalog/clauses.md)) it breaks
(decided from the clause's words). Two implementations emulate the corpus:
the Python examples (the plugin in plankit's loop, and a runtime that loads
the same plugin into a loop of its own) and the Node ones, written apart
from plankit's reference in their own voice (their own wording, notice
position and readings of the points SPEC.md leaves free):

` + "```text" + `
plankit check --adapter "python3 adapter.py --mistake NAME" --adapter-dir examples/adapters/python
plankit check --level runtime --adapter "python3 runtime.py --mistake NAME" --adapter-dir examples/runtimes/python
plankit check --adapter "node plugin.mjs --mistake NAME" --adapter-dir examples/adapters/node
plankit check --level runtime --adapter "node runtime.mjs --mistake NAME" --adapter-dir examples/runtimes/node
` + "```" + `

Without ` + "`--mistake`" + ` each example passes. The corpus test
(` + "`examples/mistakes`" + `, part of ` + "`go test ./...`" + `) runs each row at each of
its levels with the scenarios only (` + "`--only features`" + `; rows marked *+ properties* at the
plugin level with the properties too, ` + "`--checks 2`" + `) and holds that the check fails
(exit 1) and names the row's clause first: of the per-clause table's deviating
rows, the one with the most failing checks counted under it (each failing check
counts under the clauses it is attributed to: those of the first action whose
result departed from the reference, the governing clause first; a tie shares the
first place). The table is declared once, in
[` + "`" + File + "`" + `](../` + File + `); the Python examples read it too and refuse a name
it does not declare.

## Attribution

`)
	fmt.Fprintf(&b, "Over the whole corpus, **%s** of the %d failing checks are attributed to the row's clause "+
		"(the clause is among those the check is attributed to, where two clauses share the first departure), "+
		"and %s name it first (%d and %d of %d). The corpus test measures these figures "+
		"([`%s`](../%s)) and holds the share attributed at 95%% or more.\n\n",
		Percent(total.Attributed, total.Failed), total.Failed, Percent(total.First, total.Failed),
		total.Attributed, total.First, total.Failed, FiguresFile, FiguresFile)
	b.WriteString(`## The corpus

| mistake | impl | level | clause | failing checks | attributed to it | named first | what the implementation gets wrong |
|---|---|---|---|---|---|---|---|
`)
	for _, m := range corpus {
		for _, level := range m.Levels {
			name := level
			if m.Properties && level == LevelPlugin {
				name += " (+ properties)"
			}
			f, ok := measured[m.Impl+"/"+level+"/"+m.Name]
			failed, attributed, first := "not measured", "", ""
			if ok {
				failed, attributed, first = fmt.Sprint(f.Failed), fmt.Sprint(f.Attributed), fmt.Sprint(f.First)
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s | %s |\n", m.Name, m.Impl, name, strings.Join(m.Clauses, ", "),
				failed, attributed, first, strings.ReplaceAll(m.Description, "|", `\|`))
		}
	}
	return generated.File{Path: PagePath, Content: []byte(b.String())}, nil
}

func clauseIndex(id string) int {
	return slices.Index(spec.ClauseIDs(), id)
}
