package lint

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/plankit/plankit/internal/inputlimit"
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
	// PlanModeData is the implementation's plan-mode-data choice:
	// "fold-active" (default: a plan/mode with a boolean active folds to
	// it whatever other fields its data has) or "exact" (only data that is
	// exactly {active: boolean} folds).
	PlanModeData string
	// PlanModeMalformed is the implementation's plan-mode-malformed
	// choice: "either" (default: what a plan/mode with no boolean active
	// does is not judged, so nothing is inferred from the state after one
	// until a header or a plan/mode shows it), "keep" (it changes
	// nothing) or "truthy" (the state becomes the truthiness of its
	// active).
	PlanModeMalformed string
	// UnloadedHeader is the implementation's unloaded-header choice: which
	// state a request/header logged while plan mode was not composed (no
	// plan:policy, no exit_plan_mode) described, for STEP-6. "either"
	// (default) judges a notice after such a header by every reading: it
	// is due when one of them makes it due; "fold", "shown" or "skipped"
	// by that one.
	UnloadedHeader string
	// SentAfter, when not nil, are the lines after which a request was
	// seen sent (a runtime-level check observes them; a recording alone
	// does not). The rules then judge whether a step sent its request by
	// these, not by a logged request/header: a step that appended plan/mode
	// and sent a request without logging its header is not a step that
	// sent none (STEP-3) but a header missing for a request sent (the
	// glossary's request header, which STEP-6 reads).
	SentAfter []int
	// Limits bound what is read; zero means inputlimit.Log.
	Limits inputlimit.Limits
	// MaxEntries is how many entries a report keeps (0: DefaultMaxEntries);
	// the others are counted in Report.Omitted.
	MaxEntries int
}

// malformedNotJudged reports whether what a plan/mode with no boolean
// active does is not judged (plan-mode-malformed=either, the default).
func (o Options) malformedNotJudged() bool {
	return o.PlanModeMalformed == "" || o.PlanModeMalformed == spec.PlanModeMalformedEither
}

func (o Options) maxEntries() int {
	if o.MaxEntries <= 0 {
		return DefaultMaxEntries
	}
	return o.MaxEntries
}

func (o Options) limits() inputlimit.Limits {
	if o.Limits == (inputlimit.Limits{}) {
		return inputlimit.Log
	}
	return o.Limits
}

// Validate reports an unknown option value.
func (o Options) Validate() error {
	for _, o := range []struct{ name, v string }{{spec.ChoiceSectionSource, o.SectionSource}, {spec.ChoicePlanModeData, o.PlanModeData}, {spec.ChoicePlanModeMalformed, o.PlanModeMalformed}, {spec.ChoiceUnloadedHeader, o.UnloadedHeader}} {
		ch, _ := spec.LookupChoice(o.name)
		if v := o.v; v != "" && !ch.Accepts(v) {
			return fmt.Errorf("%s %q: want %s", ch.Name, v, strings.Join(ch.ValueNames(), " or "))
		}
	}
	return nil
}

// File lints the log at path. An unreadable file is a report with one error.
func File(path string, opts Options) *Report {
	f, err := os.Open(path)
	if err != nil {
		return &Report{File: path, Entries: []Entry{{Line: 0, Level: LevelError, Message: fmt.Sprintf("cannot read: %v", err)}}}
	}
	defer f.Close()
	return Reader(path, f, opts)
}

// Bytes lints the log held in b, named name in the report.
func Bytes(name string, b []byte, opts Options) *Report {
	return Reader(name, bytes.NewReader(b), opts)
}

// Reader lints a log read from r, named name in the report. The log is read
// one line at a time, so memory does not grow with its size; the bounds in
// opts.Limits (inputlimit.Log when zero) end the read with an error naming
// the line and the flag that raises the bound.
func Reader(name string, r io.Reader, opts Options) *Report {
	lim := opts.limits()
	rep := &Report{File: name}
	c := &checker{rep: rep, opts: opts}
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		buf   []byte
		total int64
		over  bool // the current line passed the line bound
	)
	for n := 1; ; {
		chunk, err := br.ReadSlice('\n')
		total += int64(len(chunk))
		if total > lim.Bytes {
			c.errorf(n, "%s", inputlimit.Exceeded("bytes", lim.Bytes, inputlimit.FlagBytes))
			break
		}
		if !over {
			if len(buf)+len(chunk) > lim.Line+1 {
				// Said at once; the rest of the line is read and dropped.
				over, buf = true, buf[:0]
				c.errorf(n, "line of %s", inputlimit.Exceeded("bytes", int64(lim.Line), inputlimit.FlagLine))
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			c.errorf(n, "cannot read: %v", err)
			break
		}
		terminated := len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
		if total == 0 || (!terminated && len(buf) == 0 && !over) {
			break // the end
		}
		switch {
		case over:
		case c.rep.Events >= lim.Records:
			c.errorf(n, "%s", inputlimit.Exceeded("events", int64(lim.Records), inputlimit.FlagEvents))
			sortEntries(rep.Entries)
			return rep
		default:
			c.raw(n, bytes.TrimSuffix(bytes.TrimSuffix(buf, []byte("\n")), []byte("\r")), !terminated)
		}
		if !terminated {
			break
		}
		n++
		buf, over = buf[:0], false
	}
	sortEntries(rep.Entries)
	return rep
}

// raw reads one line; last reports an unterminated last line.
func (c *checker) raw(n int, raw []byte, last bool) {
	if len(bytes.TrimSpace(raw)) == 0 {
		c.errorf(n, "empty line (JSONL has one JSON object per line)")
		return
	}
	if line, col, ok := inputlimit.InvalidUTF8(raw); !ok && line == 1 {
		c.errorf(n, "column %d: %s", col, inputlimit.UTF8Message)
		return
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		if last && n > 1 {
			c.add(Entry{Line: n, Level: LevelWarning, Message: fmt.Sprintf("truncated last line (no newline, not valid JSON: %v); ignored", err)})
			return
		}
		c.errorf(n, "not a JSON object: %v", err)
		return
	}
	c.line(n, fields)
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
