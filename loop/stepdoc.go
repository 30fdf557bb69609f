package loop

import (
	"fmt"
	"reflect"
	"strings"
)

// StepsMarkdown is the table of the kinds of step, in table order, as
// docs/runtime-trace-format.md carries it: each step's members (optional
// ones marked ?), an example, and what it does.
func StepsMarkdown() string {
	var b strings.Builder
	b.WriteString("| step | example | what it does |\n|---|---|---|\n")
	for _, k := range StepKinds() {
		fmt.Fprintf(&b, "| `%s: %s` | `%s` | %s |\n", k.Name(), members(k.Type()), k.Example(), k.Doc())
	}
	return b.String()
}

// members writes a struct type's JSON members as {a, b?}: optional
// (omitempty) ones marked ?.
func members(t reflect.Type) string {
	var out []string
	for f := range t.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if strings.Contains(opts, "omitempty") {
			name += "?"
		}
		out = append(out, name)
	}
	return "{" + strings.Join(out, ", ") + "}"
}
