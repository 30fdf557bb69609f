package sim

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/plankit/plankit/spec"
)

// Event is one entry of a session log, in the shape of dsh's JSONL logs:
// a 0-based contiguous seq, a type and its data.
type Event struct {
	Seq  int             `json:"seq"`
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// Source says who wrote a user message: the user, or a plugin.
type Source struct {
	Kind    string `json:"kind"`
	Plugin  string `json:"plugin,omitempty"`
	Form    string `json:"form,omitempty"`
	Summary string `json:"summary,omitempty"`
}

// Message is a message of a request's transcript.
type Message struct {
	Role   string `json:"role"`
	Text   string `json:"text"`
	Source Source `json:"source"`
}

// IsPlanNotice reports whether m is a plan-mode notice: a plugin-sourced
// user message from the plan-mode plugin.
func (m Message) IsPlanNotice() bool {
	return m.Source.Kind == "plugin" && m.Source.Plugin == spec.PluginName
}

// UserMessage is a message from the user.
func UserMessage(text string) Message {
	return Message{Role: "user", Text: text, Source: Source{Kind: "user"}}
}

// userMessageData is the logged shape of a user/message (dsh's).
type userMessageData struct {
	Content []textPart `json:"content"`
	Source  Source     `json:"source"`
	Role    string     `json:"role"`
}

type textPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// MessageData returns the logged data of a user/message carrying m.
func MessageData(m Message) json.RawMessage {
	role := m.Role
	if role == "" {
		role = "user"
	}
	return mustJSON(userMessageData{Content: []textPart{{Type: "text", Text: m.Text}}, Source: m.Source, Role: role})
}

// MessageOf decodes a logged user/message back into a Message.
func MessageOf(data json.RawMessage) (Message, error) {
	var d userMessageData
	if err := json.Unmarshal(data, &d); err != nil {
		return Message{}, err
	}
	var text bytes.Buffer
	for _, p := range d.Content {
		text.WriteString(p.Text)
	}
	return Message{Role: d.Role, Text: text.String(), Source: d.Source}, nil
}

// PlanModeData is the data of a plan/mode event.
type PlanModeData struct {
	Active bool `json:"active"`
}

// PlanModeOf returns the active flag of a plan/mode event and whether its
// data is exactly {active: boolean}.
func PlanModeOf(e Event) (active bool, ok bool) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(e.Data, &raw); err != nil || len(raw) != 1 {
		return false, false
	}
	v, found := raw["active"]
	if !found {
		return false, false
	}
	switch string(v) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// Log is one agent's durable, append-only session log.
type Log struct {
	events []Event
}

// NewLog returns a log holding a copy of events, renumbered from 0.
func NewLog(events []Event) *Log {
	l := &Log{}
	for _, e := range events {
		l.Append(e.Type, e.Data)
	}
	return l
}

// Append adds an event with the next seq and returns it. Data is stored in
// canonical JSON (sorted keys, no insignificant space) so that equal values
// compare equal byte for byte.
func (l *Log) Append(typ string, data json.RawMessage) Event {
	e := Event{Seq: len(l.events), Type: typ, Data: Canonical(data)}
	l.events = append(l.events, e)
	return e
}

// Len is the number of events.
func (l *Log) Len() int { return len(l.events) }

// Events returns the log's events; callers must not modify them.
func (l *Log) Events() []Event { return l.events }

// Since returns the events from seq n on.
func (l *Log) Since(n int) []Event {
	if n >= len(l.events) {
		return nil
	}
	return l.events[n:]
}

// Canonical re-encodes JSON with sorted object keys and no insignificant
// space. Invalid JSON is returned as a JSON string holding the raw text, so a
// broken payload is kept visible rather than dropped.
func Canonical(data json.RawMessage) json.RawMessage {
	if len(data) == 0 {
		return json.RawMessage("null")
	}
	if out, ok := canonicalBytes(make([]byte, 0, len(data)), data); ok {
		return out
	}
	return canonicalSlow(data)
}

// canonicalSlow is Canonical through a decoded value: the definition the
// byte-level path must match (TestCanonicalMatchesDecodeEncode).
func canonicalSlow(data json.RawMessage) json.RawMessage {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return mustJSON(string(data))
	}
	return mustJSON(v)
}

func mustJSON(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("sim: encoding %T: %v", v, err)) // only plain data is encoded
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// JSON encodes v as canonical JSON.
func JSON(v any) json.RawMessage { return Canonical(mustJSON(v)) }
