package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
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
}

// Count returns how many entries have level.
func (r *Report) Count(level string) int {
	n := 0
	for _, e := range r.Entries {
		if e.Level == level {
			n++
		}
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
// its session.
func WriteText(w io.Writer, reports []*Report) error {
	var b bytes.Buffer
	for _, r := range reports {
		for _, e := range r.Entries {
			msg := e.Message
			if r.Sessions > 1 && e.Session != "" {
				msg = fmt.Sprintf("[session %s] %s", e.Session, msg)
			}
			switch e.Level {
			case LevelFinding:
				fmt.Fprintf(&b, "%s:%d: %s: %s\n", r.File, e.Line, e.Clause, msg)
			case LevelInfo:
				fmt.Fprintf(&b, "%s:%d: state: %s\n", r.File, e.Line, msg)
			default:
				fmt.Fprintf(&b, "%s:%d: %s: %s\n", r.File, e.Line, e.Level, msg)
			}
		}
		fmt.Fprintf(&b, "%s: %s, %s, %s; %s, %s, %s\n", r.File,
			count(r.Sessions, "session"), count(r.Events, "event"), count(r.Headers, "request header"),
			count(r.Count(LevelFinding), "finding"), count(r.Count(LevelError), "error"), count(r.Count(LevelWarning), "warning"))
	}
	_, err := w.Write(b.Bytes())
	return err
}

// WriteJSON writes reports as one JSON document {"files":[...]}.
func WriteJSON(w io.Writer, reports []*Report) error {
	type doc struct {
		Files []*Report `json:"files"`
		Exit  int       `json:"exit"`
	}
	for _, r := range reports {
		if r.Entries == nil {
			r.Entries = []Entry{}
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc{Files: reports, Exit: Code(reports)}); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
