package trace

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/sim"
)

// TestSchemaIsBuiltFromTheActionTable: schema.json is what BuildSchema
// writes (run go generate ./... after changing an action).
func TestSchemaIsBuiltFromTheActionTable(t *testing.T) {
	built, err := BuildSchema()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(built, Schema) {
		t.Error("trace/schema.json differs from the schema built from sim's action table; run go generate ./...")
	}
}

// TestActionSchemasMatchTheirTypes holds every action's schema to its Go
// type: each object has exactly the type's JSON fields as properties, and
// requires only fields that are always written (no omitempty), so a trace
// written back (Marshal) validates; and so on down.
func TestActionSchemasMatchTheirTypes(t *testing.T) {
	var doc struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(Schema, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range sim.Actions() {
		for _, p := range schemaMismatches(doc.Defs, k.Name(), k.Schema(), k.Type()) {
			t.Errorf("action %s: %s", k.Name(), p)
		}
	}
}

// TestSchemaMismatchesAreFound: a schema that lacks a field, has one too
// many or requires the wrong ones is told apart from its type.
func TestSchemaMismatchesAreFound(t *testing.T) {
	type T struct {
		A string `json:"a"`
		B int    `json:"b,omitempty"`
	}
	typ := reflect.TypeFor[T]()
	for schema, want := range map[string]string{
		`{"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}`:          "",
		`{"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}}`:                                    "x: field b has no property in the schema",
		`{"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}, "b": {"type": "integer"}, "c": {}}}`: "x: property c has no field",
		`{"type": "object", "required": ["a", "b"], "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}`:     "x: requires b, which is omitted when empty",
		`{"type": "object", "required": ["a"], "properties": {"a": {"type": "boolean"}, "b": {"type": "integer"}}}`:         "x.a: type boolean for a string",
	} {
		got := strings.Join(schemaMismatches(nil, "x", json.RawMessage(schema), typ), "; ")
		if got != want {
			t.Errorf("%s: got %q, want %q", schema, got, want)
		}
	}
}

// schemaMismatches compares a schema node (references resolved in defs)
// with a Go type.
func schemaMismatches(defs map[string]json.RawMessage, at string, raw json.RawMessage, typ reflect.Type) []string {
	var n struct {
		Ref        string                     `json:"$ref"`
		Type       string                     `json:"type"`
		Enum       []any                      `json:"enum"`
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
		Items      json.RawMessage            `json:"items"`
		Additional json.RawMessage            `json:"additionalProperties"`
	}
	if err := json.Unmarshal(raw, &n); err != nil {
		return []string{at + ": " + err.Error()}
	}
	if n.Ref != "" {
		def, ok := defs[strings.TrimPrefix(n.Ref, "#/$defs/")]
		if !ok {
			return []string{at + ": unknown reference " + n.Ref}
		}
		return schemaMismatches(defs, at, def, typ)
	}
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ == reflect.TypeFor[json.RawMessage]() {
		return nil // any JSON
	}
	kindOf := map[reflect.Kind]string{reflect.String: "string", reflect.Bool: "boolean", reflect.Int: "integer",
		reflect.Struct: "object", reflect.Map: "object", reflect.Slice: "array"}
	want := kindOf[typ.Kind()]
	switch {
	case n.Type == "" && len(n.Enum) > 0 && want == "string":
		return nil // an enum of strings
	case n.Type != want:
		return []string{at + ": type " + n.Type + " for a " + want}
	}
	var out []string
	switch typ.Kind() {
	case reflect.Slice:
		out = append(out, schemaMismatches(defs, at+"[]", n.Items, typ.Elem())...)
	case reflect.Map:
		out = append(out, schemaMismatches(defs, at+"{}", n.Additional, typ.Elem())...)
	case reflect.Struct:
		var always []string
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if !strings.Contains(opts, "omitempty") {
				always = append(always, name)
			}
			p, ok := n.Properties[name]
			if !ok {
				out = append(out, at+": field "+name+" has no property in the schema")
				continue
			}
			out = append(out, schemaMismatches(defs, at+"."+name, p, f.Type)...)
		}
		for _, name := range slices.Sorted(maps.Keys(n.Properties)) {
			if !slices.ContainsFunc(reflect.VisibleFields(typ), func(f reflect.StructField) bool {
				fn, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				return fn == name
			}) {
				out = append(out, at+": property "+name+" has no field")
			}
		}
		for _, name := range n.Required {
			if _, ok := n.Properties[name]; ok && !slices.Contains(always, name) {
				out = append(out, at+": requires "+name+", which is omitted when empty")
			}
		}
	}
	return out
}
