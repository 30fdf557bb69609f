package safetext

import "testing"

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, text, line string }{
		{"plain text, é and 日本", "plain text, é and 日本", "plain text, é and 日本"},
		{"red \x1b[31mALERT\x1b[0m", `red \x1b[31mALERT\x1b[0m`, `red \x1b[31mALERT\x1b[0m`},
		{"a\nb\tc", "a\nb\tc", `a\nb\tc`},
		{"over\rwrite", `over\rwrite`, `over\rwrite`},
		{"bell\a del\x7f", `bell\x07 del\x7f`, `bell\x07 del\x7f`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`, `bad \xff\xfe utf8`},
		{"c1 \u0085 bidi \u202e zw \u200b ls \u2028", `c1 \u0085 bidi \u202e zw \u200b ls \u2028`, `c1 \u0085 bidi \u202e zw \u200b ls \u2028`},
		{`already \x1b escaped`, `already \x1b escaped`, `already \x1b escaped`},
		{"nbsp\u00a0", `nbsp\u00a0`, `nbsp\u00a0`},
	} {
		if got := Text(tc.in); got != tc.text {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.text)
		}
		if got := Line(tc.in); got != tc.line {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.line)
		}
		if Text(Text(tc.in)) != Text(tc.in) {
			t.Errorf("escaping %q twice changes it again", tc.in)
		}
	}
}
