package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// Event describes one event type of the session log: who writes it, what
// it means and the exact shape of its data.
type Event struct {
	Type string `json:"type"`
	// Writer is "runtime" (the host appends it) or "plugin" (the plan-mode
	// implementation appends it through its host).
	Writer  string   `json:"writer"`
	Doc     string   `json:"doc"`
	Clauses []string `json:"clauses,omitempty"`
	Data    Shape    `json:"data"`
}

// Shape is the shape of a JSON value. Objects are closed: a field the
// shape does not list is an error, so the catalog stays complete.
type Shape struct {
	// Type is object, array, string, integer or boolean.
	Type string `json:"type"`
	// Enum, for strings, lists the only values allowed.
	Enum   []string `json:"enum,omitempty"`
	Fields []Field  `json:"fields,omitempty"`
	Items  *Shape   `json:"items,omitempty"`
	// OneOf, for array items, lists alternative object shapes told apart
	// by their "type" field.
	OneOf []Shape `json:"oneOf,omitempty"`
}

// Field is one field of an object shape.
type Field struct {
	Name     string `json:"name"`
	Required bool   `json:"required"`
	Doc      string `json:"doc,omitempty"`
	Shape    Shape  `json:"shape"`
}

func obj(fields ...Field) Shape { return Shape{Type: "object", Fields: fields} }
func arr(items Shape) Shape     { return Shape{Type: "array", Items: &items} }
func str() Shape                { return Shape{Type: "string"} }
func enum(v ...string) Shape    { return Shape{Type: "string", Enum: v} }
func integer() Shape            { return Shape{Type: "integer"} }
func boolean() Shape            { return Shape{Type: "boolean"} }
func oneOf(s ...Shape) Shape    { return Shape{Type: "object", OneOf: s} }
func req(name string, s Shape, doc string) Field {
	return Field{Name: name, Required: true, Shape: s, Doc: doc}
}
func opt(name string, s Shape, doc string) Field { return Field{Name: name, Shape: s, Doc: doc} }

var (
	turnField = req("turn", integer(), "turn number of the agent, from 1")
	stepField = req("step", integer(), "step number within the turn, from 1")
	textPart  = obj(req("type", enum("text"), ""), req("text", str(), ""))
	source    = obj(
		req("kind", enum("user", "plugin"), "who wrote the message"),
		opt("plugin", str(), "the plugin that wrote it (`plan-mode` for plan-mode notices)"),
		opt("form", str(), "the plugin's kind of message (`notice`)"),
		opt("summary", str(), "a one-line summary for user interfaces"),
	)
	section = obj(req("name", str(), "section name, `plan:policy` for plan mode"), req("order", integer(), "render order, ascending"), req("text", str(), "rendered text"))
	tool    = obj(req("name", str(), "tool name"))
)

// Events lists every event type the simulator writes, in the order of the
// spec.Type* constants.
var Events = []Event{
	{Type: spec.TypeTurnStart, Writer: "runtime", Doc: "A turn opens: prompt admission, or a steer that wakes an agent between turns. A turn is open until its `turn/end`.", Clauses: []string{spec.PEND1, spec.STEP4},
		Data: obj(turnField)},
	{Type: spec.TypeTurnEnd, Writer: "runtime", Doc: "The turn closes. The agent stays `running` while it checkpoints; `set` sees no open turn from here on.", Clauses: []string{spec.PEND6},
		Data: obj(turnField, req("reason", obj(req("kind", str(), "`completed`, `blocked` (a rejected pre-step), `aborted`, `interrupted` (restart or fork), or a trace's own reason")), ""))},
	{Type: spec.TypeStepStart, Writer: "runtime", Doc: "An accepted pre-step starts a step; the plugin's `plan/mode` append, if any, comes just before it.", Clauses: []string{spec.STEP3, spec.STEP7},
		Data: obj(turnField, stepField)},
	{Type: spec.TypeStepEnd, Writer: "runtime", Doc: "The step's model output and tool results are logged.",
		Data: obj(turnField, stepField)},
	{Type: spec.TypeRequestHeader, Writer: "runtime", Doc: "A request the runtime actually sends: the system prompt sections and tool catalog the model saw.", Clauses: []string{spec.STEP6, spec.STEP7, spec.CFG2, spec.EXIT1},
		Data: obj(
			req("header", obj(
				req("system", arr(section), "system prompt sections in render order"),
				req("tools", arr(tool), "the request's tool catalog"),
			), ""),
			req("reason", enum("initial", "resume", "change"), "first request of the session, same header as the last one, or a changed header"),
		)},
	{Type: spec.TypeRetry, Writer: "runtime", Doc: "A request-recovery retry of the step whose request failed.", Clauses: []string{spec.STEP2},
		Data: obj(turnField, stepField, req("retry", integer(), "retry number, from 1"), req("mode", enum(sim.RetriesPreStep, sim.RetriesSameStep), "whether the retry goes through agent/pre-step again"))},
	{Type: spec.TypeUserMessage, Writer: "runtime", Doc: "A message of the step's transcript: the user's prompt or steer, another listener's message, or a plan-mode notice (source kind `plugin`, plugin `plan-mode`).", Clauses: []string{spec.STEP6, spec.CMD3},
		Data: obj(
			req("content", arr(textPart), "message text parts"),
			req("source", source, ""),
			req("role", enum("user"), ""),
		)},
	{Type: spec.TypeAssistant, Writer: "runtime", Doc: "The model's output for the step: text and tool calls.",
		Data: obj(turnField, stepField, req("message", obj(
			req("role", enum("assistant"), ""),
			req("content", arr(oneOf(
				obj(req("type", enum("text"), ""), req("text", str(), "")),
				obj(req("type", enum("tool-call"), ""), req("id", str(), "call id"), req("name", str(), "tool name"), req("arguments", str(), "arguments as a JSON text")),
			)), ""),
		), ""))},
	{Type: spec.TypeToolCall, Writer: "runtime", Doc: "The runtime executes one tool call of the model.", Clauses: []string{spec.EXIT2},
		Data: obj(turnField, stepField, req("callId", str(), ""), req("name", str(), "tool name, `exit_plan_mode` for the exit tool"), req("arguments", str(), "arguments as a JSON text"))},
	{Type: spec.TypeToolResult, Writer: "runtime", Doc: "A tool call's result or failure, as the model will see it.", Clauses: []string{spec.EXIT5, spec.EXIT6},
		Data: obj(turnField, stepField, req("message", obj(
			req("role", enum("user"), ""),
			req("source", obj(req("kind", enum("tool"), ""), req("callId", str(), "")), ""),
			req("content", arr(obj(
				req("type", enum("tool-result"), ""),
				req("toolCallId", str(), ""),
				req("isError", boolean(), "true when the call failed"),
				req("content", arr(textPart), "the result as JSON text, or the failure message"),
			)), ""),
		), ""))},
	{Type: spec.TypePlanMode, Writer: "plugin", Doc: "A committed plan-mode change; the fold of these events is the state in force. Log-only: never part of the model's transcript.", Clauses: []string{spec.LOG1, spec.LOG2, spec.LOG4, spec.STEP1},
		Data: obj(req("active", boolean(), "whether plan mode is active from here on"))},
	{Type: spec.TypeCommandRun, Writer: "runtime", Doc: "A slash command is run, e.g. `/plan off`.", Clauses: []string{spec.CMD1},
		Data: obj(req("commandId", str(), ""), req("name", str(), "command name without the slash"), req("args", str(), "the raw argument text"), req("source", obj(req("kind", enum("user"), "")), ""))},
	{Type: spec.TypeCommandDone, Writer: "runtime", Doc: "The command's handler replied (or the command is not registered).", Clauses: []string{spec.CMD1},
		Data: obj(req("commandId", str(), ""), req("kind", enum("success", "error"), ""), req("text", str(), "the reply shown to the user"))},
	{Type: spec.TypeCompactStart, Writer: "runtime", Doc: "Compaction of the transcript begins.", Clauses: []string{spec.LOG3},
		Data: obj(req("reason", enum("manual"), ""))},
	{Type: spec.TypeCompactSummary, Writer: "runtime", Doc: "The summary that replaces the transcript up to `through`; the log itself keeps every event.", Clauses: []string{spec.LOG3},
		Data: obj(req("summary", str(), ""), req("through", integer(), "last seq summarised"))},
	{Type: spec.TypeCompactEnd, Writer: "runtime", Doc: "Compaction ends.", Clauses: []string{spec.LOG3},
		Data: obj(req("through", integer(), "last seq summarised"))},
}

// LookupEvent returns the catalog entry of an event type.
func LookupEvent(typ string) (Event, bool) {
	i := slices.IndexFunc(Events, func(e Event) bool { return e.Type == typ })
	if i < 0 {
		return Event{}, false
	}
	return Events[i], true
}

// ValidateEvent checks an event's data against its catalog shape. The
// error names the event type and the path of the offending value.
func ValidateEvent(typ string, data json.RawMessage) error {
	e, ok := LookupEvent(typ)
	if !ok {
		return fmt.Errorf("event type %q is not in the event catalog", typ)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("%s: data is not JSON: %v", typ, err)
	}
	if err := e.Data.validate("data", v); err != nil {
		return fmt.Errorf("%s: %w", typ, err)
	}
	return nil
}

func (s Shape) validate(path string, v any) error {
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object, got %s", path, kindOf(v))
		}
		if len(s.OneOf) > 0 {
			var errs []string
			for _, alt := range s.OneOf {
				err := alt.validate(path, v)
				if err == nil {
					return nil
				}
				errs = append(errs, err.Error())
			}
			return fmt.Errorf("%s: matches none of %d alternatives: %s", path, len(s.OneOf), strings.Join(errs, "; "))
		}
		for _, f := range s.Fields {
			fv, present := m[f.Name]
			if !present {
				if f.Required {
					return fmt.Errorf("%s: missing field %q", path, f.Name)
				}
				continue
			}
			if err := f.Shape.validate(path+"."+f.Name, fv); err != nil {
				return err
			}
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !slices.ContainsFunc(s.Fields, func(f Field) bool { return f.Name == k }) {
				return fmt.Errorf("%s: unexpected field %q", path, k)
			}
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: want an array, got %s", path, kindOf(v))
		}
		for i, x := range a {
			if err := s.Items.validate(fmt.Sprintf("%s[%d]", path, i), x); err != nil {
				return err
			}
		}
	case "string":
		x, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s: want a string, got %s", path, kindOf(v))
		}
		if len(s.Enum) > 0 && !slices.Contains(s.Enum, x) {
			return fmt.Errorf("%s: %q is not one of %s", path, x, strings.Join(s.Enum, ", "))
		}
	case "integer":
		n, ok := v.(json.Number)
		if _, err := n.Int64(); !ok || err != nil {
			return fmt.Errorf("%s: want an integer, got %s", path, kindOf(v))
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s: want a boolean, got %s", path, kindOf(v))
		}
	default:
		return fmt.Errorf("%s: catalog shape has unknown type %q", path, s.Type)
	}
	return nil
}

func kindOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "the number " + x.String()
	}
	return fmt.Sprintf("%T", v)
}
