// Package schemafile holds what plankit's YAML file formats (traces and
// runtime traces) share: their positioned error, the reading of a YAML
// syntax error, and their JSON Schemas, compiled once, with the one
// complaint reported when a file does not validate.
package schemafile

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/internal/third_party/jsonschema"
	"github.com/plankit/plankit/internal/third_party/jsonschema/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Error is a problem in a file, with where it is and which field. Its
// text escapes the file's name as outside text (safetext.Line), so a name
// holding a newline or a terminal control cannot add or rewrite a line.
type Error struct {
	File   string
	Line   int
	Column int
	// Field is the path of the offending field, like script[2].set.agent.
	Field string
	Msg   string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(safetext.Line(e.File))
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	if e.Field != "" {
		fmt.Fprintf(&b, ": %s", e.Field)
	}
	fmt.Fprintf(&b, ": %s", e.Msg)
	return b.String()
}

// Syntax is a YAML parser's error as an *Error at the token it names.
func Syntax(file string, err error) *Error {
	var se yaml.Error
	if errors.As(err, &se) {
		if tk := se.GetToken(); tk != nil && tk.Position != nil {
			return &Error{File: file, Line: tk.Position.Line, Column: tk.Position.Column, Msg: "YAML: " + se.GetMessage()}
		}
	}
	return &Error{File: file, Msg: "YAML: " + err.Error()}
}

// Resource is one JSON Schema document and the id it is known by.
type Resource struct {
	ID   string
	Data []byte
}

// Schema is a file format's JSON Schema, compiled at its first use.
type Schema struct {
	name     string
	compiled func() (*jsonschema.Schema, error)
	renamed  []Renamed
}

// Renamed is a key a format used to spell differently: an unknown field
// Old inside an object under the key Parent is reported with how it is
// written now (New), so a file written for the older spelling gets the
// fix, not only a refusal.
type Renamed struct {
	Parent, Old, New string
}

// WithRenamed returns the schema reporting the given renamed keys.
func (s *Schema) WithRenamed(r ...Renamed) *Schema {
	s.renamed = append(s.renamed, r...)
	return s
}

// NewSchema is the schema root among the documents resources returns (root
// and the schemas it refers to); name names it in errors ("trace schema").
func NewSchema(name, root string, resources func() ([]Resource, error)) *Schema {
	return &Schema{name: name, compiled: sync.OnceValues(func() (*jsonschema.Schema, error) {
		rs, err := resources()
		if err != nil {
			return nil, err
		}
		return compile(root, rs)
	})}
}

func compile(root string, resources []Resource) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	for _, r := range resources {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(r.Data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.ID, err)
		}
		if err := c.AddResource(r.ID, doc); err != nil {
			return nil, err
		}
	}
	return c.Compile(root)
}

// Check validates js, a file's content as JSON, against the schema. The
// complaint reported is the deepest one, which locate turns into the
// file's error given its instance location, its message and, for an
// unknown field, the field's name (extra).
func (s *Schema) Check(file string, js []byte, locate func(loc []string, msg, extra string) error) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return &Error{File: file, Msg: err.Error()}
	}
	sch, err := s.compiled()
	if err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	if err := sch.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			loc, msg, extra := deepest(ve)
			return locate(loc, s.hint(loc, msg, extra), extra)
		}
		return &Error{File: file, Msg: err.Error()}
	}
	return nil
}

var printer = message.NewPrinter(language.English)

// hint adds the new name of an unknown field the format renamed.
func (s *Schema) hint(loc []string, msg, extra string) string {
	if extra == "" || len(loc) == 0 {
		return msg
	}
	for _, r := range s.renamed {
		if r.Parent == loc[len(loc)-1] && r.Old == extra {
			return fmt.Sprintf("%s: now written %s (%s)", msg, r.New, UpgradeHint)
		}
	}
	return msg
}

// deepest picks the schema error at the deepest instance location: the
// most specific complaint. The validator collects causes in map order, so
// ties are broken by the text of the location and message, which makes the
// choice stable. For an unknown property it also returns the (first, in
// sorted order) property's name, so the error can point at the key.
func deepest(ve *jsonschema.ValidationError) (loc []string, msg, extra string) {
	bestLoc, bestMsg := ve.InstanceLocation, ve.Error()
	found := false
	key := func(l []string, m string) string { return strings.Join(l, "/") + "\x00" + m }
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			m, x := e.ErrorKind.LocalizedString(printer), ""
			if ap, ok := e.ErrorKind.(*kind.AdditionalProperties); ok && len(ap.Properties) > 0 {
				x = slices.Min(ap.Properties)
				m = fmt.Sprintf("unknown field %q", x)
			}
			deeper := len(e.InstanceLocation) > len(bestLoc)
			tie := len(e.InstanceLocation) == len(bestLoc) && key(e.InstanceLocation, m) < key(bestLoc, bestMsg)
			if !found || deeper || tie {
				found = true
				bestLoc, bestMsg, extra = e.InstanceLocation, m, x
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return bestLoc, bestMsg, extra
}

// FieldPath writes an instance location as a field path: script[2].set.agent.
func FieldPath(loc []string) string {
	var b strings.Builder
	for _, p := range loc {
		if _, err := strconv.Atoi(p); err == nil {
			fmt.Fprintf(&b, "[%s]", p)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}
