// Package safetext makes text that came from outside plankit (an adapter's
// stderr, its replies, its error messages) safe to print on a terminal
// and to put in a report: control bytes and invalid UTF-8 are shown as
// escapes, so they can neither move the cursor, recolour the terminal,
// rewrite a line already printed, nor break a report's encoding.
package safetext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape returns s with every byte that is not printable text written as
// an escape: invalid UTF-8 and ASCII controls as \xNN (\r as \r), other
// control, format and separator characters (C1 controls, bidirectional
// overrides, zero-width characters) as \uNNNN. Newlines and tabs are kept
// unless multiline is false. Printable text, backslashes included, is
// unchanged, so escaping twice changes nothing more.
func Escape(s string, multiline bool) string {
	if clean(s, multiline) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && multiline, r == '\t' && multiline:
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80 && unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Line escapes s for one line of output: newlines become \n too.
func Line(s string) string { return Escape(s, false) }

// Text escapes s keeping its line breaks and tabs.
func Text(s string) string { return Escape(s, true) }

func unsafe(r rune) bool {
	if r == ' ' {
		return false
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) || (unicode.IsSpace(r) && r > 0x7f)
}

func clean(s string, multiline bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return false // decide rune by rune
		}
		if c < 0x20 || c == 0x7f {
			if !multiline || (c != '\n' && c != '\t') {
				return false
			}
		}
	}
	return true
}
