package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
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

// Log is one agent's durable, append-only session log.
//
// Its storage is made for logs that grow without end: nothing is copied as
// the log grows and the collector has little to scan.
//   - Event data lives in chunks the log owns (an arena): appending an
//     event copies its canonical bytes into the current chunk instead of
//     allocating a slice per event. Data slices are capped at their
//     length, so no caller can append into a neighbour's bytes.
//   - Each event is a pointer-free record (its type's number, its data's
//     chunk and span), in blocks of fixed size that never move.
//   - Since (every port call's Call.Sync) builds the Events it hands out
//     in a shared array, one call's after the other's, and Events builds
//     the whole log as Events once, extending it on later calls.
type Log struct {
	n      int
	blocks [][]record
	// types are the log's event types, each once; a record holds its
	// type's index (typeIndex finds it once there are many).
	types     []string
	typeIndex map[string]uint32
	// chunks are the data arena's chunks, each at its full capacity; chunk
	// is the last one, with its length the bytes used.
	chunks [][]byte
	chunk  []byte
	// scratch is where an event's canonical data is written when the
	// current chunk has too little room left (reused event after event).
	scratch []byte
	// synced holds the events Since handed out, one after the other in
	// its array, which is never written again where it was handed out.
	synced []Event
	// all is Events' copy of the log's first len(all) events.
	all []Event
}

// record is one event of a log, without pointers: its type's index in
// Log.types and its data's span in chunk Log.chunks[chunk].
type record struct {
	chunk, off, size, typ uint32
}

// Sizes of a log's storage: records come in blocks of blockSize; the
// arena's first chunk is small (most logs of a check are short), later
// ones double up to the maximum, and an event's data is written straight
// into the chunk when it has minRoom bytes left; Since's arrays hold
// syncSize events (480 bytes: the allocator's fast path).
const (
	blockShift = 10
	blockSize  = 1 << blockShift
	minChunk   = 1 << 10
	maxChunk   = 1 << 16
	minRoom    = 1 << 9
	syncSize   = 10
)

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
	if len(data) > 0 {
		if out, ok := canonicalBytes(l.buf(), data); ok {
			return l.push(typ, out)
		}
	}
	return l.push(typ, Canonical(data)) // the slow path: invalid JSON, escaped keys
}

// buf returns an empty buffer for one event's canonical data: the room
// left in the arena's current chunk, or the scratch buffer when the chunk
// is nearly full. The caller appends the data to it and hands the result
// to push.
func (l *Log) buf() []byte {
	if cap(l.chunk)-len(l.chunk) >= minRoom {
		return l.chunk[len(l.chunk):len(l.chunk)]
	}
	return l.scratch[:0]
}

// push appends the event whose canonical data is data and returns it.
// data is what buf returned, appended to, or a slice no one else holds:
// data written in place in the arena is kept there, any other is copied
// into it (the log may keep a slice that is not its chunk as its scratch
// buffer).
func (l *Log) push(typ string, data []byte) Event {
	end := len(l.chunk) + len(data)
	if len(data) == 0 || end > cap(l.chunk) || &l.chunk[:end][len(l.chunk)] != &data[0] {
		// Not written in place: copied into the arena.
		if cap(data) > cap(l.scratch) && cap(data) <= maxChunk {
			l.scratch = data[:0] // keep the grown buffer for the next event
		}
		if cap(l.chunk)-len(l.chunk) < len(data) || l.chunk == nil {
			size := min(max(2*cap(l.chunk), minChunk), maxChunk)
			l.chunk = make([]byte, 0, max(size, len(data)))
			l.chunks = append(l.chunks, l.chunk[:cap(l.chunk)])
		}
		end = len(l.chunk) + len(data)
		copy(l.chunk[len(l.chunk):end], data)
	}
	off := len(l.chunk)
	l.chunk = l.chunk[:end]
	rec := record{chunk: uint32(len(l.chunks) - 1), off: uint32(off), size: uint32(len(data)), typ: l.typeOf(typ)}
	if l.n&(blockSize-1) == 0 {
		l.blocks = append(l.blocks, make([]record, 0, blockSize))
	}
	b := &l.blocks[len(l.blocks)-1]
	*b = append(*b, rec)
	l.n++
	return l.event(l.n-1, rec)
}

// typeOf is the index of typ in l.types, added if new.
func (l *Log) typeOf(typ string) uint32 {
	if l.typeIndex == nil {
		for i, t := range l.types {
			if t == typ {
				return uint32(i)
			}
		}
	} else if i, ok := l.typeIndex[typ]; ok {
		return i
	}
	i := uint32(len(l.types))
	l.types = append(l.types, typ)
	if l.typeIndex != nil {
		l.typeIndex[typ] = i
	} else if len(l.types) > 32 {
		// Many types: index them rather than search.
		l.typeIndex = make(map[string]uint32, 2*len(l.types))
		for j, t := range l.types {
			l.typeIndex[t] = uint32(j)
		}
	}
	return i
}

// event is the event with seq i and record rec.
func (l *Log) event(i int, rec record) Event {
	c, end := l.chunks[rec.chunk], rec.off+rec.size
	return Event{Seq: i, Type: l.types[rec.typ], Data: json.RawMessage(c[rec.off:end:end])}
}

func (l *Log) record(i int) record { return l.blocks[i>>blockShift][i&(blockSize-1)] }

// Type is the type of the event with seq i.
func (l *Log) Type(i int) string { return l.types[l.record(i).typ] }

// Len is the number of events.
func (l *Log) Len() int { return l.n }

// Events returns the log's events; callers must not modify them. The
// slice is capped, so appending to it never writes into the log's copy.
func (l *Log) Events() []Event {
	for i := len(l.all); i < l.n; i++ {
		l.all = append(l.all, l.event(i, l.record(i)))
	}
	return l.all[:l.n:l.n]
}

// Copy returns the log's events in a new slice.
func (l *Log) Copy() []Event {
	if l.n == 0 {
		return nil
	}
	if len(l.all) == l.n {
		return slices.Clone(l.all)
	}
	out := make([]Event, l.n)
	for i := range out {
		out[i] = l.event(i, l.record(i))
	}
	return out
}

// Since returns the events from seq n on. The slice is capped, so
// appending to it never writes into the log, and never changes: the
// caller may keep it.
func (l *Log) Since(n int) []Event {
	n = max(n, 0)
	if n >= l.n {
		return nil
	}
	if l.n-n > cap(l.synced)-len(l.synced) {
		l.synced = make([]Event, 0, max(syncSize, l.n-n))
	}
	start := len(l.synced)
	for i := n; i < l.n; i++ {
		l.synced = append(l.synced, l.event(i, l.record(i)))
	}
	return l.synced[start:len(l.synced):len(l.synced)]
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
