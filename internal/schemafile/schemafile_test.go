package schemafile

import (
	"errors"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/parser"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func TestErrorNamesFileLineColumnAndField(t *testing.T) {
	for _, c := range []struct {
		e    Error
		want string
	}{
		{Error{File: "a.yaml", Line: 3, Column: 7, Field: "script[2].set.agent", Msg: "bad"}, "a.yaml:3:7: script[2].set.agent: bad"},
		{Error{File: "a.yaml", Line: 3, Msg: "too long"}, "a.yaml:3: too long"},
		{Error{File: "a.yaml", Msg: "unreadable"}, "a.yaml: unreadable"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
	if got := FieldPath([]string{"script", "2", "set", "agent"}); got != "script[2].set.agent" {
		t.Errorf("FieldPath: %q", got)
	}
}

func TestSyntaxIsPositioned(t *testing.T) {
	_, err := parser.ParseBytes([]byte("a: [\n"), 0)
	e := Syntax("f.yaml", err)
	if e.Line == 0 || !strings.HasPrefix(e.Msg, "YAML: ") {
		t.Fatalf("%+v", e)
	}
	if e := Syntax("f.yaml", errors.New("boom")); e.Error() != "f.yaml: YAML: boom" {
		t.Fatalf("%v", e)
	}
}

func TestDeepestComplaintAndUnknownField(t *testing.T) {
	sch, err := Compile("s.json", Resource{ID: "s.json", Data: []byte(`{"type":"object","additionalProperties":false,
		"properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	for doc, want := range map[string]string{
		`{"a":{"b":1}}`:   "a/b: got number, want string ()",
		`{"zz":1,"yy":2}`: ": unknown field \"yy\" (yy)",
	} {
		inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		var ve *jsonschema.ValidationError
		if !errors.As(sch.Validate(inst), &ve) {
			t.Fatalf("%s validates", doc)
		}
		loc, msg, extra := Deepest(ve)
		if got := strings.Join(loc, "/") + ": " + msg + " (" + extra + ")"; got != want {
			t.Errorf("%s: got %q, want %q", doc, got, want)
		}
	}
	if _, err := Compile("x.json", Resource{ID: "x.json", Data: []byte("{")}); err == nil || !strings.HasPrefix(err.Error(), "x.json: ") {
		t.Errorf("a broken schema: %v", err)
	}
}
