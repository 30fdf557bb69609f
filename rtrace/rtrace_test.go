package rtrace_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
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

// TestSchemaIsBuiltFromTheStepTable: schema.json is what BuildSchema
// writes from the step table, so a new kind of step cannot be added
// without the schema knowing it (go generate ./... writes it).
func TestSchemaIsBuiltFromTheStepTable(t *testing.T) {
	built, err := rtrace.BuildSchema()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(built, rtrace.Schema) {
		t.Fatal("rtrace/schema.json is not what the step table builds: run go generate ./...")
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
	if err := json.Unmarshal(built, &s); err != nil {
		t.Fatal(err)
	}
	members := slices.Sorted(maps.Keys(s.Properties.Steps.Items.Properties))
	want := slices.Sorted(slices.Values(append(loop.StepNames(), "expect")))
	if !slices.Equal(members, want) {
		t.Fatalf("schema step members %v, step table %v", members, want)
	}
}

// TestEveryStepExampleParsesAndPlays: each kind's example, as the trace
// format page shows it, is a valid step of a runtime trace, and the
// built-in runtime around the reference plays it and keeps the
// invariants.
func TestEveryStepExampleParsesAndPlays(t *testing.T) {
	for _, k := range loop.StepKinds() {
		t.Run(k.Name(), func(t *testing.T) {
			if k.Example() == "" || k.Doc() == "" {
				t.Fatalf("step %s has no example or no doc", k.Name())
			}
			src := "level: runtime\nconfig: {section: \"Plan first.\"}\nservices: {commands: true, userQuestions: true}\nhostTools: [{name: read_file}]\nsteps:\n  - " + k.Example() + "\n"
			tr, err := rtrace.Parse(k.Name()+".yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Steps) != 1 || tr.Steps[0].Name() != k.Name() {
				t.Fatalf("the example is %d steps, the first %q", len(tr.Steps), tr.Steps[0].Name())
			}
			rt, err := loop.NewBuiltin(reference.NewPort(reference.Options{}), loop.RetryPreStep)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := loop.Run(rt, *tr)
			if err != nil {
				t.Fatal(err)
			}
			if fs := loop.Verdict(*tr, rec); len(fs) > 0 {
				t.Fatal(loop.Describe(fs))
			}
		})
	}
}
