package schemafile

import (
	"errors"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/parser"
	"github.com/plankit/plankit/internal/inputlimit"
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

func TestCheckReportsTheDeepestComplaint(t *testing.T) {
	sch := NewSchema("test schema", "s.json", func() ([]Resource, error) {
		return []Resource{{ID: "s.json", Data: []byte(`{"type":"object","additionalProperties":false,
			"properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}}}}`)}}, nil
	})
	for doc, want := range map[string]string{
		`{"a":{"b":1}}`:   "a/b: got number, want string ()",
		`{"zz":1,"yy":2}`: ": unknown field \"yy\" (yy)",
	} {
		err := sch.Check("f.json", []byte(doc), func(loc []string, msg, extra string) error {
			return errors.New(strings.Join(loc, "/") + ": " + msg + " (" + extra + ")")
		})
		if err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %q", doc, err, want)
		}
	}
	if err := sch.Check("f.json", []byte(`{"a":{}}`), nil); err != nil {
		t.Errorf("a valid document: %v", err)
	}
	if err := sch.Check("f.json", []byte(`{`), nil); err == nil || !strings.HasPrefix(err.Error(), "f.json: ") {
		t.Errorf("bad JSON: %v", err)
	}
	broken := NewSchema("test schema", "x.json", func() ([]Resource, error) { return []Resource{{ID: "x.json", Data: []byte("{")}}, nil })
	if err := broken.Check("f.json", []byte(`{}`), nil); err == nil || !strings.HasPrefix(err.Error(), "test schema: x.json: ") {
		t.Errorf("a broken schema: %v", err)
	}
}

// TestParseAndToJSON: a file within the bounds reads as JSON with its keys
// in the file's order and its escapes decoded; the bounds apply to the
// records named, through an alias too.
func TestParseAndToJSON(t *testing.T) {
	lim := inputlimit.Trace
	f, err := Parse("a.yaml", []byte("b: \"\\x41\"\na: [1, {z: 2, y: 3}]\n"), lim, Records{Key: "a", What: "items"})
	if err != nil {
		t.Fatal(err)
	}
	js, err := ToJSON("a.yaml", f)
	if err != nil || string(js) != `{"b":"A","a":[1,{"z":2,"y":3}]}` {
		t.Fatalf("%s %v", js, err)
	}
	lim.Records = 1
	_, err = Parse("a.yaml", []byte("x: &s [1, 2]\na: *s\n"), lim, Records{Key: "a", What: "items"})
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "more than 1 items") || e.Field != "a" {
		t.Fatalf("got %v; want the record bound through the alias", err)
	}
}
