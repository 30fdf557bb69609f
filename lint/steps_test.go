package lint_test

import (
	"testing"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/lint"
)

// A step is delimited by its request header, its model output and its
// tool results, not by step/start and step/end (SPEC.md names neither): a
// log without step events whose appends all come at step boundaries is
// clean, and an append inside a step's body is named by what it is.
func TestStepsWithoutStepEvents(t *testing.T) {
	for _, c := range []struct {
		name string
		log  string
		rule string
		line int
	}{
		{"an append at the next step's pre-step", `{"type":"plan/mode","data":{"active":true}}
{"type":"turn/start","data":{"turn":1}}
{"type":"request/header","data":{"header":{"system":"{{system}}","tools":"{{tools}}"},"reason":"initial"}}
{"type":"assistant/message","data":{"message":{"role":"assistant","content":[{"type":"tool-call","id":"c1","name":"exit_plan_mode","arguments":"{\"plan\":\"# Plan\"}"}]}}}
{"type":"tool/result","data":{"message":{"source":{"kind":"tool","callId":"c1"},"content":[{"type":"tool-result","toolCallId":"c1"}]}}}
{"type":"plan/mode","data":{"active":false}}
{"type":"request/header","data":{"header":{"system":"{{system}}","tools":"{{tools}}"},"reason":"change"}}
{"type":"assistant/message","data":{"message":{"role":"assistant","content":[]}}}
{"type":"turn/end","data":{"turn":1,"reason":{"kind":"completed"}}}
`, "", 0},
		{"an approved exit appended during its call", `{"type":"plan/mode","data":{"active":true}}
{"type":"turn/start","data":{"turn":1}}
{"type":"request/header","data":{"header":{"system":"{{system}}","tools":"{{tools}}"},"reason":"initial"}}
{"type":"assistant/message","data":{"message":{"role":"assistant","content":[{"type":"tool-call","id":"c1","name":"exit_plan_mode","arguments":"{\"plan\":\"# Plan\"}"}]}}}
{"type":"plan/mode","data":{"active":false}}
{"type":"tool/result","data":{"message":{"source":{"kind":"tool","callId":"c1"},"content":[{"type":"tool-result","toolCallId":"c1"}]}}}
`, attribution.LintExitAtOnce, 6},
		{"a selection appended while the step streams", `{"type":"turn/start","data":{"turn":1}}
{"type":"request/header","data":{"header":{"system":"{{system}}","tools":"{{tools}}"},"reason":"initial"}}
{"type":"plan/mode","data":{"active":true}}
{"type":"assistant/message","data":{"message":{"role":"assistant","content":[]}}}
`, attribution.LintAppendMidStep, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := lint.Bytes("x.jsonl", []byte(head+c.log), lint.Options{})
			f := r.Findings()
			switch {
			case c.rule == "" && len(f) != 0:
				t.Fatalf("want no finding:\n%s", text(r))
			case c.rule != "" && (len(f) != 1 || f[0].Rule != c.rule || f[0].Line != c.line || f[0].Clause != attribution.Clause(c.rule)):
				t.Fatalf("want one %s finding at line %d:\n%s", c.rule, c.line, text(r))
			}
		})
	}
}
