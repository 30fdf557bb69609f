package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/plankit/plankit/spec"
)

// FoldPlanMode is foldPlanMode(log[0:end)) as a checker reads it: the
// active of the last plan/mode event whose data the reading (the declared
// values of choices plan-mode-data and plan-mode-malformed) folds, false
// when there is none. Both levels' checks fold with it.
func FoldPlanMode(log []Event, end int, reading spec.PlanModeReading) bool {
	active := false
	for _, e := range log[:max(0, min(end, len(log)))] {
		if e.Type == spec.TypePlanMode {
			if v, ok := reading.Read(e.Data); ok {
				active = v
			}
		}
	}
	return active
}

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
func (m Message) IsPlanNotice() bool { return m.Source.IsPlanNotice() }

// IsPlanNotice reports whether a message of this source is a plan-mode
// notice: sourced by the plan-mode plugin. Both levels' messages (this
// package's and package loop's) ask it, so the test is written once.
func (s Source) IsPlanNotice() bool {
	return s.Kind == "plugin" && s.Plugin == spec.PluginName
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

// TurnEndReason is the reason kind of a turn/end event's data: its
// reason's kind ({kind: …}), or the reason itself when it is a string; ""
// when there is none.
func TurnEndReason(data json.RawMessage) string {
	var d struct {
		Reason json.RawMessage `json:"reason"`
	}
	if json.Unmarshal(data, &d) != nil {
		return ""
	}
	var k struct {
		Kind string `json:"kind"`
	}
	if json.Unmarshal(d.Reason, &k) == nil && k.Kind != "" {
		return k.Kind
	}
	var s string
	_ = json.Unmarshal(d.Reason, &s)
	return s
}

// Log is one agent's durable, append-only session log. Event data lives in
// chunks the log owns (an arena): appending an event copies its canonical
// bytes into the current chunk instead of allocating a slice per event.
// Data slices are capped at their length, so no caller can append into a
// neighbour's bytes.
type Log struct {
	events []Event
	chunk  []byte
}

// Chunk sizes of a log's data arena: the first chunk is small (most logs
// of a check are short), later ones double up to the maximum.
const (
	minChunk = 1 << 10
	maxChunk = 1 << 16
)

// NewLog returns a log holding a copy of events, renumbered from 0.
func NewLog(events []Event) *Log {
	l := &Log{}
	if len(events) > 0 {
		l.events = make([]Event, 0, len(events))
	}
	for _, e := range events {
		l.Append(e.Type, e.Data)
	}
	return l
}

// Append adds an event with the next seq and returns it. Data is stored in
// canonical JSON (sorted keys, no insignificant space) so that equal values
// compare equal byte for byte.
func (l *Log) Append(typ string, data json.RawMessage) Event {
	if len(data) > 0 {
		if out, ok := canonicalBytes(l.reserve(len(data)), data); ok {
			return l.push(typ, out)
		}
	}
	c := Canonical(data) // the slow path: invalid JSON, escaped keys
	return l.push(typ, append(l.reserve(len(c)), c...))
}

// reserve returns the arena's current chunk, with room for about n more
// bytes; the caller appends one event's canonical data to it and hands
// the result to push.
func (l *Log) reserve(n int) []byte {
	if cap(l.chunk)-len(l.chunk) < n || l.chunk == nil {
		l.newChunk(n)
	}
	return l.chunk
}

func (l *Log) newChunk(n int) {
	size := min(max(2*cap(l.chunk), minChunk), maxChunk)
	l.chunk = make([]byte, 0, max(size, 2*n))
}

// push records the event whose data is buf[len(l.chunk):], where buf is
// l.chunk with bytes appended (possibly moved by growing it).
func (l *Log) push(typ string, buf []byte) Event {
	start := len(l.chunk)
	if cap(buf) != cap(l.chunk) && start > 0 {
		// The chunk overflowed: move this event's bytes to a fresh chunk
		// of their own size class rather than keep a copy of the old
		// events' bytes alive.
		data := buf[start:]
		l.newChunk(len(data))
		buf = append(l.chunk, data...)
		start = 0
	}
	l.chunk = buf
	e := Event{Seq: len(l.events), Type: typ, Data: json.RawMessage(buf[start:len(buf):len(buf)])}
	if len(l.events) == cap(l.events) {
		// Double, where append grows a large slice by a quarter: a log
		// of a million events is then copied about once, not four times.
		grown := make([]Event, len(l.events), max(64, 2*cap(l.events)))
		copy(grown, l.events)
		l.events = grown
	}
	l.events = append(l.events, e)
	return e
}

// Len is the number of events.
func (l *Log) Len() int { return len(l.events) }

// Events returns the log's events; callers must not modify them.
func (l *Log) Events() []Event { return l.events }

// Since returns the events from seq n on. The slice is capped, so
// appending to it never writes into the log.
func (l *Log) Since(n int) []Event {
	if n >= len(l.events) {
		return nil
	}
	return l.events[n:len(l.events):len(l.events)]
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
	e := getEncoder(v)
	defer e.put()
	return append(json.RawMessage(nil), e.bytes()...)
}

// JSON encodes v as canonical JSON.
func JSON(v any) json.RawMessage {
	e := getEncoder(v)
	defer e.put()
	return Canonical(e.bytes())
}

// encoder is an encoding/json encoder (HTML escaping off) with its
// buffer, pooled: encoding a value costs no encoder and no buffer growth.
type encoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var encoders = sync.Pool{New: func() any {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// getEncoder returns a pooled encoder holding v's encoding.
func getEncoder(v any) *encoder {
	e := encoders.Get().(*encoder)
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		panic(fmt.Sprintf("sim: encoding %T: %v", v, err)) // only plain data is encoded
	}
	return e
}

// bytes is the encoding, valid until put.
func (e *encoder) bytes() []byte { return bytes.TrimRight(e.buf.Bytes(), "\n") }

func (e *encoder) put() {
	if e.buf.Cap() <= 64<<10 { // a rare huge value does not stay pinned
		encoders.Put(e)
	}
}
