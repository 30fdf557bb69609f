package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/plankit/plankit/internal/generated"
	"github.com/plankit/plankit/spec"
)

// generatedNote heads every generated Markdown file.
const generatedNote = generated.MarkdownNote

// Formats are the output formats of every catalog.
var Formats = []string{"md", "json"}

// ClauseCatalog is the JSON form of the clause catalog.
type ClauseCatalog struct {
	Suite   string        `json:"suite"`
	Groups  []spec.Group  `json:"groups"`
	Clauses []spec.Clause `json:"clauses"`
	Choices []Choice      `json:"choices"`
}

// EventCatalog is the JSON form of the event catalog.
type EventCatalog struct {
	Events []Event `json:"events"`
}

func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("catalog: encoding %T: %v", v, err)) // plain data only
	}
	return buf.Bytes()
}

// ClausesJSON renders the clause catalog as JSON.
func ClausesJSON() []byte {
	return marshal(ClauseCatalog{Suite: spec.SuiteVersion, Groups: spec.Groups, Clauses: spec.Clauses, Choices: Choices()})
}

// ClausesMarkdown renders the clause catalog as Markdown.
func ClausesMarkdown() []byte {
	var b strings.Builder
	b.WriteString(generatedNote)
	b.WriteString("# Clause catalog\n\n")
	fmt.Fprintf(&b, "Every clause of the plan-mode specification (SPEC.md), restated in plankit's words, with the suite version it entered (suite %s). Scenarios, properties, reports and mutants cite these IDs; `plankit catalog coverage` checks that each clause has both a scenario and a property.\n\n", spec.SuiteVersion)
	for _, g := range spec.Groups {
		fmt.Fprintf(&b, "## %s — %s\n\n", g.ID, g.Title)
		b.WriteString("| Clause | Statement | Since | Choices |\n|---|---|---|---|\n")
		for _, c := range spec.Clauses {
			if c.Group != g.ID {
				continue
			}
			choices := make([]string, len(c.Choices))
			for i, ch := range c.Choices {
				choices[i] = "`" + ch + "`"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", c.ID, cell(c.Statement), c.Since, strings.Join(choices, ", "))
		}
		b.WriteString("\n")
	}
	b.WriteString("## Choices for the silent points\n\n")
	b.WriteString("Where SPEC.md is silent, plankit names the pick. An implementation declares its value for each choice when it starts; checks that depend on a choice are tagged with it. The first value is the reference's default.\n\n")
	b.WriteString("| Choice | Silent point | Values | Clauses |\n|---|---|---|---|\n")
	for _, c := range Choices() {
		values := make([]string, len(c.Values))
		for i, v := range c.Values {
			values[i] = fmt.Sprintf("`%s`: %s", v.Value, v.Meaning)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", c.Name, cell(c.Question), cell(strings.Join(values, "<br>")), strings.Join(c.Clauses, ", "))
	}
	b.WriteString("\nThe exact wording of errors, notices and command replies is also left open: checks test meaning, not wording, except for the fixed names (`plan/mode`, `plan:policy`, `exit_plan_mode`, `/plan`, `off`, the four outcomes, `{approved: true}`, order 50).\n")
	return []byte(b.String())
}

// EventsJSON renders the event catalog as JSON.
func EventsJSON() []byte { return marshal(EventCatalog{Events: Events}) }

// EventsMarkdown renders the event catalog as Markdown.
func EventsMarkdown() []byte {
	var b strings.Builder
	b.WriteString(generatedNote)
	b.WriteString("# Event catalog\n\n")
	b.WriteString("Every event type the simulator writes to a session log, in dsh's JSONL shape (`{seq, type, data}`), with the exact shape of its data. Objects are closed: a field not listed here is an error. The event catalog test runs every example trace and checks every event against these shapes.\n\n")
	b.WriteString("| Type | Writer | Clauses |\n|---|---|---|\n")
	for _, e := range Events {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", e.Type, anchor(e.Type), e.Writer, strings.Join(e.Clauses, ", "))
	}
	for _, e := range Events {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n", e.Type, e.Doc)
		b.WriteString(ShapeTable(e.Data))
	}
	return []byte(b.String())
}

// ShapeTable renders the fields of an event's data shape as a Markdown
// table, as the event catalog shows them.
func ShapeTable(s Shape) string {
	var b strings.Builder
	b.WriteString("| Field | Type | Required | Meaning |\n|---|---|---|---|\n")
	rows(&b, "data", s)
	return b.String()
}

func rows(b *strings.Builder, path string, s Shape) {
	for _, f := range s.Fields {
		p := path + "." + f.Name
		req := "no"
		if f.Required {
			req = "yes"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", p, typeName(f.Shape), req, cell(f.Doc))
		sub := f.Shape
		if sub.Type == "array" {
			p += "[]"
			sub = *sub.Items
		}
		if len(sub.OneOf) > 0 {
			for _, alt := range sub.OneOf {
				rows(b, p, alt)
			}
			continue
		}
		rows(b, p, sub)
	}
}

func typeName(s Shape) string {
	switch {
	case s.Type == "array":
		return typeName(*s.Items) + "[]"
	case len(s.Enum) > 0:
		q := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			q[i] = "`\"" + v + "\"`"
		}
		return strings.Join(q, " \\| ")
	case len(s.OneOf) > 0:
		return "object (by `type`)"
	}
	return s.Type
}

func anchor(s string) string {
	return strings.NewReplacer("/", "", " ", "-").Replace(strings.ToLower(s))
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ")
}

// ServiceJSON renders the service catalog as JSON.
func ServiceJSON(s Service) []byte { return marshal(s) }

// ServiceMarkdown renders the service catalog as Markdown: the generated
// block of every method's doc comment and signature.
func ServiceMarkdown(s Service) []byte {
	var b strings.Builder
	b.WriteString(generatedNote)
	b.WriteString("# Service catalog\n\n")
	fmt.Fprintf(&b, "The plan-mode service (`ctx.planMode`, SVC-1) as the reference declares it: the signatures and doc comments of `%s`'s %s in `%s`, generated from the Go source (SVC-4). The module's freshness test fails when this page no longer matches the source.\n\n", s.Type, strings.Join(ServiceMethods, " and "), s.Source)
	b.WriteString("```go\n")
	b.WriteString(s.Block())
	b.WriteString("```\n")
	return []byte(b.String())
}

// Files renders every generated catalog file from the catalog data and the
// service source in root (the module root), keyed by path relative to the
// root, in a fixed order.
func Files(root fs.FS) ([]generated.File, error) {
	svc, err := ServiceFromSource(root)
	if err != nil {
		return nil, err
	}
	return []generated.File{
		{Path: "catalog/clauses.md", Content: ClausesMarkdown()},
		{Path: "catalog/clauses.json", Content: ClausesJSON()},
		{Path: "catalog/events.md", Content: EventsMarkdown()},
		{Path: "catalog/events.json", Content: EventsJSON()},
		{Path: "catalog/service.md", Content: ServiceMarkdown(svc)},
		{Path: "catalog/service.json", Content: ServiceJSON(svc)},
	}, nil
}

// Check verifies the consistency of the clause and choice tables the
// catalog shows (spec.Check).
func Check() error { return spec.Check() }
