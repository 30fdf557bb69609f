// Package trace reads, validates and runs plankit trace files: a scripted
// run of the simulated runtime (package sim) around a plan-mode
// implementation, with expectations checked after any action.
//
// A trace is YAML (or JSON, which is YAML) validated against the published
// JSON Schema (schema.json, also printed by `plankit schema`). Every problem
// in a trace is reported with its file, line, column and field. Running a
// trace yields a Run: each action's sim.Result and the expectations that
// failed, which package render turns into a timeline.
package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/internal/schemafile"
	"github.com/plankit/plankit/sim"
)

// DefaultSection is the plan guidance used when a trace gives no config.
const DefaultSection = "Plan before you act: explore, then present a plan with exit_plan_mode."

// Trace is a parsed trace file.
type Trace struct {
	// File is where the trace was read from, for messages.
	File string `json:"-"`
	// Format is the trace format the file says it is written in (0: it
	// does not say; it is then read as Format).
	Format      int                `json:"format,omitempty"`
	Name        string             `json:"name"`
	Description string             `json:"description,omitempty"`
	Clauses     []string           `json:"clauses,omitempty"`
	Runtime     *Runtime           `json:"runtime,omitempty"`
	Config      json.RawMessage    `json:"config,omitempty"`
	Services    *sim.Services      `json:"services,omitempty"`
	Listeners   []sim.ListenerSpec `json:"listeners,omitempty"`
	HostTools   []HostTool         `json:"hostTools,omitempty"`
	Agents      []string           `json:"agents,omitempty"`
	Script      []Entry            `json:"script"`
}

// Runtime is the trace's runtime section.
type Runtime struct {
	Plugin   *bool  `json:"plugin,omitempty"`
	Retries  string `json:"retries,omitempty"`
	Assembly string `json:"assembly,omitempty"`
	// EmptySteps is sim.Options.EmptySteps: run or skip.
	EmptySteps string `json:"empty-steps,omitempty"`
}

// HostTool is a tool of the host's own: registered before the plugin
// loads, or, with Assembly, added to every request by a prompt-assembly
// listener that runs after plan mode's.
type HostTool struct {
	Name     string `json:"name"`
	Assembly bool   `json:"assembly,omitempty"`
}

// Entry is one scripted action and what to expect after it.
type Entry struct {
	sim.Action
	Expect *Expect `json:"expect,omitempty"`
	// Pos is where the entry starts in its file.
	Pos Pos `json:"-"`
}

// MarshalJSON writes the action key and expect side by side.
func (e Entry) MarshalJSON() ([]byte, error) {
	act, err := json.Marshal(e.Action)
	if err != nil {
		return nil, err
	}
	if e.Expect == nil {
		return act, nil
	}
	exp, err := json.Marshal(e.Expect)
	if err != nil {
		return nil, err
	}
	return append(append(act[:len(act)-1], []byte(`,"expect":`)...), append(exp, '}')...), nil
}

// UnmarshalJSON reads an action key and an optional expect.
func (e *Entry) UnmarshalJSON(b []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return err
	}
	if x, ok := fields["expect"]; ok {
		e.Expect = &Expect{}
		if err := strictUnmarshal(x, e.Expect); err != nil {
			return err
		}
		delete(fields, "expect")
	}
	rest, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	return strictUnmarshal(rest, &e.Action)
}

func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// Pos is a position in a trace file.
type Pos struct {
	Line, Column int
}

// Error is a problem in a trace file, with where it is and which field.
type Error = schemafile.Error

var schema = schemafile.NewSchema("trace schema", "trace.json", func() ([]schemafile.Resource, error) {
	return []schemafile.Resource{{ID: "trace.json", Data: Schema}}, nil
}).WithRenamed(renamed...)

// ReadFile reads and parses a trace file within the default bounds
// (inputlimit.Trace).
func ReadFile(path string) (*Trace, error) { return ReadFileWithLimits(path, inputlimit.Trace) }

// ReadFileWithLimits reads and parses a trace file within lim; a file over
// lim.Bytes is not read past the bound.
func ReadFileWithLimits(path string, lim inputlimit.Limits) (*Trace, error) {
	data, err := schemafile.ReadFile(path, lim)
	if err != nil {
		return nil, err
	}
	return ParseWithLimits(path, data, lim)
}

// Parse parses a trace within the default bounds (inputlimit.Trace).
func Parse(file string, data []byte) (*Trace, error) {
	return ParseWithLimits(file, data, inputlimit.Trace)
}

// records are a trace's records: its script's actions.
var records = schemafile.Records{Key: "script", What: "actions"}

// ParseWithLimits parses a trace: its size, encoding and the bounds on
// nesting, nodes and actions (schemafile.Parse), YAML syntax, then the
// JSON Schema, then the script's meaning (one action per entry, known
// agents). Every error is an *Error naming file, line, column and field.
func ParseWithLimits(file string, data []byte, lim inputlimit.Limits) (*Trace, error) {
	f, err := schemafile.Parse(file, data, lim, records)
	if err != nil {
		return nil, err
	}
	var generic any
	if len(f.Docs) > 0 && f.Docs[0].Body != nil {
		if err := yaml.NodeToValue(f.Docs[0].Body, &generic, yaml.UseOrderedMap()); err != nil {
			return nil, schemafile.Syntax(file, err)
		}
	}
	generic = plain(generic)
	js, err := json.Marshal(generic)
	if err != nil {
		return nil, &Error{File: file, Msg: err.Error()}
	}
	if err := schema.Check(file, js, func(loc []string, msg, extra string) error {
		if extra != "" {
			pos := find(f, append(loc, extra), true)
			return &Error{File: file, Line: pos.Line, Column: pos.Column, Field: schemafile.FieldPath(append(loc, extra)), Msg: msg}
		}
		return locate(file, f, loc, msg)
	}); err != nil {
		return nil, err
	}
	t := &Trace{File: file}
	if err := json.Unmarshal(js, t); err != nil {
		return nil, &Error{File: file, Msg: err.Error()}
	}
	if msg := schemafile.FormatProblem("trace", t.Format, Format); msg != "" {
		return nil, locate(file, f, []string{"format"}, msg)
	}
	for i := range t.Script {
		t.Script[i].Pos = position(f, []string{"script", strconv.Itoa(i)})
	}
	if err := t.check(f); err != nil {
		return nil, err
	}
	return t, nil
}

// plain turns goccy's ordered maps into plain maps for JSON.
func plain(v any) any {
	switch x := v.(type) {
	case yaml.MapSlice:
		m := make(map[string]any, len(x))
		for _, item := range x {
			m[fmt.Sprint(item.Key)] = plain(item.Value)
		}
		return m
	case map[string]any:
		for k, val := range x {
			x[k] = plain(val)
		}
		return x
	case []any:
		for i := range x {
			x[i] = plain(x[i])
		}
		return x
	}
	return v
}

// locate finds the node at a JSON-pointer-like path and reports there.
func locate(file string, f *ast.File, loc []string, msg string) *Error {
	pos := position(f, loc)
	return &Error{File: file, Line: pos.Line, Column: pos.Column, Field: schemafile.FieldPath(loc), Msg: msg}
}

// position returns where the value at loc starts (or, with key, where the
// key naming it starts), falling back to the nearest ancestor that exists.
func position(f *ast.File, loc []string) Pos { return find(f, loc, false) }

func find(f *ast.File, loc []string, key bool) Pos {
	line, col := schemafile.Position(f, loc, key)
	return Pos{Line: line, Column: col}
}

// check validates what the schema cannot: one action per entry and agents
// that exist when the action runs.
func (t *Trace) check(f *ast.File) error {
	agents := t.Agents
	if len(agents) == 0 {
		agents = []string{"main"}
	}
	for i, a := range t.Agents {
		if slices.Index(t.Agents, a) != i {
			return locate(t.File, f, []string{"agents", strconv.Itoa(i)}, fmt.Sprintf("agent %q is declared twice", a))
		}
	}
	for i, h := range t.HostTools {
		if slices.IndexFunc(t.HostTools, func(o HostTool) bool { return o.Name == h.Name }) != i {
			return locate(t.File, f, []string{"hostTools", strconv.Itoa(i), "name"}, fmt.Sprintf("host tool %q is declared twice", h.Name))
		}
	}
	for i, l := range t.Listeners {
		if slices.IndexFunc(t.Listeners, func(o sim.ListenerSpec) bool { return o.Name == l.Name }) != i {
			return locate(t.File, f, []string{"listeners", strconv.Itoa(i), "name"}, fmt.Sprintf("listener %q is declared twice", l.Name))
		}
	}
	known := slices.Clone(agents)
	for i, e := range t.Script {
		loc := []string{"script", strconv.Itoa(i)}
		if e.Action.Name() == "" {
			return locate(t.File, f, loc, "entry has no action (one of "+strings.Join(sim.ActionNames(), ", ")+")")
		}
		if n := countActions(e.Action); n > 1 {
			return locate(t.File, f, loc, fmt.Sprintf("entry has %d actions; write one action per entry", n))
		}
		name := e.Action.Name()
		intro := e.Action.Introduces()
		if a := e.Action.Agent(); a != "" && a != intro && !slices.Contains(known, a) {
			return locate(t.File, f, append(loc, name, "agent"), fmt.Sprintf("unknown agent %q (agents: %s)", a, strings.Join(known, ", ")))
		}
		if e.Expect != nil && e.Expect.Agent != "" && !slices.Contains(known, e.Expect.Agent) && e.Expect.Agent != intro {
			return locate(t.File, f, append(loc, "expect", "agent"), fmt.Sprintf("unknown agent %q (agents: %s)", e.Expect.Agent, strings.Join(known, ", ")))
		}
		if intro != "" {
			if slices.Contains(known, intro) {
				return locate(t.File, f, append(loc, name, introField(e.Action)), fmt.Sprintf("agent %q already exists", intro))
			}
			known = append(known, intro)
		}
		for _, name := range slices.Sorted(maps.Keys(stepOf(e.Action).Listeners)) {
			if !slices.ContainsFunc(t.Listeners, func(l sim.ListenerSpec) bool { return l.Name == name }) {
				return locate(t.File, f, append(loc, e.Action.Name(), "listeners", name), fmt.Sprintf("listener %q is not declared under listeners", name))
			}
		}
	}
	return nil
}

func stepOf(a sim.Action) *sim.StepAction {
	if a.Step != nil {
		return a.Step
	}
	if a.Retry != nil {
		return a.Retry
	}
	return &sim.StepAction{}
}

// introField is the field of an action that names the agent it creates.
func introField(a sim.Action) string {
	if a.Fork != nil {
		return "as"
	}
	return "agent"
}

func countActions(a sim.Action) int {
	var m map[string]json.RawMessage
	b, _ := json.Marshal(a)
	_ = json.Unmarshal(b, &m)
	return len(m)
}

// Options returns the simulator options the trace asks for.
func (t *Trace) Options() sim.Options {
	opts := sim.Options{
		Config:    t.Config,
		Services:  sim.Services{Commands: true, UserQuestions: true},
		Listeners: t.Listeners,
		Agents:    t.Agents,
	}
	if len(opts.Config) == 0 {
		opts.Config = sim.JSON(map[string]string{"section": DefaultSection})
	}
	if t.Services != nil {
		opts.Services = *t.Services
	}
	if len(opts.Agents) == 0 {
		opts.Agents = []string{"main"}
	}
	if t.Runtime != nil {
		opts.NoPlugin = t.Runtime.Plugin != nil && !*t.Runtime.Plugin
		opts.Retries = t.Runtime.Retries
		opts.Assembly = t.Runtime.Assembly
		opts.EmptySteps = t.Runtime.EmptySteps
	}
	for _, h := range t.HostTools {
		if h.Assembly {
			opts.AssemblyTools = append(opts.AssemblyTools, h.Name)
		} else {
			opts.HostTools = append(opts.HostTools, h.Name)
		}
	}
	return opts
}
