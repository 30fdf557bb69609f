package adapter_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/plankit/plankit/adapter"
)

// Every example line of docs/adapter-protocol.md is valid under the
// strict schemas: requests as requests, replies as replies to the request
// with the same seq before them.
func TestDocumentedLinesMatchTheSchemas(t *testing.T) {
	checkDocumentedLines(t, "docs/adapter-protocol.md", adapter.ValidateRequest, adapter.ValidateReply, 20)
}

// The schemas reject what they must: a sample of wrong messages.
func TestSchemasRejectWrongMessages(t *testing.T) {
	requests := []string{
		`{"seq":0,"method":"get","params":{"agent":"main"}}`,
		`{"seq":1,"method":"teleport","params":{}}`,
		`{"seq":1,"method":"get","params":{}}`,
		`{"seq":1,"method":"set","params":{"agent":"main"}}`,
		`{"seq":1,"method":"open","params":{"agent":"main","events":[{"seq":0,"type":"x"}]}}`,
	}
	for _, r := range requests {
		if adapter.ValidateRequest([]byte(r)) == nil {
			t.Errorf("request accepted: %s", r)
		}
	}
	replies := []struct{ method, line string }{
		{"get", `{"seq":1}`},
		{"get", `{"seq":1,"result":{"active":true},"error":{"message":"x"}}`},
		{"get", `{"seq":1,"result":{"active":"yes"}}`},
		{"get", `{"seq":1,"result":{}}`},
		{"set", `{"seq":1,"result":{"outcome":"done"}}`},
		{"preStep", `{"seq":1,"result":{"effects":[]}}`},
		{"preStep", `{"seq":1,"result":{"decision":{"kind":"enter"},"effects":[{"kind":"append","type":"plan/mode"}]}}`},
		{"preStep", `{"seq":1,"result":{"decision":{"kind":"enter"},"effects":[{"kind":"steer"}]}}`},
		{"assemble", `{"seq":1,"result":{"sections":[{"name":"plan:policy","text":"x"}],"tools":[]}}`},
		{"start", `{"seq":1,"result":{"protocol":2,"name":"x","version":"1","language":"go","capabilities":{"commands":true,"userQuestions":true,"fork":true,"reload":true}}}`},
		{"command", `{"seq":1,"result":{"kind":"success"}}`},
		{"get", `{"seq":1,"error":{}}`},
	}
	for _, r := range replies {
		if adapter.ValidateReply(r.method, []byte(r.line)) == nil {
			t.Errorf("%s reply accepted: %s", r.method, r.line)
		}
	}
	if err := adapter.ValidateReply("get", []byte(`{"seq":1,"result":{"active":true,"pending":false}}`)); err != nil {
		t.Errorf("valid get reply rejected: %v", err)
	}
}

// Every example line of docs/runtime-protocol.md is valid under the strict
// runtime-protocol schemas.
func TestRuntimeProtocolDocumentedLinesMatchTheSchemas(t *testing.T) {
	checkDocumentedLines(t, "docs/runtime-protocol.md", adapter.ValidateRuntimeRequest, adapter.ValidateRuntimeReply, 10)
}

// checkDocumentedLines validates every example line of the protocol page
// doc (a path from the repository root): "> {" lines as requests, "< {"
// lines as replies to the request with the same seq before them; the page
// must show at least least example lines.
func checkDocumentedLines(t *testing.T, doc string, request func([]byte) error, reply func(method string, raw []byte) error, least int) {
	t.Helper()
	data, err := os.ReadFile("../" + doc)
	if err != nil {
		t.Fatal(err)
	}
	methods := map[int]string{}
	lines := 0
	for i, line := range strings.Split(string(data), "\n") {
		n := i + 1
		switch {
		case strings.HasPrefix(line, "> {"):
			lines++
			raw := []byte(line[2:])
			if err := request(raw); err != nil {
				t.Errorf("%s:%d: request: %v", doc, n, err)
				continue
			}
			var req adapter.Request
			json.Unmarshal(raw, &req)
			methods[req.Seq] = req.Method
		case strings.HasPrefix(line, "< {"):
			lines++
			raw := []byte(line[2:])
			var r adapter.Reply
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Errorf("%s:%d: reply: %v", doc, n, err)
				continue
			}
			method, ok := methods[r.Seq]
			if !ok {
				t.Errorf("%s:%d: reply to seq %d with no request before it", doc, n, r.Seq)
				continue
			}
			if err := reply(method, raw); err != nil {
				t.Errorf("%s:%d: reply to %s: %v", doc, n, method, err)
			}
		}
	}
	if lines < least {
		t.Fatalf("%s: found only %d example lines", doc, lines)
	}
}
