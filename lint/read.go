package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/plankit/plankit/spec"
)

// packed lists the row types that pack a run of streaming chunks; each
// stands for as many events as it holds texts.
var packed = map[string]bool{"text-chunks": true, "reasoning-chunks": true, "tool-call-chunks": true}

// row is one event line as read.
type row struct {
	line int
	typ  string
	data json.RawMessage
}

// Options adjust the rules to an implementation's declared choices for the
// silent points of the specification.
type Options struct {
	// SectionSource is the implementation's section-source choice: "log"
	// (default) or "pending". With "pending" the plan:policy section shows
	// a selection that is not yet logged (when its append failed), so a
	// header's section is not compared with the log's state.
	SectionSource string
}

// Validate reports an unknown option value.
func (o Options) Validate() error {
	ch, _ := spec.LookupChoice(spec.ChoiceSectionSource)
	if o.SectionSource == "" || ch.Accepts(o.SectionSource) {
		return nil
	}
	return fmt.Errorf("%s %q: want %s", ch.Name, o.SectionSource, strings.Join(ch.ValueNames(), " or "))
}

// File lints the log at path. An unreadable file is a report with one error.
func File(path string, opts Options) *Report {
	b, err := os.ReadFile(path)
	if err != nil {
		return &Report{File: path, Entries: []Entry{{Line: 0, Level: LevelError, Message: fmt.Sprintf("cannot read: %v", err)}}}
	}
	return Bytes(path, b, opts)
}

// Reader lints a log read from r, named name in the report.
func Reader(name string, r io.Reader, opts Options) *Report {
	b, err := io.ReadAll(r)
	if err != nil {
		return &Report{File: name, Entries: []Entry{{Line: 0, Level: LevelError, Message: fmt.Sprintf("cannot read: %v", err)}}}
	}
	return Bytes(name, b, opts)
}

// Bytes lints the log held in b, named name in the report.
func Bytes(name string, b []byte, opts Options) *Report {
	rep := &Report{File: name}
	c := &checker{rep: rep, opts: opts}
	lines := bytes.Split(b, []byte("\n"))
	terminated := len(b) > 0 && b[len(b)-1] == '\n'
	if terminated {
		lines = lines[:len(lines)-1]
	}
	for i, raw := range lines {
		n := i + 1
		last := i == len(lines)-1
		raw = bytes.TrimSuffix(raw, []byte("\r"))
		if len(bytes.TrimSpace(raw)) == 0 {
			c.errorf(n, "empty line (JSONL has one JSON object per line)")
			continue
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil {
			if last && !terminated && i > 0 {
				c.add(Entry{Line: n, Level: LevelWarning, Message: fmt.Sprintf("truncated last line (no newline, not valid JSON: %v); ignored", err)})
				continue
			}
			c.errorf(n, "not a JSON object: %v", err)
			continue
		}
		c.line(n, fields)
	}
	sortEntries(rep.Entries)
	return rep
}

// line reads one parsed line: a session header or an event with its seq.
func (c *checker) line(n int, f map[string]json.RawMessage) {
	var typ string
	if err := json.Unmarshal(f["type"], &typ); err != nil || typ == "" {
		c.errorf(n, `field "type": want a non-empty string, got %s`, show(f["type"]))
		return
	}
	if typ == "session" {
		var id string
		_ = json.Unmarshal(f["id"], &id) // optional
		c.startSession(id)
		return
	}
	data, ok := f["data"]
	if !ok {
		c.errorf(n, `%s: field "data" is missing`, typ)
		return
	}
	if c.s == nil {
		c.add(Entry{Line: n, Level: LevelWarning, Message: `no session header line {"type":"session",...} before the first event; reading one session`})
		c.startSession("")
	}
	count := 1
	seqField := "seq"
	if packed[typ] {
		seqField = "seq0"
		var d struct {
			Texts []json.RawMessage `json:"texts"`
			Dt    []json.RawMessage `json:"dt"`
		}
		if err := json.Unmarshal(data, &d); err != nil || (len(d.Texts) == 0 && len(d.Dt) == 0) {
			c.errorf(n, `%s: data needs a non-empty "texts" or "dt" array`, typ)
			return
		}
		count = max(len(d.Texts), len(d.Dt))
	}
	c.seq(n, typ, f, seqField, count)
	c.rep.Events += count
	c.event(row{line: n, typ: typ, data: data})
}

// seq checks that seq (seq0 for packed rows) is present on every event of
// the session or on none, and 0-based and contiguous when present. A broken
// seq is an error; the event is still checked.
func (c *checker) seq(n int, typ string, f map[string]json.RawMessage, field string, count int) {
	raw, has := f[field]
	if !has && field == "seq0" {
		raw, has = f["seq"]
	}
	s := c.s
	if s.seqMode == 0 {
		s.seqMode = 2
		if has {
			s.seqMode = 1
		}
	}
	if has != (s.seqMode == 1) {
		if has {
			c.errorf(n, "%s: %q present, but earlier events of this session have none", typ, field)
		} else {
			c.errorf(n, "%s: %q missing, but earlier events of this session have it", typ, field)
		}
		return
	}
	if !has {
		return
	}
	var v int
	if err := json.Unmarshal(raw, &v); err != nil || v < 0 {
		c.errorf(n, "%s: %q must be a non-negative integer, got %s", typ, field, show(raw))
		return
	}
	if v != s.nextSeq {
		c.errorf(n, "%s: %s %d, expected %d (seq is 0-based and contiguous; a packed row of k chunks takes k numbers)", typ, field, v, s.nextSeq)
	}
	s.nextSeq = v + count
}

func show(raw json.RawMessage) string {
	if raw == nil {
		return "nothing"
	}
	s := string(raw)
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strings.TrimSpace(s)
}
