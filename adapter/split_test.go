package adapter

import (
	"bytes"
	"encoding/json"
	"testing"
)

var requestLines = []string{
	`{"seq":1,"method":"get","params":{"agent":"main"}}`,
	`{"seq":0,"method":"stop","params":{}}`,
	`{"seq":12,"method":"preStep","params":{"agent":"a","messages":[],"downstream":{"kind":"enter"}}}`,
	`{"seq":3,"method":"get","params":null}`,
	`{"seq":3,"method":"get","params": {"agent":"main"} }`,
	`{"seq":007,"method":"get","params":{}}`,
	`{"seq":-1,"method":"get","params":{}}`,
	`{"seq":1.5,"method":"get","params":{}}`,
	`{"seq":123456789012345678901,"method":"get","params":{}}`,
	`{"seq":1,"method":"g\u0065t","params":{}}`,
	`{"seq":1,"method":"get","params":{"agent":}}`,
	`{"seq":1,"method":"get","params":{}`,
	`{"seq":1,"method":"get","params":{}}}`,
	`{"seq":1,"method":"get","params":{},"seq":2}`,
	`{"method":"get","seq":1,"params":{}}`,
	`{"seq":1,"method":"get","params":}`,
	`{"seq":1,"method":"get","params":"x"}`,
}

// A request line framed as the kit frames it reads the same as the
// general decoding reads it; any other line is left to the general
// decoding.
func TestSplitRequestMatchesDecoding(t *testing.T) {
	for _, line := range requestLines {
		checkSplit(t, []byte(line))
	}
	if _, ok := splitRequest([]byte(requestLines[0])); !ok {
		t.Error("the kit's own framing is not split")
	}
}

func FuzzSplitRequest(f *testing.F) {
	for _, line := range requestLines {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, line []byte) { checkSplit(t, line) })
}

func checkSplit(t *testing.T, line []byte) {
	t.Helper()
	got, ok := splitRequest(line)
	if !ok {
		return
	}
	var want Request
	if err := json.Unmarshal(line, &want); err != nil {
		t.Fatalf("%s split as %+v, but it does not decode: %v", line, got, err)
	}
	if got.Seq != want.Seq || got.Method != want.Method || !bytes.Equal(bytes.TrimSpace(got.Params), want.Params) {
		t.Fatalf("%s split as seq %d method %q params %s; decoded as seq %d method %q params %s", line, got.Seq, got.Method, got.Params, want.Seq, want.Method, want.Params)
	}
}
