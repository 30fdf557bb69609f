package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/plankit/plankit/internal/safetext"
)

// Levels of a report entry.
const (
	// LevelError is input the linter cannot read: a malformed line, a broken
	// seq, an unreadable file.
	LevelError = "error"
	// LevelFinding is a rule of the specification the log breaks.
	LevelFinding = "finding"
	// LevelWarning is input the linter tolerates: a truncated last line.
	LevelWarning = "warning"
	// LevelInfo is the plan state at a request header.
	LevelInfo = "info"
)

// Entry is one line of a report.
type Entry struct {
	Line   int    `json:"line"`
	Level  string `json:"level"`
	Clause string `json:"clause,omitempty"`
	// Rule is the ID of the rule that found it (attribution.Checks).
	Rule    string `json:"rule,omitempty"`
	Session string `json:"session,omitempty"`
	Message string `json:"message"`
	// Active is the plan state at a request header (info entries).
	Active *bool `json:"active,omitempty"`
}

// Report is the result of linting one file.
type Report struct {
	File     string  `json:"file"`
	Sessions int     `json:"sessions"`
	Events   int     `json:"events"`
	Headers  int     `json:"headers"`
	Entries  []Entry `json:"entries"`
	// Omitted counts, by level, the entries left out of Entries once it
	// held Options.MaxEntries (DefaultMaxEntries): a report's memory is
	// bounded whatever the log holds; the counts still say everything.
	Omitted map[string]int `json:"omitted,omitempty"`
}

// DefaultMaxEntries is how many entries a report keeps; the rest are
// counted in Report.Omitted.
const DefaultMaxEntries = 10_000

// Count returns how many entries have level, those left out included.
func (r *Report) Count(level string) int {
	n := r.Omitted[level]
	for _, e := range r.Entries {
		if e.Level == level {
			n++
		}
	}
	return n
}

// omitted is how many entries were left out.
func (r *Report) omitted() int {
	n := 0
	for _, c := range r.Omitted {
		n += c
	}
	return n
}

// Findings returns the finding entries.
func (r *Report) Findings() []Entry { return r.filter(LevelFinding) }

// States returns the info entries: the plan state at each request header.
func (r *Report) States() []Entry { return r.filter(LevelInfo) }

func (r *Report) filter(level string) []Entry {
	var out []Entry
	for _, e := range r.Entries {
		if e.Level == level {
			out = append(out, e)
		}
	}
	return out
}

// Clauses returns the distinct clauses of the findings, sorted.
func (r *Report) Clauses() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range r.Findings() {
		if !seen[e.Clause] {
			seen[e.Clause] = true
			out = append(out, e.Clause)
		}
	}
	sort.Strings(out)
	return out
}

// Exit codes of a lint run, matching plankit's.
const (
	ExitClean    = 0 // no findings, no errors
	ExitFindings = 1 // a rule is broken
	ExitInput    = 2 // some input could not be read
)

// Code is the exit code for reports: 2 when any has an error, 1 when any
// has a finding, else 0. Warnings and info lines do not count.
func Code(reports []*Report) int {
	code := ExitClean
	for _, r := range reports {
		if r.Count(LevelError) > 0 {
			return ExitInput
		}
		if r.Count(LevelFinding) > 0 {
			code = ExitFindings
		}
	}
	return code
}

// WriteText writes reports as lines "file:line: CLAUSE: message" (findings),
// "file:line: state: ..." (info), "file:line: error|warning: ..." and a
// summary line per file. In a file of several sessions each message names
// its session. File names are escaped as outside text (a name holding a
// newline cannot add a line).
func WriteText(w io.Writer, reports []*Report) error {
	for _, r := range reports {
		if err := writeText(w, r); err != nil {
			return err
		}
	}
	return nil
}

func writeText(w io.Writer, r *Report) error {
	var b bytes.Buffer
	// The file's name heads every line: quoted unless plain, so that a
	// name like "::error::x" cannot make the line a CI command.
	file := safetext.Quote(r.File)
	for _, e := range r.Entries {
		msg := safetext.Line(e.Message)
		if r.Sessions > 1 && e.Session != "" {
			msg = fmt.Sprintf("[session %s] %s", safetext.Line(e.Session), msg)
		}
		switch e.Level {
		case LevelFinding:
			fmt.Fprintf(&b, "%s:%d: %s: %s\n", file, e.Line, e.Clause, msg)
		case LevelInfo:
			fmt.Fprintf(&b, "%s:%d: state: %s\n", file, e.Line, msg)
		default:
			fmt.Fprintf(&b, "%s:%d: %s: %s\n", file, e.Line, e.Level, msg)
		}
	}
	if n := r.omitted(); n > 0 {
		fmt.Fprintf(&b, "%s: %d more entries left out (a report keeps the first %d; the counts below include them all)\n", file, n, len(r.Entries))
	}
	fmt.Fprintf(&b, "%s: %s, %s, %s; %s, %s, %s\n", file,
		count(r.Sessions, "session"), count(r.Events, "event"), count(r.Headers, "request header"),
		count(r.Count(LevelFinding), "finding"), count(r.Count(LevelError), "error"), count(r.Count(LevelWarning), "warning"))
	_, err := w.Write(b.Bytes())
	return err
}

// WriteJSON writes reports as one JSON document {"files":[...],"exit":N}.
func WriteJSON(w io.Writer, reports []*Report) error {
	s := NewStream(w, "json")
	for _, r := range reports {
		if err := s.Write(r); err != nil {
			return err
		}
	}
	return s.Close()
}

// Stream writes reports one at a time, as WriteText or WriteJSON would
// write them all, so a run over many logs keeps none it has written. It
// also keeps the exit code of the reports written (Code).
type Stream struct {
	w      io.Writer
	json   bool
	n      int
	code   int
	counts map[string]int
}

// NewStream writes reports to w in format text or json.
func NewStream(w io.Writer, format string) *Stream {
	return &Stream{w: w, json: format == "json", counts: map[string]int{}}
}

// Write writes one report.
func (s *Stream) Write(r *Report) error {
	s.code = max(s.code, Code([]*Report{r}))
	for _, l := range []string{LevelError, LevelFinding, LevelWarning} {
		s.counts[l] += r.Count(l)
	}
	if !s.json {
		s.n++
		return writeText(s.w, r)
	}
	if r.Entries == nil {
		r.Entries = []Entry{}
	}
	var b bytes.Buffer
	if s.n == 0 {
		b.WriteString("{\n  \"files\": [")
	} else {
		b.WriteString(",")
	}
	b.WriteString("\n    ")
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("    ", "  ")
	if err := enc.Encode(r); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	s.n++
	// The log's text with JSON's own escapes for what must not reach an
	// output raw (bidirectional and invisible characters): the same data.
	_, err := s.w.Write(safetext.Bytes(b.Bytes()))
	return err
}

// Close ends the document (json); text needs no end.
func (s *Stream) Close() error {
	if !s.json {
		return nil
	}
	end := fmt.Sprintf("\n  ],\n  \"exit\": %d\n}\n", s.code)
	if s.n == 0 {
		end = fmt.Sprintf("{\n  \"files\": [],\n  \"exit\": %d\n}\n", s.code)
	}
	_, err := io.WriteString(s.w, end)
	return err
}

// Code is the exit code of the reports written so far (see Code).
func (s *Stream) Code() int { return s.code }

// Count is how many entries of level the reports written so far have.
func (s *Stream) Count(level string) int { return s.counts[level] }

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
