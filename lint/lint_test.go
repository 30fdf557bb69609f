package lint_test

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/lint"
	"github.com/sebdah/goldie/v2"
)

// The acceptance point: the recorded plan-review session reports the plan
// state at each request header and no finding.
func TestPlanReviewStates(t *testing.T) {
	r := lint.File("testdata/dsh/plan-review.jsonl", lint.Options{})
	if code := lint.Code([]*lint.Report{r}); code != lint.ExitClean {
		t.Fatalf("exit %d, want 0:\n%s", code, text(r))
	}
	states := r.States()
	if len(states) != 2 {
		t.Fatalf("want 2 state lines (one per request header), got %d:\n%s", len(states), text(r))
	}
	// Line 9: /plan committed plan mode before turn 1 (idle, PEND-6).
	// Line 27: the approved exit applied between step 1 and step 2.
	want := []struct {
		line   int
		active bool
	}{{9, true}, {27, false}}
	for i, w := range want {
		if states[i].Line != w.line || *states[i].Active != w.active {
			t.Errorf("state %d: want line %d active=%v, got line %d active=%v", i, w.line, w.active, states[i].Line, *states[i].Active)
		}
	}
}

func TestEveryRecordedLogIsClean(t *testing.T) {
	files, _ := filepath.Glob("testdata/dsh/*.jsonl")
	if len(files) < 6 {
		t.Fatalf("want the 6 recorded logs, found %d", len(files))
	}
	for _, f := range files {
		r := lint.File(f, lint.Options{})
		if r.Count(lint.LevelFinding)+r.Count(lint.LevelError)+r.Count(lint.LevelWarning) > 0 {
			t.Errorf("%s:\n%s", f, text(r))
		}
		if r.Sessions != 1 {
			t.Errorf("%s: %d sessions, want 1", f, r.Sessions)
		}
	}
}

// Packed chunk rows stand for as many events as they hold texts: the
// plan-review log has 38 rows of which 3 are packed.
func TestPackedRowsCountTheirChunks(t *testing.T) {
	r := lint.File("testdata/dsh/plan-review.jsonl", lint.Options{})
	if r.Events != 342 {
		t.Fatalf("events %d, want 342 (35 plain rows + 51 + 30 + 226 packed chunks)", r.Events)
	}
}

func TestGoldenPlanReview(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	var b bytes.Buffer
	if err := lint.WriteText(&b, []*lint.Report{lint.File("testdata/dsh/plan-review.jsonl", lint.Options{})}); err != nil {
		t.Fatal(err)
	}
	g.Assert(t, "plan-review.txt", b.Bytes())
	b.Reset()
	if err := lint.WriteJSON(&b, []*lint.Report{lint.File("testdata/dsh/plan-review.jsonl", lint.Options{})}); err != nil {
		t.Fatal(err)
	}
	g.Assert(t, "plan-review.json", b.Bytes())
}

const head = `{"type":"session","version":0,"id":"s"}` + "\n"

func TestInput(t *testing.T) {
	cases := []struct {
		name  string
		log   string
		code  int
		level string
		line  int
		want  string
	}{
		{"truncated last line is a warning", head + `{"type":"turn/start","data":{"turn":1}}` + "\n" + `{"type":"turn/end","da`,
			lint.ExitClean, lint.LevelWarning, 3, "truncated last line"},
		{"a file of one unterminated non-JSON line is unreadable, not truncated", `not json`,
			lint.ExitInput, lint.LevelError, 1, "not a JSON object"},
		{"malformed line is an error", head + `{"type":"turn/start","data":{"turn":1}}` + "\n" + `{"type":` + "\n" + `{"type":"turn/end","data":{"turn":1}}` + "\n",
			lint.ExitInput, lint.LevelError, 3, "not a JSON object"},
		{"a terminated broken last line is an error", head + `{"type":` + "\n",
			lint.ExitInput, lint.LevelError, 2, "not a JSON object"},
		{"type must be a string", head + `{"type":3,"data":{}}` + "\n",
			lint.ExitInput, lint.LevelError, 2, `field "type"`},
		{"data is required", head + `{"type":"turn/start"}` + "\n",
			lint.ExitInput, lint.LevelError, 2, `field "data" is missing`},
		{"empty line", head + "\n" + `{"type":"turn/start","data":{}}` + "\n",
			lint.ExitInput, lint.LevelError, 2, "empty line"},
		{"seq gap", head + `{"type":"turn/start","seq":0,"data":{}}` + "\n" + `{"type":"step/start","seq":2,"data":{}}` + "\n",
			lint.ExitInput, lint.LevelError, 3, "seq 2, expected 1"},
		{"seq on some lines only", head + `{"type":"turn/start","seq":0,"data":{}}` + "\n" + `{"type":"step/start","data":{}}` + "\n",
			lint.ExitInput, lint.LevelError, 3, `"seq" missing`},
		{"packed row takes its count", head + `{"type":"turn/start","seq":0,"data":{}}` + "\n" +
			`{"type":"text-chunks","seq0":1,"time0":5,"data":{"texts":["a","b","c"],"dt":[0,1,1]}}` + "\n" +
			`{"type":"step/end","seq":3,"data":{}}` + "\n",
			lint.ExitInput, lint.LevelError, 4, "seq 3, expected 4"},
		{"packed row without texts", head + `{"type":"text-chunks","data":{}}` + "\n",
			lint.ExitInput, lint.LevelError, 2, `non-empty "texts"`},
		{"no session header", `{"type":"turn/start","data":{}}` + "\n",
			lint.ExitClean, lint.LevelWarning, 1, "no session header"},
		{"seq restarts with each session", head + `{"type":"turn/start","seq":0,"data":{}}` + "\n" + head + `{"type":"turn/start","seq":0,"data":{}}` + "\n",
			lint.ExitClean, "", 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := lint.Bytes("x.jsonl", []byte(c.log), lint.Options{})
			if code := lint.Code([]*lint.Report{r}); code != c.code {
				t.Fatalf("exit %d, want %d:\n%s", code, c.code, text(r))
			}
			if c.level == "" {
				if len(r.Entries) != 0 {
					t.Fatalf("want no entries:\n%s", text(r))
				}
				return
			}
			if !slices.ContainsFunc(r.Entries, func(e lint.Entry) bool {
				return e.Level == c.level && e.Line == c.line && strings.Contains(e.Message, c.want)
			}) {
				t.Fatalf("want %s at line %d containing %q:\n%s", c.level, c.line, c.want, text(r))
			}
		})
	}
}

func TestUnreadableFile(t *testing.T) {
	r := lint.File("testdata/does-not-exist.jsonl", lint.Options{})
	if lint.Code([]*lint.Report{r}) != lint.ExitInput || !strings.Contains(r.Entries[0].Message, "cannot read") {
		t.Fatalf("want an input error:\n%s", text(r))
	}
}

// Hand-written logs for rules whose symptom no mutant of the reference
// produces: an append inside a step, and a plan/mode in the transcript.
func TestRulesOnHandWrittenLogs(t *testing.T) {
	cases := []struct {
		name, log, clause string
		line              int
	}{
		{"append between step/start and header", `{"type":"turn/start","data":{"turn":1}}
{"type":"step/start","data":{"turn":1,"step":1}}
{"type":"plan/mode","data":{"active":true}}
{"type":"request/header","data":{"header":{"system":"{{system}}","tools":"{{tools}}"},"reason":"initial"}}
`, "STEP-1", 4},
		{"append after the header", `{"type":"turn/start","data":{"turn":1}}
{"type":"step/start","data":{"turn":1,"step":1}}
{"type":"request/header","data":{"header":{"system":"{{system}}","tools":"{{tools}}"},"reason":"initial"}}
{"type":"plan/mode","data":{"active":true}}
`, "PEND-1", 5},
		{"append at a same-step retry with no new header", `{"type":"turn/start","data":{"turn":1}}
{"type":"step/start","data":{"turn":1,"step":1}}
{"type":"request/header","data":{"header":{"system":"{{system}}","tools":"{{tools}}"},"reason":"initial"}}
{"type":"llm/retry","data":{"turn":1,"step":1}}
{"type":"plan/mode","data":{"active":true}}
{"type":"assistant/message","data":{"turn":1,"step":1,"message":{"role":"assistant","content":[]}}}
`, "STEP-7", 6},
		{"plan/mode in the transcript", `{"type":"user/message","data":{"role":"user","content":[{"type":"plan/mode","data":{"active":true}}],"source":{"kind":"user"}}}
`, "LOG-1", 2},
		{"an initial inactive plan/mode changes nothing", `{"type":"plan/mode","data":{"active":false}}
`, "LOG-4", 2},
		{"a notice with no header", `{"type":"plan/mode","data":{"active":true}}
{"type":"user/message","data":{"role":"user","content":[{"type":"text","text":"n"}],"source":{"kind":"plugin","plugin":"plan-mode"}}}
`, "STEP-6", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := lint.Bytes("x.jsonl", []byte(head+c.log), lint.Options{})
			f := r.Findings()
			if len(f) != 1 || f[0].Clause != c.clause || f[0].Line != c.line {
				t.Fatalf("want one %s finding at line %d:\n%s", c.clause, c.line, text(r))
			}
		})
	}
}

func text(r *lint.Report) string {
	var b bytes.Buffer
	_ = lint.WriteText(&b, []*lint.Report{r})
	return b.String()
}

// In a file of several sessions (plankit sim writes one per agent) each
// session is folded on its own and each line names its session.
func TestSessionsFoldApart(t *testing.T) {
	log := `{"type":"session","id":"main"}
{"type":"plan/mode","seq":0,"data":{"active":true}}
{"type":"session","id":"child"}
{"type":"plan/mode","seq":0,"data":{"active":true}}
{"type":"turn/start","seq":1,"data":{"turn":1}}
{"type":"step/start","seq":2,"data":{"turn":1,"step":1}}
{"type":"request/header","seq":3,"data":{"header":{"system":"{{system}}"},"reason":"initial"}}
`
	r := lint.Bytes("two.jsonl", []byte(log), lint.Options{})
	if r.Sessions != 2 || len(r.Findings()) != 0 {
		t.Fatalf("want 2 sessions and no finding (each session's first plan/mode is a change):\n%s", text(r))
	}
	if s := r.States(); len(s) != 1 || s[0].Session != "child" || !*s[0].Active {
		t.Fatalf("want one state line, child active:\n%s", text(r))
	}
	if !strings.Contains(text(r), "two.jsonl:7: state: [session child] plan mode active") {
		t.Fatalf("the state line does not name its session:\n%s", text(r))
	}
}

// When the requests sent are known (the runtime level observes them), a step
// that appended plan/mode and sent its request without logging a header is
// a missing header, not a step that sent nothing.
func TestObservedRequestsDecideWhetherAStepSentOne(t *testing.T) {
	log := head + `{"type":"turn/start","data":{"turn":1}}
{"type":"plan/mode","data":{"active":true}}
{"type":"step/start","data":{"turn":1,"step":1}}
{"type":"assistant/message","data":{"turn":1,"step":1,"message":{"role":"assistant","content":[]}}}
{"type":"step/end","data":{"turn":1,"step":1}}
{"type":"turn/end","data":{"turn":1,"reason":{"kind":"completed"}}}
`
	for _, c := range []struct {
		name   string
		sent   []int
		clause string
	}{
		{"recording alone", nil, "STEP-3"},
		{"no request seen", []int{}, "STEP-3"},
		{"a request before the append", []int{2}, "STEP-3"},
		{"a request after the append", []int{4}, "STEP-6"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := lint.Bytes("x.jsonl", []byte(log), lint.Options{SentAfter: c.sent})
			f := r.Findings()
			if len(f) != 1 || f[0].Clause != c.clause || f[0].Line != 3 {
				t.Fatalf("want one %s finding at line 3:\n%s", c.clause, text(r))
			}
		})
	}
}
