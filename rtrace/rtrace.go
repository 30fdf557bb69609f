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
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	protocol "github.com/plankit/plankit/adapter/schema"
	"github.com/plankit/plankit/internal/inputlimit"
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
	// Format is the runtime trace format the file says it is written in
	// (0: it does not say; it is then read as Format).
	Format int `json:"format,omitempty"`
	loop.Trace
}

// Error is a trace that cannot be read: file, line, column and field.
type Error = schemafile.Error

// schema is the runtime trace schema with the runtime protocol's schemas
// it refers to.
var schema = schemafile.NewSchema("runtime trace schema", SchemaID, func() ([]schemafile.Resource, error) {
	var rs []schemafile.Resource
	err := fs.WalkDir(protocol.FS, protocol.RuntimeDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := protocol.FS.ReadFile(path)
		rs = append(rs, schemafile.Resource{ID: protocol.RuntimeBase + d.Name(), Data: data})
		return err
	})
	return append(rs, schemafile.Resource{ID: SchemaID, Data: Schema}), err
}).WithRenamed(
	schemafile.Renamed{Parent: "expect", Old: "sections", New: "section"},
	schemafile.Renamed{Parent: "expect", Old: "active", New: "state: {active: …}"},
	schemafile.Renamed{Parent: "expect", Old: "pending", New: "state: {pending: …}"},
	schemafile.Renamed{Parent: "expect", Old: "noPending", New: "state: {pending: none}"},
)

// Format is the version of the runtime trace format this plankit reads
// and writes. A runtime trace may say which format it is written in
// (format: N); one that does not is read as this one. Each later format
// changed how something is written, never what it means, so Upgrade
// rewrites a runtime trace of any earlier format as this one:
//
//   - format 2: a request's plan:policy presence is section (format 1:
//     sections), and a get step's result is state: {active, pending:
//     true|false|none} (format 1: active, pending, noPending).
const Format = 2

// upgrades are the changes of every format after the first, which Upgrade
// makes to an older runtime trace.
var upgrades = []schemafile.Upgrade{
	{Parent: "expect", Old: []string{"sections"}, New: "section"},
	{Parent: "expect", Old: []string{"active", "pending", "noPending"}, New: "state", Value: getState},
}

// getState writes a format-1 get expectation (active, pending, noPending)
// as format 2's state.
func getState(old map[string]string) (string, error) {
	var parts []string
	if a, ok := old["active"]; ok {
		parts = append(parts, "active: "+a)
	}
	p, pending := old["pending"]
	switch none := old["noPending"] == "true"; {
	case none && pending:
		return "", fmt.Errorf("pending: %s and noPending: true contradict each other", p)
	case none:
		parts = append(parts, "pending: none")
	case pending:
		parts = append(parts, "pending: "+p)
	}
	return "{" + strings.Join(parts, ", ") + "}", nil
}

// Upgrade rewrites data, a runtime trace written in an earlier format
// (format 1, or one that says format: N), as one of this Format: it makes
// each later format's changes and sets a format: line it has to the
// current one, and keeps the rest of the file's text byte for byte. It
// returns the format the file was written in (Format when there was
// nothing to upgrade, data then unchanged). A file that says it is of a
// later format than this plankit reads is an error; the result is checked
// to parse as a runtime trace of this format.
func Upgrade(file string, data []byte) (out []byte, from int, err error) {
	out, from, err = schemafile.UpgradeFormat(file, data, inputlimit.Trace, Format, upgrades)
	if err != nil || from == Format {
		return out, from, err
	}
	if _, err := Parse(file, out); err != nil {
		return nil, from, err
	}
	return out, from, nil
}

// ReadFile reads and parses a runtime trace file within the default
// bounds (inputlimit.Trace, the same as a trace's).
func ReadFile(path string) (*loop.Trace, error) {
	return ReadFileWithLimits(path, inputlimit.Trace)
}

// ReadFileWithLimits reads and parses a runtime trace file within lim; a
// file over lim.Bytes is not read past the bound.
func ReadFileWithLimits(path string, lim inputlimit.Limits) (*loop.Trace, error) {
	data, err := schemafile.ReadFile(path, lim)
	if err != nil {
		return nil, err
	}
	return ParseWithLimits(path, data, lim)
}

// Parse parses a runtime trace within the default bounds.
func Parse(file string, data []byte) (*loop.Trace, error) {
	return ParseWithLimits(file, data, inputlimit.Trace)
}

// records are a runtime trace's records: its steps, bounded by
// --max-input-actions as a trace's actions are.
var records = schemafile.Records{Key: "steps", What: "steps"}

// ParseWithLimits parses a runtime trace: the bounds a trace has (size,
// encoding, control characters, nesting, nodes with aliases expanded,
// steps: schemafile.Parse), YAML, then the schema, then the meaning
// (exactly one action per step, known agents). The trace carries
// lim.Transcript, the bound on what its model requests carry. Errors are
// *Error.
func ParseWithLimits(file string, data []byte, lim inputlimit.Limits) (*loop.Trace, error) {
	f, err := schemafile.Parse(file, data, lim, records)
	if err != nil {
		return nil, err
	}
	js, err := schemafile.ToJSON(file, f)
	if err != nil {
		return nil, err
	}
	if err := schema.Check(file, js, func(loc []string, msg, extra string) error {
		if extra != "" {
			return locatedAt(file, f, append(loc, extra), true, msg)
		}
		return located(file, f, loc, msg)
	}); err != nil {
		return nil, err
	}
	var out File
	if err := json.Unmarshal(js, &out); err != nil {
		return nil, &Error{File: file, Msg: err.Error()}
	}
	if msg := schemafile.FormatProblem("runtime trace", out.Format, Format); msg != "" {
		return nil, located(file, f, []string{"format"}, msg)
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
	t.MaxTranscript = lim.Transcript
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
	return locatedAt(file, f, loc, false, msg)
}

// locatedAt is located, at the key of loc's last field when key is set
// (an unknown field: the key is what is wrong).
func locatedAt(file string, f *ast.File, loc []string, key bool, msg string) error {
	line, col := schemafile.Position(f, loc, key)
	return &Error{File: file, Line: line, Column: col, Field: schemafile.FieldPath(loc), Msg: msg}
}
