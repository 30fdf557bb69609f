// Package schemadoc renders a JSON Schema (draft 2020-12, the subset the
// trace format uses) as a Markdown reference: every property with its path,
// type, whether it is required, its constraints and its description, the
// top-level object first and then each definition under $defs.
package schemadoc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// node is one schema object. Properties keeps the schema's own order.
type node struct {
	Type                 any             `json:"type"`
	Title                string          `json:"title"`
	Description          string          `json:"description"`
	Ref                  string          `json:"$ref"`
	Enum                 []any           `json:"enum"`
	Const                any             `json:"const"`
	OneOf                []*node         `json:"oneOf"`
	Items                *node           `json:"items"`
	Properties           orderedNodes    `json:"properties"`
	AdditionalProperties json.RawMessage `json:"additionalProperties"`
	Required             []string        `json:"required"`
	Defs                 orderedNodes    `json:"$defs"`
	Pattern              string          `json:"pattern"`
	MinLength            *int            `json:"minLength"`
	Minimum              *json.Number    `json:"minimum"`
	MinProperties        *int            `json:"minProperties"`
	hasConst             bool
}

type named struct {
	Name string
	Node *node
}

// orderedNodes is a JSON object of schemas, kept in document order so the
// reference reads in the order the schema was written.
type orderedNodes []named

func (o *orderedNodes) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("want an object of schemas")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var n node
		if err := dec.Decode(&n); err != nil {
			return fmt.Errorf("%s: %w", t, err)
		}
		*o = append(*o, named{Name: t.(string), Node: &n})
	}
	_, err := dec.Token()
	return err
}

func (n *node) UnmarshalJSON(b []byte) error {
	type plain node
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	var keys map[string]json.RawMessage
	json.Unmarshal(b, &keys)
	_, p.hasConst = keys["const"]
	*n = node(p)
	return nil
}

// Markdown renders schema as a Markdown reference page titled title.
// preamble, if not empty, is written after the title.
func Markdown(schema []byte, title, preamble string) ([]byte, error) {
	var root node
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	var b strings.Builder
	b.WriteString("# " + title + "\n\n")
	if preamble != "" {
		b.WriteString(preamble + "\n\n")
	}
	if root.Description != "" {
		b.WriteString(root.Description + "\n\n")
	}
	b.WriteString("## The trace file\n\n")
	table(&b, &root)
	for _, d := range root.Defs {
		fmt.Fprintf(&b, "\n## %s\n\n", d.Name)
		if d.Node.Description != "" {
			b.WriteString(d.Node.Description + "\n\n")
		}
		if len(d.Node.Properties) == 0 {
			c := strings.TrimSpace(constraints(d.Node))
			if c != "" {
				c = " " + c
			}
			fmt.Fprintf(&b, "Type: %s%s\n", typeOf(d.Node), c)
			continue
		}
		table(&b, d.Node)
	}
	return []byte(b.String()), nil
}

func table(b *strings.Builder, n *node) {
	if n.MinProperties != nil {
		fmt.Fprintf(b, "An object with at least %d of these fields.\n\n", *n.MinProperties)
	}
	b.WriteString("| Field | Type | Required | Description |\n|---|---|---|---|\n")
	rows(b, "", n)
}

func rows(b *strings.Builder, prefix string, n *node) {
	for _, p := range n.Properties {
		path := prefix + p.Name
		req := "no"
		if slices.Contains(n.Required, p.Name) {
			req = "yes"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", path, typeOf(p.Node), req, cell(p.Node.Description+constraints(p.Node)))
		child := p.Node
		if child.Items != nil && len(child.Items.Properties) > 0 {
			rows(b, path+"[].", child.Items)
		}
		if len(child.Properties) > 0 {
			rows(b, path+".", child)
		}
	}
}

func typeOf(n *node) string {
	switch {
	case n.Ref != "":
		name := n.Ref[strings.LastIndex(n.Ref, "/")+1:]
		return fmt.Sprintf("[%s](#%s)", name, strings.ToLower(name))
	case len(n.Enum) > 0:
		vals := make([]string, len(n.Enum))
		for i, v := range n.Enum {
			j, _ := json.Marshal(v)
			vals[i] = "`" + string(j) + "`"
		}
		return strings.Join(vals, " \\| ")
	case n.hasConst:
		j, _ := json.Marshal(n.Const)
		return "`" + string(j) + "`"
	case len(n.OneOf) > 0:
		alts := make([]string, len(n.OneOf))
		for i, a := range n.OneOf {
			alts[i] = typeOf(a)
			if len(a.Properties) > 0 {
				fields := make([]string, len(a.Properties))
				for j, p := range a.Properties {
					fields[j] = p.Name
				}
				alts[i] = "object {" + strings.Join(fields, ", ") + "}"
			}
		}
		return strings.Join(alts, " or ")
	}
	t, _ := n.Type.(string)
	switch t {
	case "array":
		if n.Items != nil {
			return typeOf(n.Items) + "[]"
		}
		return "array"
	case "object":
		if len(n.AdditionalProperties) > 0 && string(n.AdditionalProperties) != "false" {
			var v node
			if json.Unmarshal(n.AdditionalProperties, &v) == nil {
				return "map of " + typeOf(&v)
			}
		}
		return "object"
	case "":
		return "any"
	}
	return t
}

func constraints(n *node) string {
	var c []string
	if n.Pattern != "" {
		c = append(c, "pattern `"+n.Pattern+"`")
	}
	if n.MinLength != nil {
		c = append(c, fmt.Sprintf("at least %d character(s)", *n.MinLength))
	}
	if n.Minimum != nil {
		c = append(c, "minimum "+n.Minimum.String())
	}
	if len(c) == 0 {
		return ""
	}
	s := " (" + strings.Join(c, "; ") + ")"
	if n.Description == "" {
		return strings.TrimSpace(s)
	}
	return s
}

func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ")
}
