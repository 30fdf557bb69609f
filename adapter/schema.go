package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/plankit/plankit/adapter/schema"
	"github.com/plankit/plankit/internal/third_party/jsonschema"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// protocolDef is one protocol's schemas: their folder in schema.FS (and
// the folder named in errors), their $id prefix, its methods and the
// reply shapes quoted in errors.
type protocolDef struct {
	dir, shown, base string
	methods          []string
	shapes           map[string]string
}

var (
	pluginProtocol  = &protocolDef{dir: schema.PluginDir, shown: "schema", base: schema.PluginBase, methods: Methods, shapes: shapes}
	runtimeProtocol = &protocolDef{dir: schema.RuntimeDir, shown: "schema/runtime", base: schema.RuntimeBase, methods: RuntimeMethods, shapes: runtimeShapes}
)

var printer = message.NewPrinter(language.English)

// schemaSet is the compiled schemas. The strict set is the schemas as
// written (no unknown fields anywhere); the lenient set drops every
// "additionalProperties": false, so that an implementation may add fields of
// its own. Replies are always checked against the lenient set; with
// Options.Validate both directions are checked against the strict set.
type schemaSet struct {
	proto          *protocolDef
	request, reply *jsonschema.Schema
	params, result map[string]*jsonschema.Schema
}

// compiled holds one protocol's strict and lenient sets, compiled once.
type compiled struct {
	once            sync.Once
	strict, lenient *schemaSet
	err             error
}

var (
	pluginSchemas, runtimeSchemas compiled
)

// protocolSchemas gives the compiled schemas of one protocol:
// compiledSchemas or compiledRuntimeSchemas.
type protocolSchemas func() (strictSet, lenientSet *schemaSet, err error)

func compiledSchemas() (strictSet, lenientSet *schemaSet, err error) {
	return pluginSchemas.get(pluginProtocol)
}

func compiledRuntimeSchemas() (strictSet, lenientSet *schemaSet, err error) {
	return runtimeSchemas.get(runtimeProtocol)
}

func (c *compiled) get(def *protocolDef) (strictSet, lenientSet *schemaSet, err error) {
	c.once.Do(func() {
		c.strict, c.err = compileSchemas(def, false)
		if c.err == nil {
			c.lenient, c.err = compileSchemas(def, true)
		}
	})
	return c.strict, c.lenient, c.err
}

func compileSchemas(def *protocolDef, relax bool) (*schemaSet, error) {
	c := jsonschema.NewCompiler()
	entries, err := schema.FS.ReadDir(def.dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := schema.FS.ReadFile(path.Join(def.dir, e.Name()))
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", def.shown, e.Name(), err)
		}
		if relax {
			doc = relaxed(doc)
		}
		if err := c.AddResource(def.base+e.Name(), doc); err != nil {
			return nil, fmt.Errorf("%s/%s: %w", def.shown, e.Name(), err)
		}
	}
	s := &schemaSet{proto: def, params: map[string]*jsonschema.Schema{}, result: map[string]*jsonschema.Schema{}}
	if s.request, err = c.Compile(def.base + "request.json"); err != nil {
		return nil, err
	}
	if s.reply, err = c.Compile(def.base + "reply.json"); err != nil {
		return nil, err
	}
	for _, m := range def.methods {
		if s.params[m], err = c.Compile(def.base + m + ".json#/$defs/params"); err != nil {
			return nil, err
		}
		if s.result[m], err = c.Compile(def.base + m + ".json#/$defs/result"); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// relaxed removes every "additionalProperties": false from a schema
// document.
func relaxed(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if b, ok := x["additionalProperties"].(bool); ok && !b {
			delete(x, "additionalProperties")
		}
		for k, c := range x {
			x[k] = relaxed(c)
		}
	case []any:
		for i, c := range x {
			x[i] = relaxed(c)
		}
	}
	return v
}

// validate checks a decoded JSON value against a schema and returns the
// most specific complaint with its JSON pointer, or nil.
func validate(s *jsonschema.Schema, raw []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	return validateValue(s, inst)
}

// validateValue checks a value parsed by jsonschema.UnmarshalJSON.
func validateValue(s *jsonschema.Schema, inst any) error {
	if err := s.Validate(inst); err != nil {
		ve, ok := err.(*jsonschema.ValidationError)
		if !ok {
			return err
		}
		loc, msg := deepest(ve)
		return fmt.Errorf("at %s: %s", pointer(loc), msg)
	}
	return nil
}

func pointer(loc []string) string {
	if len(loc) == 0 {
		return "/"
	}
	return "/" + strings.Join(loc, "/")
}

// deepest picks the complaint at the deepest instance location; ties keep
// the first, so the choice is stable.
func deepest(ve *jsonschema.ValidationError) ([]string, string) {
	bestLoc, bestMsg, found := ve.InstanceLocation, ve.ErrorKind.LocalizedString(printer), false
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			if !found || len(e.InstanceLocation) > len(bestLoc) {
				bestLoc, bestMsg, found = e.InstanceLocation, e.ErrorKind.LocalizedString(printer), true
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

func checkRequest(s *schemaSet, line []byte) error {
	if err := validate(s.request, line); err != nil {
		return err
	}
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		return err
	}
	if err := validate(s.params[req.Method], req.Params); err != nil {
		return fmt.Errorf("params of %s: %w", req.Method, err)
	}
	return nil
}

// checkReplyValue checks a parsed reply line: the envelope, then the
// result against the method's result schema.
func checkReplyValue(s *schemaSet, method string, v any) error {
	if err := validateValue(s.reply, v); err != nil {
		return err
	}
	if m, ok := v.(map[string]any); ok {
		if res, ok := m["result"]; ok {
			if sch := s.result[method]; sch != nil {
				if err := validateValue(sch, res); err != nil {
					return fmt.Errorf("result of %s: %w", method, err)
				}
			}
		}
	}
	return nil
}
