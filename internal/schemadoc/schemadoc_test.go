package schemadoc

import (
	"os"
	"strings"
	"testing"
)

func TestMarkdownFixture(t *testing.T) {
	schema := `{
  "description": "A fixture.",
  "type": "object",
  "required": ["name"],
  "properties": {
    "name": {"type": "string", "minLength": 1, "description": "A title."},
    "mode": {"enum": ["a", "b"], "description": "Pick | one."},
    "inner": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}},
    "list": {"type": "array", "items": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "pattern": "^x$"}}}},
    "refs": {"type": "array", "items": {"$ref": "#/$defs/thing"}},
    "map": {"type": "object", "additionalProperties": {"$ref": "#/$defs/thing"}},
    "free": {}
  },
  "$defs": {
    "thing": {"oneOf": [{"type": "boolean"}, {"const": "none"}], "description": "A thing."},
    "obj": {"type": "object", "minProperties": 1, "properties": {"k": {"type": "boolean"}}}
  }
}`
	got, err := Markdown([]byte(schema), "Fixture", "Generated.")
	if err != nil {
		t.Fatal(err)
	}
	want := "# Fixture\n\nGenerated.\n\nA fixture.\n\n## The trace file\n\n" +
		"| Field | Type | Required | Description |\n|---|---|---|---|\n" +
		"| `name` | string | yes | A title. (at least 1 character(s)) |\n" +
		"| `mode` | `\"a\"` \\| `\"b\"` | no | Pick \\| one. |\n" +
		"| `inner` | object | no |  |\n" +
		"| `inner.n` | integer | no | (minimum 0) |\n" +
		"| `list` | object[] | no |  |\n" +
		"| `list[].id` | string | yes | (pattern `^x$`) |\n" +
		"| `refs` | [thing](#thing)[] | no |  |\n" +
		"| `map` | map of [thing](#thing) | no |  |\n" +
		"| `free` | any | no |  |\n" +
		"\n## thing\n\nA thing.\n\nType: boolean or `\"none\"`\n" +
		"\n## obj\n\nAn object with at least 1 of these fields.\n\n" +
		"| Field | Type | Required | Description |\n|---|---|---|---|\n" +
		"| `k` | boolean | no |  |\n"
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestMarkdownRejectsBadSchema(t *testing.T) {
	if _, err := Markdown([]byte(`{"properties": []}`), "x", ""); err == nil || !strings.HasPrefix(err.Error(), "schema: ") {
		t.Errorf("got %v", err)
	}
}

// Every property of the real trace schema appears in the page.
func TestTraceSchemaEveryProperty(t *testing.T) {
	schema, err := os.ReadFile("../../trace/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Markdown(schema, "Trace format", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| `name` | string | yes |", "| `runtime.retries` |", "| `listeners[].registered` |", "## expect", "| `state.pending` | [pending](#pending) |", "## entry", "| `end-turn` |", "| `script` | [entry](#entry)[] | yes |"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
