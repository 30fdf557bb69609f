package safetext

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, é and 日本", "plain text, é and 日本"},
		{"red \x1b[31mALERT\x1b[0m", `red \x1b[31mALERT\x1b[0m`},
		{"a\nb\tc", `a\nb\tc`},
		{"boom\n::error file=x::INJECTED", `boom\n::error file=x::INJECTED`},
		{"over\rwrite", `over\rwrite`},
		{"bell\a del\x7f", `bell\x07 del\x7f`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"c1 \u0085 bidi \u202e \u2066 zw \u200b ls \u2028", `c1 \u0085 bidi \u202e \u2066 zw \u200b ls \u2028`},
		{"tag \U000E0041 beyond U+FFFF", `tag \udb40\udc41 beyond U+FFFF`},
		{`already \x1b escaped`, `already \x1b escaped`},
		{"nbsp\u00a0", `nbsp\u00a0`},
		{"##[error]x and ##vso[task.setvariable]y, # ## #[", `\u0023#[error]x and \u0023#vso[task.setvariable]y, # ## #[`},
		{"###[", `#\u0023#[`},
	} {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if Line(Line(tc.in)) != Line(tc.in) {
			t.Errorf("escaping %q twice changes it again", tc.in)
		}
	}
}

// TestLineIsValidInJSON: what Line escapes beyond ASCII is a JSON escape
// of the same character, so escaped text inside a JSON string decodes to
// the original.
func TestLineIsValidInJSON(t *testing.T) {
	in := "bidi \u202e tag \U000E0041 zw \u200b"
	var got string
	if err := json.Unmarshal([]byte(`"`+Line(in)+`"`), &got); err != nil || got != in {
		t.Fatalf("JSON of the escape: %q, %v; want %q", got, err, in)
	}
}

func TestQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"examples/t.yaml", "examples/t.yaml"},
		{"../run-1.jsonl", "../run-1.jsonl"},
		{"pend-5/choice:cancel-pending=keep", "pend-5/choice:cancel-pending=keep"},
		{"::error::INJ", `"::error::INJ"`},
		{"nodir\n::error::INJ/r.json", `"nodir\n::error::INJ/r.json"`},
		{"with space", `"with space"`},
		{"-", "-"},
		{"@x", `"@x"`},
		{"", `""`},
		{"bidi\u202e", `"bidi\u202e"`},
		{"a##[error]b", `"a\u0023#[error]b"`},
	} {
		got := Quote(tc.in)
		if got != tc.want {
			t.Errorf("Quote(%q) = %s, want %s", tc.in, got, tc.want)
		}
		if back, err := strconv.Unquote(got); got != tc.in && (err != nil || back != tc.in) {
			t.Errorf("Quote(%q) = %s does not unquote to it: %q, %v", tc.in, got, back, err)
		}
		if strings.ContainsAny(got, "\n\r\u202e") {
			t.Errorf("Quote(%q) = %q holds a raw break or bidi character", tc.in, got)
		}
	}
}

func TestMarkdown(t *testing.T) {
	in := "![x](https://evil.example/p.png) [t](javascript:alert(1)) <img src=x> `c` *e* | www.evil.example @user\n# h"
	got := Markdown(in)
	for _, live := range []string{"![", "](", "<img", "`", "*e*", "|", "www.", "@user", "\n", "\\n# h", "://"} {
		if strings.Contains(got, live) {
			t.Errorf("Markdown(%q) = %q keeps %q", in, got, live)
		}
	}
	if want := "&#33;&#91;x&#93;"; !strings.HasPrefix(got, want) {
		t.Errorf("Markdown(%q) = %q, want it to begin %q", in, got, want)
	}
}

// TestWriter: a write split anywhere, even inside a character or a
// marker, gives what Bytes gives for the whole.
func TestWriter(t *testing.T) {
	in := "line one\nbidi \u202e\u2066 tab\tcr\r esc \x1b bad \xff end ##vso[x] é\n##[error] tag \U000E0041\xe2"
	want := string(Bytes([]byte(in)))
	for split := 0; split <= len(in); split++ {
		for step := 1; step <= 3; step++ {
			var out bytes.Buffer
			w := NewWriter(&out)
			for i := 0; i < split; i += step {
				w.Write([]byte(in[i:min(i+step, split)]))
			}
			w.Write([]byte(in[split:]))
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if out.String() != want {
				t.Fatalf("split at %d in steps of %d: %q, want %q", split, step, out.String(), want)
			}
		}
	}
	for _, raw := range []string{"\u202e", "\u2066", "\x1b", "\r", "\xff", "##vso[", "##[e"} {
		if strings.Contains(want, raw) {
			t.Errorf("Bytes keeps %q: %q", raw, want)
		}
	}
	if !strings.Contains(want, "line one\nbidi") || !strings.Contains(want, "tab\tcr") {
		t.Errorf("Bytes does not keep line feeds and tabs: %q", want)
	}
}

// TestBytesKeepsJSON: escaping a JSON document encoding/json wrote keeps
// it valid, with the same data.
func TestBytesKeepsJSON(t *testing.T) {
	in := map[string]string{"m": "bidi \u202e\u2066 zw \u200b tag \U000E0041 c1 \u0085 nl \n ##[error] é"}
	data, err := json.MarshalIndent(in, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	safe := Bytes(data)
	var back map[string]string
	if err := json.Unmarshal(safe, &back); err != nil {
		t.Fatalf("%s: %v", safe, err)
	}
	if back["m"] != in["m"] {
		t.Fatalf("data changed: %q, want %q", back["m"], in["m"])
	}
	if bytes.ContainsAny(safe, "\u202e\u2066\u200b\u0085") {
		t.Fatalf("raw bidi or invisible characters kept: %s", safe)
	}
}

func FuzzLine(f *testing.F) {
	for _, s := range []string{"", "a\nb", "\u202e", "##vso[", "\xff", "::error::x", "\U000E0041"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l := Line(s)
		if Line(l) != l {
			t.Fatalf("Line is not idempotent on %q: %q", s, l)
		}
		if strings.ContainsAny(l, "\n\r") || !utf8.ValidString(l) || marker(l) || strings.Contains(l, "##[") || strings.Contains(l, "##vso[") {
			t.Fatalf("Line(%q) = %q", s, l)
		}
		for _, r := range l {
			if unsafe(r) {
				t.Fatalf("Line(%q) = %q keeps %U", s, l, r)
			}
		}
		q := Quote(s)
		if back, err := strconv.Unquote(q); q != s && (err != nil || back != s) {
			t.Fatalf("Quote(%q) = %s: %q, %v", s, q, back, err)
		}
		if strings.HasPrefix(strings.TrimLeft(q, " \t"), ":") || strings.HasPrefix(q, "#") {
			t.Fatalf("Quote(%q) = %s can start a CI command", s, q)
		}
	})
}
