// Package rtrace reads and writes runtime traces: the YAML files that
// `plankit sim --level runtime` replays (docs/runtime-trace-format.md).
// A runtime trace is a loop.Trace with "level: runtime"; its turn scripts
// and host actions are the runtime protocol's own messages, so the schema
// (schema.json) refers to the runtime protocol's schemas.
package rtrace

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/internal/schemafile"
	"github.com/plankit/plankit/loop"
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
type Error = schemafile.Error

// schema is the runtime trace schema with the runtime protocol's schemas
// it refers to.
var schema = schemafile.NewSchema("runtime trace schema", SchemaID, func() ([]schemafile.Resource, error) {
	var rs []schemafile.Resource
	err := fs.WalkDir(adapter.Schemas, "schema/runtime", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := adapter.Schemas.ReadFile(path)
		rs = append(rs, schemafile.Resource{ID: adapter.RuntimeSchemaBase + d.Name(), Data: data})
		return err
	})
	return append(rs, schemafile.Resource{ID: SchemaID, Data: Schema}), err
})

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
		return nil, schemafile.Syntax(file, err)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, schemafile.Syntax(file, err)
	}
	if err := schema.Check(file, js, func(loc []string, msg, extra string) error {
		if extra != "" {
			loc = append(loc, extra)
		}
		return located(file, f, loc, msg)
	}); err != nil {
		return nil, err
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
		loc := []string{"steps", strconv.Itoa(i)}
		if n := st.Members(); n != 1 {
			return nil, located(file, f, loc, fmt.Sprintf("a step has exactly one of %s (found %d)", strings.Join(loop.StepNames(), ", "), n))
		}
		if st.Open != nil {
			if slices.Contains(agents, st.Open.Agent) {
				return nil, located(file, f, append(loc, "open", "agent"), fmt.Sprintf("agent %q is already open (agents: %s)", st.Open.Agent, strings.Join(agents, ", ")))
			}
			agents = append(agents, st.Open.Agent)
			continue
		}
		if a := st.Agent(); a != "" && !slices.Contains(agents, a) {
			return nil, located(file, f, append(loc, st.Name(), "agent"), fmt.Sprintf("unknown agent %q (agents: %s)", a, strings.Join(agents, ", ")))
		}
	}
	t := out.Trace
	return &t, nil
}

// Marshal writes a trace as YAML in the runtime trace format.
func Marshal(t loop.Trace) ([]byte, error) {
	js, err := json.Marshal(File{Level: Level, Trace: t})
	if err != nil {
		return nil, fmt.Errorf("encoding runtime trace %q: %w", t.Name, err)
	}
	return yaml.JSONToYAML(js)
}

// located positions a complaint at the YAML node of loc (or its nearest
// ancestor that exists).
func located(file string, f *ast.File, loc []string, msg string) error {
	e := &Error{File: file, Field: schemafile.FieldPath(loc), Msg: msg}
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
