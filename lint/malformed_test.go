package lint_test

import (
	"strings"
	"testing"

	"github.com/plankit/plankit/lint"
	"github.com/plankit/plankit/spec"
)

// A log where an outside writer's plan/mode with no boolean active is
// followed by a request whose section shows the truthy reading, a call of
// the exit tool that succeeds, and plan mode turned off again.
const truthyLog = `{"type":"plan/mode","data":{"active":"yes"}}
{"type":"turn/start","data":{"turn":1}}
{"type":"request/header","data":{"header":{"system":[{"name":"plan:policy","order":50,"text":"Plan first."}],"tools":[{"name":"read"},{"name":"exit_plan_mode"}]},"reason":"initial"}}
{"type":"assistant/message","data":{"message":{"role":"assistant","content":[{"type":"tool-call","toolCallId":"c1","toolName":"exit_plan_mode","input":{"plan":"# Plan"}}]}}}
{"type":"tool/call","data":{"callId":"c1","name":"exit_plan_mode","arguments":"{\"plan\":\"# Plan\"}"}}
{"type":"tool/result","data":{"message":{"role":"tool","source":{"callId":"c1"},"content":[{"type":"tool-result","toolCallId":"c1","isError":false}]}}}
{"type":"plan/mode","data":{"active":false}}
{"type":"request/header","data":{"header":{"system":[],"tools":[{"name":"read"},{"name":"exit_plan_mode"}]},"reason":"changed"}}
{"type":"assistant/message","data":{"message":{"role":"assistant","content":[{"type":"text","text":"Done."}]}}}
{"type":"turn/end","data":{"turn":1,"reason":{"kind":"completed"}}}
`

// Under plan-mode-malformed=either (the default) nothing is inferred from
// the state after a plan/mode with no boolean active: its LOG-1 shape is
// reported, and nothing else. Under keep the same log breaks the fold
// (the section shows plan mode while the log says it is off); under
// truthy it is clean but for the shape.
// The same holds when the first header does not show its sections and
// tools, so the state stays unknown until the next plan/mode.
func TestMalformedPlanModeIsNotJudgedByDefault(t *testing.T) {
	unshown := strings.Replace(truthyLog, `{"system":[{"name":"plan:policy","order":50,"text":"Plan first."}],"tools":[{"name":"read"},{"name":"exit_plan_mode"}]}`, `{"system":"{{system}}","tools":"{{tools}}"}`, 1)
	if unshown == truthyLog {
		t.Fatal("the header to hide is not in the log")
	}
	for _, log := range []string{truthyLog, unshown} {
		malformedNotJudged(t, log)
	}
}

func malformedNotJudged(t *testing.T, log string) {
	t.Helper()
	for _, c := range []struct {
		malformed string
		extra     bool // findings beyond the LOG-1 shape
	}{{"", false}, {spec.PlanModeMalformedEither, false}, {spec.PlanModeMalformedTruthy, false}, {spec.PlanModeMalformedKeep, true}} {
		r := lint.Bytes("x.jsonl", []byte(head+log), lint.Options{PlanModeMalformed: c.malformed})
		f := r.Findings()
		if len(f) == 0 || f[0].Clause != spec.LOG1 || f[0].Line != 2 {
			t.Fatalf("plan-mode-malformed=%q: want the LOG-1 shape at line 2 first:\n%s", c.malformed, text(r))
		}
		if (len(f) > 1) != c.extra {
			t.Errorf("plan-mode-malformed=%q: findings beyond the shape %v, want %v:\n%s", c.malformed, len(f) > 1, c.extra, text(r))
		}
	}
}
