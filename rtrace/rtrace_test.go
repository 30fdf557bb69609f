package rtrace_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/rtrace"
)

const tour = `level: runtime
name: tour
config: {section: "Plan first."}
services: {commands: true, userQuestions: true}
hostTools: [{name: read_file}]
steps:
  - set: {agent: main, active: true}
    expect: {outcome: committed, planMode: [true]}
  - turn:
      agent: main
      prompt: Plan it.
      script:
        responses:
          - calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan"}, review: {answer: approve}}]
          - text: Doing it.
    expect: {results: {c1: ok}, planMode: [false], section: [true, false]}
  - get: {agent: main}
    expect: {state: {active: false, pending: none}}
  - open: {agent: resumed, log: [{type: plan/mode, data: {active: "no"}}]}
  - get: {agent: resumed}
    expect: {state: {active: false}}
  - unload: {}
  - turn: {agent: resumed, prompt: Go., script: {}}
    expect: {section: [false]}
`

func TestParseAndMarshalRoundTrip(t *testing.T) {
	tr, err := rtrace.Parse("tour.yaml", []byte(tour))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Steps) != 7 || tr.Steps[3].Open == nil || len(tr.Steps[3].Open.Log) != 1 || tr.Steps[5].Unload == nil || tr.Steps[1].Turn == nil || len(tr.Steps[1].Turn.Script.Responses) != 2 {
		t.Fatalf("parsed %+v", tr)
	}
	if x := tr.Steps[2].Expect; x == nil || x.Active == nil || *x.Active || x.Pending != nil || !x.NoPending {
		t.Fatalf("state: {active: false, pending: none} read as %+v", x)
	}
	if x := tr.Steps[4].Expect; x == nil || x.Active == nil || *x.Active || x.Pending != nil || x.NoPending {
		t.Fatalf("state: {active: false} read as %+v", x)
	}
	out, err := rtrace.Marshal(*tr)
	if err != nil {
		t.Fatal(err)
	}
	again, err := rtrace.Parse("again.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	out2, _ := rtrace.Marshal(*again)
	if string(out) != string(out2) {
		t.Fatalf("not stable:\n%s\n---\n%s", out, out2)
	}
}

func TestErrorsNameFileLineAndField(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"unknown member", "level: runtime\nsteps:\n  - turn: {agent: main, prompt: x, script: {responses: [{txt: a}]}}\n", `bad.yaml:3:58: steps[0].turn.script.responses[0].txt: unknown field "txt"`},
		{"wrong type", "level: runtime\nsteps:\n  - get: {agent: 3}\n", "bad.yaml:3:18: steps[0].get.agent: got number, want string"},
		{"two actions", "level: runtime\nsteps:\n  - {get: {agent: main}, set: {agent: main, active: true}}\n", "exactly one of"},
		{"unknown agent", "level: runtime\nsteps:\n  - get: {agent: bob}\n", `unknown agent "bob"`},
		{"agent opened twice", "level: runtime\nsteps:\n  - open: {agent: main}\n", `bad.yaml:3:19: steps[0].open.agent: agent "main" is already open`},
		{"opened agent addressed before it opens", "level: runtime\nsteps:\n  - get: {agent: b}\n  - open: {agent: b}\n", `unknown agent "b"`},
		{"open log event without type", "level: runtime\nsteps:\n  - open: {agent: b, log: [{data: {}}]}\n", "type"},
		{"no level", "steps: []\n", "bad.yaml:1:1: missing property 'level'"},
		{"pending neither boolean nor none", "level: runtime\nsteps:\n  - get: {agent: main}\n    expect: {state: {pending: maybe}}\n", "steps[0].expect.state.pending"},
		{"an old key with its new spelling", "level: runtime\nsteps:\n  - get: {agent: main}\n    expect: {noPending: true}\n", `bad.yaml:4:14: steps[0].expect.noPending: unknown field "noPending": now written state: {pending: none}`},
		{"yaml", "level: runtime\nsteps: [\n", "YAML"},
	} {
		_, err := rtrace.Parse("bad.yaml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want it to mention %q", c.name, err, c.want)
		}
	}
}

// TestSchemaStepsAreTheStepTable: the runtime trace schema's step members
// (besides expect) are the kinds loop's step table declares, so a new
// kind of step cannot be added without the schema knowing it.
func TestSchemaStepsAreTheStepTable(t *testing.T) {
	b, err := os.ReadFile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties struct {
			Steps struct {
				Items struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"items"`
			} `json:"steps"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	var members []string
	for name := range s.Properties.Steps.Items.Properties {
		if name != "expect" {
			members = append(members, name)
		}
	}
	slices.Sort(members)
	want := slices.Sorted(slices.Values(loop.StepNames()))
	if !slices.Equal(members, want) {
		t.Fatalf("schema step members %v, step table %v", members, want)
	}
}
