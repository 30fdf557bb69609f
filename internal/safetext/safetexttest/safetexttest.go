// Package safetexttest checks outputs against the rule of package
// safetext, for tests and fuzz targets: it looks for what outside text must
// never leave in an output, by Unicode category, independently of how
// safetext escapes.
package safetexttest

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Problems lists, for the output data named what, every line that breaks
// the rule: a line (its leading blanks aside, as CI runners read them)
// that starts with "::" (a workflow command, which only outside text can
// spell), a raw control but tab, a bidirectional or invisible (format)
// character, a line or paragraph separator, a non-ASCII space, invalid
// UTF-8, a CI marker ("##[", "##vso[").
func Problems(what string, data []byte) []string {
	var out []string
	for n, line := range strings.Split(string(data), "\n") {
		at := fmt.Sprintf("%s:%d", what, n+1)
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
			out = append(out, fmt.Sprintf("%s: a line starts with outside text: %q", at, clip(line)))
		}
		if !utf8.ValidString(line) {
			out = append(out, fmt.Sprintf("%s: invalid UTF-8: %q", at, clip(line)))
			continue
		}
		if r, bad := Raw(line); bad {
			out = append(out, fmt.Sprintf("%s: raw %U: %q", at, r, clip(line)))
		}
		if strings.Contains(line, "##[") || strings.Contains(line, "##vso[") {
			out = append(out, fmt.Sprintf("%s: a CI marker: %q", at, clip(line)))
		}
	}
	return out
}

// Raw returns the first character of s that must not reach an output raw
// (a control but tab and line feed, a format, line or paragraph separator
// character, a non-ASCII space), if any.
func Raw(s string) (rune, bool) {
	for _, r := range s {
		if r == '\t' || r == '\n' || r == ' ' {
			continue
		}
		if unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Zs) {
			return r, true
		}
	}
	return 0, false
}

// OneLine returns why the text of an error, which is printed on one line,
// breaks the rule: a line break, or what Problems finds; "" when it is
// inert.
func OneLine(msg string) string {
	if strings.ContainsAny(msg, "\n\r") {
		return fmt.Sprintf("a line break in %q", clip(msg))
	}
	if !utf8.ValidString(msg) {
		return fmt.Sprintf("invalid UTF-8 in %q", clip(msg))
	}
	if r, bad := Raw(msg); bad {
		return fmt.Sprintf("raw %U in %q", r, clip(msg))
	}
	return ""
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
