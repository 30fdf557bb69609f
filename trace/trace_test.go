package trace

import (
	"errors"
	"strings"
	"testing"

	"github.com/plankit/plankit/reference"
)

// Every malformed trace is an *Error naming the file, line, column and the
// offending field.
func TestMalformedTracesSayWhere(t *testing.T) {
	cases := []struct {
		file       string
		line, col  int
		field, msg string
	}{
		{"bad-yaml.yaml", 3, 0, "", "YAML"},
		{"unknown-action.yaml", 4, 5, "script[1].jump", "jump"},
		{"wrong-type.yaml", 3, 32, "script[0].set.active", "boolean"},
		{"unknown-agent.yaml", 6, 14, "script[1].set.agent", `unknown agent "mian"`},
		{"two-actions.yaml", 3, 5, "script[0]", "2 actions"},
		{"unknown-expect.yaml", 4, 14, "script[0].expect.outcom", "outcom"},
		{"undeclared-listener.yaml", 4, 0, "script[1].step.listeners.guard", "not declared"},
		{"duplicate-agent.yaml", 2, 16, "agents[1]", `agent "main" is declared twice`},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			_, err := ReadFile("testdata/bad/" + c.file)
			var te *Error
			if !errors.As(err, &te) {
				t.Fatalf("want *trace.Error, got %T %v", err, err)
			}
			if te.File != "testdata/bad/"+c.file || te.Line != c.line || (c.col != 0 && te.Column != c.col) || te.Field != c.field {
				t.Errorf("got %s (line %d col %d field %q), want line %d col %d field %q", te, te.Line, te.Column, te.Field, c.line, c.col, c.field)
			}
			if !strings.Contains(te.Error(), c.msg) {
				t.Errorf("message %q does not mention %q", te.Error(), c.msg)
			}
			if !strings.HasPrefix(te.Error(), "testdata/bad/"+c.file+":") {
				t.Errorf("message %q does not start with file:line:column", te.Error())
			}
		})
	}
}

// A script that does not fit the runtime (a step with no open turn) stops
// the run with an error at the action's position.
func TestActionThatDoesNotFitStopsAtItsLine(t *testing.T) {
	tr, err := ReadFile("testdata/bad/step-outside-turn.yaml")
	if err != nil {
		t.Fatal(err)
	}
	run := Execute(tr, reference.NewPort(reference.Options{}))
	var te *Error
	if !errors.As(run.Err, &te) || te.Line != 3 || te.Field != "script[0].step" || !strings.Contains(te.Msg, "no open turn") {
		t.Fatalf("got %v", run.Err)
	}
}

func TestMissingFile(t *testing.T) {
	if _, err := ReadFile("testdata/none.yaml"); err == nil {
		t.Fatal("missing file accepted")
	}
}

// Several schema errors at the same depth: the validator reports them in
// map order, the message must not change between runs.
func TestSchemaErrorIsStable(t *testing.T) {
	data := []byte("name: x\nfoo: 1\nbar: 2\nbaz: 3\nqux: 4\nscript: []\n")
	_, first := Parse("many.yaml", data)
	if first == nil || !strings.Contains(first.Error(), `"bar"`) || !strings.Contains(first.Error(), "many.yaml:3:1") {
		t.Fatalf("want the first unknown field in sorted order, at its key: %v", first)
	}
	for i := 0; i < 20; i++ {
		if _, err := Parse("many.yaml", data); err.Error() != first.Error() {
			t.Fatalf("run %d: %v, first run: %v", i, err, first)
		}
	}
}
