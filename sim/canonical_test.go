package sim

import (
	"bytes"
	"encoding/json"
	"testing"
)

var canonicalCases = []string{
	`null`, `true`, `false`, `0`, `-0`, `1.5e10`, `1E+5`, `-12.25E-3`, `""`, `"a"`,
	`{}`, `[]`, ` { "b" : 1 , "a" : [ 1 , 2 , { "d":null, "c":true } ] } `,
	`{"content":[{"type":"text","text":"go on"}],"role":"user","source":{"kind":"user"}}`,
	`{"header":{"system":[{"name":"runtime:base","order":0,"text":"base"}],"tools":[{"name":"exit_plan_mode"}]},"reason":"resume"}`,
	`"<html> & 'quotes'"`, `"tab\there"`, `"\u00e9\u2028\u2029"`, "\"caf\u00e9 \u2028\"", `"\ud83d\ude00"`,
	`"\/slash"`, `"bad \x"`, "\"ctl \x01\"", "\"\xff invalid\"",
	`{"a":1,"a":2}`, `{"a\u0062":1,"ab":2}`, `{"b":1,"a\n":2}`, `{"é":1,"e":2,"z":3}`,
	`[1,2,]`, `{"a":1,}`, `{"a" 1}`, `01`, `1.`, `-`, `.5`, `1e`, `tru`, `nul`, `[`, `{`, `"`, `1 2`,
	`{"a":[{"b":{"c":[{"d":"e"}]}}]}`, `[[],[[]],{}]`, `{"n":12345678901234567890}`,
}

// The byte-level canonical form equals decoding into any and encoding
// again, for valid and invalid inputs alike.
func TestCanonicalMatchesDecodeEncode(t *testing.T) {
	for _, in := range canonicalCases {
		if got, want := Canonical(json.RawMessage(in)), canonicalSlow(json.RawMessage(in)); !bytes.Equal(got, want) {
			t.Errorf("Canonical(%q) = %q, the decoded value encodes as %q", in, got, want)
		}
	}
}

func FuzzCanonical(f *testing.F) {
	for _, in := range canonicalCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 {
			return
		}
		if got, want := Canonical(in), canonicalSlow(in); !bytes.Equal(got, want) {
			t.Errorf("Canonical(%q) = %q, the decoded value encodes as %q", in, got, want)
		}
	})
}
