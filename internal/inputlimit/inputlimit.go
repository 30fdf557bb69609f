// Package inputlimit declares the bounds plankit puts on what it reads —
// trace files, session logs, expected-failure manifests, protocol lines —
// so that no input, however small or crafted, makes a command use
// unbounded memory or time. Each bound has a default per kind of input and
// a --max-input-* flag to raise it; an input over a bound is an input error
// (exit 2) that names the file, the line and the bound.
package inputlimit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// Limits bounds one kind of input. A zero field means "no bound" only in
// code that builds Limits by hand; the defaults below set every field that
// applies to their kind.
type Limits struct {
	// Bytes is the size of one input file.
	Bytes int64
	// Line is the length of one line, in bytes, of a line-oriented input.
	Line int
	// Depth is the nesting of YAML collections (mappings and sequences).
	Depth int
	// Nodes is the number of YAML nodes (scalars and collections), each
	// alias counted as the nodes it expands to.
	Nodes int
	// Records is the number of actions in a trace (steps in a runtime
	// trace), events in a session log or entries in a manifest.
	Records int
	// Transcript bounds what a runtime trace asks its runtime to carry:
	// the messages of all the model requests of one run, summed over the
	// requests, each message counted as its text's bytes plus
	// MessageOverhead. A turn resends the whole transcript, so this grows
	// with the square of a trace's length, not with its size.
	Transcript int64
}

// MessageOverhead is what one message of a model request counts toward
// Limits.Transcript besides its text: about what it costs to hold and to
// print as JSON.
const MessageOverhead = 192

// The defaults. Each keeps the peak memory of one command below 256 MB for
// any input (docs/reliability.md has the measurements).
var (
	// Trace bounds a trace file (plankit sim, counterexamples read back)
	// and a runtime trace (plankit sim --level runtime), whose run is also
	// bounded by Transcript.
	Trace = Limits{Bytes: 1 << 20, Depth: 64, Nodes: 100_000, Records: 5_000, Transcript: 16 << 20}
	// Log bounds a session log (plankit lint).
	Log = Limits{Bytes: 128 << 20, Line: 1 << 20, Records: 2_000_000}
	// Manifest bounds an expected-failure manifest (plankit check --expect).
	Manifest = Limits{Bytes: 1 << 20, Line: 4096, Records: 10_000}
	// Report bounds a plankit JSON report read back (plankit compare): a
	// full check's report is under 1 MB.
	Report = Limits{Bytes: 16 << 20}
)

// Flag names, one per bound, the same on every command that has it.
const (
	FlagBytes   = "--max-input-bytes"
	FlagLine    = "--max-input-line"
	FlagDepth   = "--max-input-depth"
	FlagNodes   = "--max-input-nodes"
	FlagActions = "--max-input-actions"
	FlagEvents  = "--max-input-events"
	FlagEntries = "--max-input-entries"
	// FlagTranscript raises Limits.Transcript.
	FlagTranscript = "--max-input-transcript"
)

// Exceeded says that an input went over a bound: what was counted, the
// bound, and the flag that raises it.
func Exceeded(what string, limit int64, flag string) string {
	return fmt.Sprintf("more than %d %s (the limit; raise it with %s)", limit, what, flag)
}

// ErrTooLarge is wrapped by ReadFile's error for a file over its byte bound.
var ErrTooLarge = errors.New("input too large")

// TooLargeError is a file over its byte bound; Line is the line the bound
// was reached on.
type TooLargeError struct {
	File  string
	Line  int
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, Exceeded("bytes", e.Limit, FlagBytes))
}

// Unwrap makes errors.Is(err, ErrTooLarge) hold.
func (e *TooLargeError) Unwrap() error { return ErrTooLarge }

// ReadFile reads at most limit bytes of path; a longer file is a
// *TooLargeError and is never read further.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(path, f, limit)
}

// Read reads at most limit bytes of r, named name in errors.
func Read(name string, r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{File: name, Line: bytes.Count(data[:limit], []byte("\n")) + 1, Limit: limit}
	}
	return data, nil
}

// InvalidUTF8 returns the line and column (1-based, in bytes) of the first
// byte of data that is not valid UTF-8, or ok true when all of it is.
func InvalidUTF8(data []byte) (line, col int, ok bool) {
	if utf8.Valid(data) {
		return 0, 0, true
	}
	line, start := 1, 0
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return line, i - start + 1, false
		}
		if data[i] == '\n' {
			line, start = line+1, i+1
		}
		i += n
	}
	return 0, 0, true
}

// UTF8Message is the message for invalid UTF-8.
const UTF8Message = "invalid UTF-8 (input must be UTF-8 text)"
