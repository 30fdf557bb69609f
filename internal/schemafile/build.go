package schemafile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Member is one named schema a built schema gains: a trace schema's action
// or a runtime trace schema's kind of step, from its table.
type Member struct {
	Name   string
	Schema json.RawMessage
}

// Build writes a schema from its hand-written base: the base's own
// "$comment" (its second line, if it has one) replaced by comment, and
// each member, compacted and spaced as the base is written, on its own
// line after the line after (which must appear exactly once), in order.
func Build(base []byte, after, comment string, members []Member) ([]byte, error) {
	s := string(base)
	if strings.Count(s, after+"\n") != 1 {
		return nil, fmt.Errorf("the schema's base must have the line %s once", strings.TrimSpace(after))
	}
	_, rest, ok := strings.Cut(s, "\n")
	if !ok || !strings.HasPrefix(s, "{\n") {
		return nil, fmt.Errorf("the schema's base must open with {")
	}
	if _, next, ok := strings.Cut(rest, "\n"); ok && strings.HasPrefix(rest, `  "$comment"`) {
		rest = next // the base's own comment
	}
	indent := after[:len(after)-len(strings.TrimLeft(after, " "))]
	var added strings.Builder
	for _, m := range members {
		var frag bytes.Buffer
		if err := json.Compact(&frag, m.Schema); err != nil {
			return nil, fmt.Errorf("the schema of %s: %w", m.Name, err)
		}
		fmt.Fprintf(&added, ",\n%s%q: %s", indent, m.Name, spaced(frag.String()))
	}
	out := "{\n" + fmt.Sprintf("  \"$comment\": %q,", comment) + "\n" + strings.Replace(rest, after, after+added.String(), 1)
	if !json.Valid([]byte(out)) {
		return nil, fmt.Errorf("the built schema is not valid JSON")
	}
	return []byte(out), nil
}

// spaced puts a space after the colons and commas between the members of
// compact JSON (outside strings), as the rest of a schema is written.
func spaced(s string) string {
	var b strings.Builder
	in, esc := false, false
	for _, r := range s {
		b.WriteRune(r)
		switch {
		case esc:
			esc = false
		case in && r == '\\':
			esc = true
		case r == '"':
			in = !in
		case !in && (r == ':' || r == ','):
			b.WriteByte(' ')
		}
	}
	return b.String()
}
