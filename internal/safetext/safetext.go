// Package safetext is plankit's one rule for outside text: every byte
// that did not come from plankit itself — an adapter's or runtime's
// replies, error messages and stderr, file names, the contents of traces,
// logs and reports, flag values — is made inert before it leaves the
// program, on a console stream or in a report:
//
//   - it never holds a line break, a control, a bidirectional or invisible
//     (format) character, a non-ASCII space or invalid UTF-8: each is
//     written as an escape (Line), so it can neither add a line, move the
//     cursor, recolour a terminal, reorder what a reader sees, nor break a
//     report's encoding;
//   - it never starts a line: where it could (a file name or a check ID at
//     the head of a line), it is quoted unless it is plain (Quote), and a
//     line plankit writes otherwise starts with plankit's own words;
//   - it never holds a CI log command marker ("##[", "##vso["), which
//     some CI runners read anywhere in a line;
//   - in Markdown it is plain text: no link, image, HTML or emphasis
//     (Markdown).
//
// Line, Quote and Markdown are applied where outside text is put into
// output. Writer is the backstop where output leaves the program: the
// console streams (cmd/plankit wraps stdout and stderr in one) and the
// report files (Bytes) pass through it, so a control, bidirectional or
// invisible character or a CI marker that reached them anyway is escaped
// there; only the line structure, which it cannot tell from plankit's
// own, is left to the places that insert outside text.
package safetext

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Line returns s escaped for use inside one line of output: line breaks,
// tabs, carriage returns and other ASCII controls as \n, \t, \r or \xNN,
// invalid UTF-8 as \xNN, other control, format and separator characters
// (C1 controls, bidirectional overrides and isolates, zero-width
// characters, non-ASCII spaces) as \uNNNN (a character beyond U+FFFF as
// its UTF-16 surrogate pair, \uD8xx\uDCxx), and the first # of a CI log
// command marker ("##[", "##vso[") as \u0023; the \u escapes are also
// valid in a JSON string. Printable text, backslashes included, is
// unchanged, so escaping twice changes nothing more.
func Line(s string) string { return escape(s, false) }

func escape(s string, multiline bool) string {
	if clean(s, multiline) {
		return s
	}
	b, _ := appendEscaped(make([]byte, 0, len(s)+16), s, multiline, true)
	return string(b)
}

// Quote returns outside text that may stand at the head of a line, or
// whose ends must show: as it is when it is plain (letters, digits and
// _ . / - , + = @ % :, beginning with a letter, digit, _, ., / or -: a
// file name or an ID such text cannot turn into a CI command), else quoted
// as a Go string literal (strconv.Quote), so the line starts with the
// quote.
func Quote(s string) string {
	if Plain(s) {
		return s
	}
	return breakMarkers(strconv.Quote(s))
}

// Plain reports whether Quote leaves s as it is: made of letters, digits
// and _ . / - , + = @ % :, beginning with a letter, digit, _, ., / or -.
func Plain(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '.', c == '/', c == '-':
		case i > 0 && strings.IndexByte(",+=@%:", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// breakMarkers escapes the first # of each CI marker in a Go string
// literal (\u0023 is # in it).
func breakMarkers(s string) string {
	if !strings.Contains(s, "##") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && marker(s[i:]) {
			b.WriteString(`\u0023`)
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Markdown returns outside text as inert inline Markdown: escaped as Line
// does, then every ASCII punctuation character but a hyphen, a comma and a
// colon (and a hyphen too at the start) written as a numeric character
// reference (&#91; for [), so that no link, image, autolink, raw HTML,
// emphasis, code span, heading, list, mention or table cell boundary can
// come of it, in CommonMark and GitHub's Markdown alike. Rendered, it
// reads as the text Line gives.
func Markdown(s string) string {
	l := Line(s)
	var b strings.Builder
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c < 0x80 && (unicode.IsPunct(rune(c)) || unicode.IsSymbol(rune(c))) && (c != '-' || i == 0) && c != ',' && c != ':' {
			fmt.Fprintf(&b, "&#%d;", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Bytes returns a whole output plankit composed (a report, a page, a
// JSON document) with every control but line feed and tab, every
// bidirectional or invisible character, non-ASCII space and invalid UTF-8
// escaped and CI markers broken, as Writer does. JSON that encoding/json
// wrote stays valid JSON with the same data: it holds no raw control or
// invalid UTF-8, and the \uNNNN escapes are JSON's own.
func Bytes(p []byte) []byte {
	s := string(p)
	if clean(s, true) {
		return p
	}
	b, _ := appendEscaped(make([]byte, 0, len(p)+16), s, true, true)
	return b
}

// Writer passes what is written to it on, escaped as Bytes does. It
// holds back the end of a write that could be the start of a character or
// of a CI marker completed by the next write, until that write or Flush.
// It is safe for concurrent use.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	pending string
	buf     []byte
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write escapes p and writes it on; it reports len(p) written unless the
// underlying writer failed.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := string(p)
	if w.pending == "" && clean(s, true) {
		// Plain ASCII text without a #: passed on as it is.
		if _, err := w.w.Write(p); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	if w.pending != "" {
		s = w.pending + s
		w.pending = ""
	}
	var n int
	w.buf, n = appendEscaped(w.buf[:0], s, true, false)
	w.pending = s[n:]
	if len(w.buf) > 0 {
		if _, err := w.w.Write(w.buf); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes what Write held back, escaped as the end of the output.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pending == "" {
		return nil
	}
	w.buf, _ = appendEscaped(w.buf[:0], w.pending, true, true)
	w.pending = ""
	_, err := w.w.Write(w.buf)
	return err
}

// appendEscaped appends s escaped to dst (multiline keeps line feeds and
// tabs). Unless atEOF, it stops before an incomplete character or a
// possible start of a CI marker at the end of s; it returns how many bytes
// of s it consumed.
func appendEscaped(dst []byte, s string, multiline, atEOF bool) ([]byte, int) {
	i := 0
	for i < len(s) {
		c := s[i]
		if !atEOF && (c >= 0x80 && !utf8.FullRuneInString(s[i:]) || c == '#' && markerPrefix(s[i:])) {
			return dst, i
		}
		if c == '#' && marker(s[i:]) {
			dst = append(dst, `\u0023`...)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			dst = fmt.Appendf(dst, `\x%02x`, c)
		case (r == '\n' || r == '\t') && multiline:
			dst = append(dst, byte(r))
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r < 0x80 && unsafe(r):
			dst = fmt.Appendf(dst, `\x%02x`, r)
		case unsafe(r) && r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			dst = fmt.Appendf(dst, `\u%04x\u%04x`, hi, lo)
		case unsafe(r):
			dst = fmt.Appendf(dst, `\u%04x`, r)
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst, i
}

// markers are CI log command markers some runners read anywhere in a
// line (GitHub's older "##[command]" form, Azure Pipelines' "##vso[").
var markers = []string{"##[", "##vso["}

func marker(s string) bool {
	for _, m := range markers {
		if strings.HasPrefix(s, m) {
			return true
		}
	}
	return false
}

// markerPrefix: s is shorter than a marker it begins.
func markerPrefix(s string) bool {
	for _, m := range markers {
		if len(s) < len(m) && strings.HasPrefix(m, s) {
			return true
		}
	}
	return false
}

func unsafe(r rune) bool {
	if r == ' ' {
		return false
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) || (unicode.IsSpace(r) && r > 0x7f)
}

// clean: s needs no escaping (an ASCII fast path; any other byte and any
// # are decided character by character).
func clean(s string, multiline bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || c == '#' {
			return false
		}
		if c < 0x20 || c == 0x7f {
			if !multiline || (c != '\n' && c != '\t') {
				return false
			}
		}
	}
	return true
}
