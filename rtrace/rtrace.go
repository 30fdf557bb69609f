// Package rtrace reads and writes runtime traces: the YAML files that
// `plankit sim --level runtime` replays (docs/runtime-trace-format.md).
// A runtime trace is a loop.Trace with "level: runtime"; its turn scripts
// and host actions are the runtime protocol's own messages, so the schema
// (schema.json) refers to the runtime protocol's schemas.
package rtrace

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/loop"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schema is the JSON Schema of a runtime trace.
//
//go:embed schema.json
var Schema []byte

// SchemaID is the schema's $id.
const SchemaID = "https://plankit.github.io/schema/runtime-trace/v1/trace.json"

// Level is the value of a runtime trace's level member.
const Level = "runtime"

// File is a runtime trace as written: the level and the trace.
type File struct {
	Level string `json:"level"`
	loop.Trace
}

// Error is a trace that cannot be read: file, line, column and field.
type Error struct {
	File         string
	Line, Column int
	Field        string
	Msg          string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, ": %s", e.Field)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	errSchema  error
)

func compiled() (*jsonschema.Schema, error) {
	schemaOnce.Do(func() {
		c := jsonschema.NewCompiler()
		add := func(id string, data []byte) error {
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			if err != nil {
				return fmt.Errorf("%s: %w", id, err)
			}
			return c.AddResource(id, doc)
		}
		errSchema = fs.WalkDir(adapter.Schemas, "schema/runtime", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := adapter.Schemas.ReadFile(path)
			if err != nil {
				return err
			}
			return add(adapter.RuntimeSchemaBase+d.Name(), data)
		})
		if errSchema == nil {
			errSchema = add(SchemaID, Schema)
		}
		if errSchema == nil {
			schema, errSchema = c.Compile(SchemaID)
		}
	})
	return schema, errSchema
}

// ReadFile reads and parses a runtime trace file.
func ReadFile(path string) (*loop.Trace, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	return Parse(path, data)
}

// IsRuntimeTrace reports whether data looks like a runtime trace (its
// top-level level member says runtime), so commands can tell the levels
// apart.
func IsRuntimeTrace(data []byte) bool {
	var head struct {
		Level string `yaml:"level"`
	}
	return yaml.Unmarshal(data, &head) == nil && head.Level == Level
}

// Parse parses a runtime trace: YAML, then the schema, then the meaning
// (exactly one action per step, known agents). Errors are *Error.
func Parse(file string, data []byte) (*loop.Trace, error) {
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, syntaxError(file, err)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, syntaxError(file, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return nil, &Error{File: file, Msg: err.Error()}
	}
	sch, err := compiled()
	if err != nil {
		return nil, fmt.Errorf("runtime trace schema: %w", err)
	}
	if err := sch.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			loc, msg := deepest(ve)
			return nil, located(file, f, loc, msg)
		}
		return nil, &Error{File: file, Msg: err.Error()}
	}
	var out File
	if err := json.Unmarshal(js, &out); err != nil {
		return nil, &Error{File: file, Msg: err.Error()}
	}
	agents := out.Trace.Agents
	if len(agents) == 0 {
		agents = []string{"main"}
	}
	for i, st := range out.Steps {
		n := 0
		for _, set := range []bool{st.Turn != nil, st.Set != nil, st.Get != nil, st.Command != nil, st.Append != nil, st.Fault != nil, st.Restart != nil, st.Reload != nil} {
			if set {
				n++
			}
		}
		loc := []string{"steps", strconv.Itoa(i)}
		if n != 1 {
			return nil, located(file, f, loc, fmt.Sprintf("a step has exactly one of turn, set, get, command, append, fault, restart, reload (found %d)", n))
		}
		if a := st.Agent(); a != "" && !contains(agents, a) {
			return nil, located(file, f, append(loc, st.Name(), "agent"), fmt.Sprintf("unknown agent %q (agents: %s)", a, strings.Join(agents, ", ")))
		}
	}
	t := out.Trace
	return &t, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Marshal writes a trace as YAML in the runtime trace format.
func Marshal(t loop.Trace) ([]byte, error) {
	js, err := json.Marshal(File{Level: Level, Trace: t})
	if err != nil {
		return nil, fmt.Errorf("encoding runtime trace %q: %w", t.Name, err)
	}
	return yaml.JSONToYAML(js)
}

func syntaxError(file string, err error) error {
	var se yaml.Error
	if errors.As(err, &se) {
		if tk := se.GetToken(); tk != nil && tk.Position != nil {
			return &Error{File: file, Line: tk.Position.Line, Column: tk.Position.Column, Msg: "YAML: " + se.GetMessage()}
		}
	}
	return &Error{File: file, Msg: "YAML: " + err.Error()}
}

// deepest picks the complaint at the deepest instance location; ties are
// broken by text so the choice is stable.
func deepest(ve *jsonschema.ValidationError) ([]string, string) {
	bestLoc, bestMsg := ve.InstanceLocation, fmt.Sprint(ve.ErrorKind)
	found := false
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			msg := fmt.Sprint(e.ErrorKind)
			key := strings.Join(e.InstanceLocation, "/") + msg
			if !found || len(e.InstanceLocation) > len(bestLoc) || (len(e.InstanceLocation) == len(bestLoc) && key < strings.Join(bestLoc, "/")+bestMsg) {
				bestLoc, bestMsg, found = e.InstanceLocation, msg, true
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return bestLoc, bestMsg
}

// located positions a complaint at the YAML node of loc (or its nearest
// ancestor that exists).
func located(file string, f *ast.File, loc []string, msg string) error {
	e := &Error{File: file, Field: strings.Join(loc, "."), Msg: msg}
	for n := len(loc); n >= 0; n-- {
		var b strings.Builder
		b.WriteString("$")
		for _, p := range loc[:n] {
			if _, err := strconv.Atoi(p); err == nil {
				fmt.Fprintf(&b, "[%s]", p)
			} else {
				fmt.Fprintf(&b, ".%s", p)
			}
		}
		path, err := yaml.PathString(b.String())
		if err != nil {
			continue
		}
		node, err := path.FilterFile(f)
		if err != nil || node == nil {
			continue
		}
		if tk := node.GetToken(); tk != nil && tk.Position != nil {
			e.Line, e.Column = tk.Position.Line, tk.Position.Column
			return e
		}
	}
	return e
}
