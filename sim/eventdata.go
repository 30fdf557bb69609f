package sim

import (
	"strconv"
	"unicode/utf8"

	"github.com/plankit/plankit/spec"
)

// The events the runtime logs on every turn and step are typed: their
// canonical JSON is written straight from the values into the log's arena,
// members in key order, with no reflection, no map and no canonicalising
// pass. TestTypedEventsMatchReflection holds every encoder here to what
// encoding/json and Canonical make of the same value, and
// TestTypedEventShapes to the fields of the types they read.

// appendJSONString appends s as Canonical writes what encoding/json made
// of it: as is when nothing needs escaping, through both otherwise (an
// invalid byte, which encoding/json writes as \ufffd, is the raw
// replacement rune once canonical).
func appendJSONString(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b < 0x20 || b == '"' || b == '\\' {
				return appendEscaped(dst, s)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return appendEscaped(dst, s)
		}
		i += size
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

func appendEscaped(dst []byte, s string) []byte {
	return append(dst, Canonical(appendString(nil, s))...)
}

// appendKey appends "key": after sep (',' or 0 for the first member).
func appendKey(dst []byte, sep byte, key string) []byte {
	if sep != 0 {
		dst = append(dst, sep)
	}
	dst = append(dst, '"')
	dst = append(dst, key...)
	return append(dst, '"', ':')
}

func appendInt(dst []byte, sep byte, key string, v int) []byte {
	return strconv.AppendInt(appendKey(dst, sep, key), int64(v), 10)
}

func appendStr(dst []byte, sep byte, key, v string) []byte {
	return appendJSONString(appendKey(dst, sep, key), v)
}

// appendStepJSON writes step/start and step/end data: {step, turn}.
func appendStepJSON(dst []byte, turn, step int) []byte {
	dst = appendInt(append(dst, '{'), 0, "step", step)
	return append(appendInt(dst, ',', "turn", turn), '}')
}

// appendTurnStartJSON writes turn/start data: {turn}.
func appendTurnStartJSON(dst []byte, turn int) []byte {
	return append(appendInt(append(dst, '{'), 0, "turn", turn), '}')
}

// appendTurnEndJSON writes turn/end data: {reason: {kind}, turn}.
func appendTurnEndJSON(dst []byte, turn int, reason string) []byte {
	dst = appendKey(append(dst, '{'), 0, "reason")
	dst = append(appendStr(append(dst, '{'), 0, "kind", reason), '}')
	return append(appendInt(dst, ',', "turn", turn), '}')
}

// appendSourceJSON writes a message source: {form?, kind, plugin?, summary?}.
func appendSourceJSON(dst []byte, s Source) []byte {
	dst = append(dst, '{')
	if s.Form != "" {
		dst = appendStr(dst, 0, "form", s.Form)
		dst = append(dst, ',')
	}
	dst = appendStr(dst, 0, "kind", s.Kind)
	if s.Plugin != "" {
		dst = appendStr(dst, ',', "plugin", s.Plugin)
	}
	if s.Summary != "" {
		dst = appendStr(dst, ',', "summary", s.Summary)
	}
	return append(dst, '}')
}

// appendTextPartJSON writes {text, type: "text"}.
func appendTextPartJSON(dst []byte, text string) []byte {
	dst = appendStr(append(dst, '{'), 0, "text", text)
	return append(appendStr(dst, ',', "type", "text"), '}')
}

// appendMessageJSON writes user/message data (MessageData's shape):
// {content: [{text, type}], role, source}.
func appendMessageJSON(dst []byte, m Message) []byte {
	role := m.Role
	if role == "" {
		role = "user"
	}
	dst = appendKey(append(dst, '{'), 0, "content")
	dst = append(appendTextPartJSON(append(dst, '['), m.Text), ']')
	dst = appendStr(dst, ',', "role", role)
	dst = appendSourceJSON(appendKey(dst, ',', "source"), m.Source)
	return append(dst, '}')
}

// appendHeaderJSON writes a request's assembly: {system: [{name, order,
// text}], tools: [{name}]}.
func appendHeaderJSON(dst []byte, sections []Section, tools []Tool) []byte {
	dst = append(appendKey(append(dst, '{'), 0, "system"), '[')
	for i, s := range sections {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendStr(append(dst, '{'), 0, "name", s.Name)
		dst = appendInt(dst, ',', "order", s.Order)
		dst = append(appendStr(dst, ',', "text", s.Text), '}')
	}
	dst = append(appendKey(append(dst, ']'), ',', "tools"), '[')
	for i, t := range tools {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(appendStr(append(dst, '{'), 0, "name", t.Name), '}')
	}
	return append(dst, ']', '}')
}

// appendAssistantJSON writes assistant data: {message: {content, role:
// "assistant"}, step, turn}, the content being the text (when not empty)
// and then each tool call {arguments, id, name, type: "tool-call"}.
func appendAssistantJSON(dst []byte, turn, step int, text string, calls []ToolCall, ids []string) []byte {
	dst = appendKey(append(dst, '{'), 0, "message")
	dst = append(appendKey(append(dst, '{'), 0, "content"), '[')
	if text != "" {
		dst = appendTextPartJSON(dst, text)
	}
	for i, c := range calls {
		if i > 0 || text != "" {
			dst = append(dst, ',')
		}
		dst = appendStr(append(dst, '{'), 0, "arguments", string(argsOf(c)))
		dst = appendStr(dst, ',', "id", ids[i])
		dst = appendStr(dst, ',', "name", c.Name)
		dst = append(appendStr(dst, ',', "type", "tool-call"), '}')
	}
	dst = append(appendStr(append(dst, ']'), ',', "role", "assistant"), '}')
	dst = appendInt(dst, ',', "step", step)
	return append(appendInt(dst, ',', "turn", turn), '}')
}

// appendToolCallJSON writes tool/call data: {arguments, callId, name, step,
// turn}.
func appendToolCallJSON(dst []byte, turn, step int, id string, c ToolCall) []byte {
	dst = appendStr(append(dst, '{'), 0, "arguments", string(argsOf(c)))
	dst = appendStr(dst, ',', "callId", id)
	dst = appendStr(dst, ',', "name", c.Name)
	dst = appendInt(dst, ',', "step", step)
	return append(appendInt(dst, ',', "turn", turn), '}')
}

// appendToolResultJSON writes tool/result data: {message: {content:
// [{content: [{text, type}], isError, toolCallId, type: "tool-result"}],
// role: "user", source: {callId, kind: "tool"}}, step, turn}.
func appendToolResultJSON(dst []byte, turn, step int, id, text string, isError bool) []byte {
	dst = appendKey(append(dst, '{'), 0, "message")
	dst = append(appendKey(append(dst, '{'), 0, "content"), '[', '{')
	dst = append(appendKey(dst, 0, "content"), '[')
	dst = append(appendTextPartJSON(dst, text), ']')
	dst = strconv.AppendBool(appendKey(dst, ',', "isError"), isError)
	dst = appendStr(dst, ',', "toolCallId", id)
	dst = append(appendStr(dst, ',', "type", "tool-result"), '}', ']')
	dst = appendStr(dst, ',', "role", "user")
	dst = appendStr(append(appendKey(dst, ',', "source"), '{'), 0, "callId", id)
	dst = append(appendStr(dst, ',', "kind", "tool"), '}', '}')
	dst = appendInt(dst, ',', "step", step)
	return append(appendInt(dst, ',', "turn", turn), '}')
}

// record notes an event the runtime appended in the action's result.
func (r *Runtime) record(res *Result, a *agentState, e Event, byPlugin bool) {
	if res.Appended == nil {
		if b := r.boxOf(res); b != nil && b.appended != nil {
			res.Appended = b.appended
		} else {
			res.Appended = make([]Appended, 0, 2)
		}
	}
	res.Appended = append(res.Appended, Appended{Agent: a.name, Event: e, ByPlugin: byPlugin})
}

// logStep appends step/start or step/end for the agent's current step.
func (r *Runtime) logStep(res *Result, a *agentState, typ string) {
	if r.opts.NoStepEvents {
		return
	}
	r.record(res, a, a.log.push(typ, appendStepJSON(a.log.buf(), a.turn, a.step)), false)
}

// logTurnStart appends turn/start for the agent's current turn.
func (r *Runtime) logTurnStart(res *Result, a *agentState) {
	r.record(res, a, a.log.push(spec.TypeTurnStart, appendTurnStartJSON(a.log.buf(), a.turn)), false)
}

// logTurnEnd appends turn/end for the agent's current turn.
func (r *Runtime) logTurnEnd(res *Result, a *agentState, reason string) {
	r.record(res, a, a.log.push(spec.TypeTurnEnd, appendTurnEndJSON(a.log.buf(), a.turn, reason)), false)
}

// logMessage appends a user/message carrying m. The data of the last few
// messages logged is kept (a view of the logged bytes): the same message
// (a plan-mode notice, a listener's message) is copied, not encoded again.
func (r *Runtime) logMessage(res *Result, a *agentState, m Message) {
	for i := range r.messages {
		if c := &r.messages[i]; c.data != nil && c.m == m {
			r.record(res, a, a.log.push(spec.TypeUserMessage, append(a.log.buf(), c.data...)), false)
			return
		}
	}
	e := a.log.push(spec.TypeUserMessage, appendMessageJSON(a.log.buf(), m))
	r.messages[r.nextMessage] = loggedMessage{m, e.Data}
	r.nextMessage = (r.nextMessage + 1) % len(r.messages)
	r.record(res, a, e, false)
}

// loggedMessage is a message and its logged data.
type loggedMessage struct {
	m    Message
	data []byte
}

// logHeader appends request/header for the assembly and returns the
// header's canonical bytes (a view of the logged data) and the reason:
// initial for the agent's first request, resume when the assembly equals
// the last one byte for byte, change otherwise. Under HeadersOnChange an
// unchanged header is not logged. header is the header's canonical bytes
// when they are known (an assembly seen before), nil otherwise: they are
// then written, and kept with the agent's last assembly.
func (r *Runtime) logHeader(res *Result, a *agentState, sections []Section, tools []Tool, header []byte) ([]byte, string) {
	buf := appendKey(append(a.log.buf(), '{'), 0, "header")
	hstart := len(buf)
	if header != nil {
		buf = append(buf, header...)
	} else {
		buf = appendHeaderJSON(buf, sections, tools)
	}
	hend := len(buf)
	reason := "initial"
	if a.assembled {
		reason = "resume"
		if string(a.lastAssemblyJSON) != string(buf[hstart:]) {
			reason = "change"
		}
	}
	if reason == "resume" && r.opts.Headers == HeadersOnChange {
		// Unchanged: nothing is logged (the bytes written stay in the
		// log's scratch buffer).
		if header == nil {
			a.assemblies[0].header = a.lastAssemblyJSON
		}
		return a.lastAssemblyJSON, reason
	}
	buf = append(appendStr(buf, ',', "reason", reason), '}')
	e := a.log.push(spec.TypeRequestHeader, buf)
	r.record(res, a, e, false)
	logged := e.Data[hstart:hend:hend]
	if header == nil {
		a.assemblies[0].header = logged
	}
	return logged, reason
}

// logAssistant appends the model's output for the agent's current step.
func (r *Runtime) logAssistant(res *Result, a *agentState, text string, calls []ToolCall, ids []string) {
	r.record(res, a, a.log.push(spec.TypeAssistant, appendAssistantJSON(a.log.buf(), a.turn, a.step, text, calls, ids)), false)
}

// logToolCall appends tool/call for the model's call c.
func (r *Runtime) logToolCall(res *Result, a *agentState, id string, c ToolCall) {
	r.record(res, a, a.log.push(spec.TypeToolCall, appendToolCallJSON(a.log.buf(), a.turn, a.step, id, c)), false)
}
