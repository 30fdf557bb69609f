package suite_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/plankit/plankit/features"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/rtrace"
	"github.com/plankit/plankit/spec"
)

// The runtime declares plan-mode-malformed=keep and idle-revert-notice=keep,
// the readings it follows, so the scenarios holding them run too (by
// default they are skipped: TestMalformedPlanModeNotJudgedByDefault,
// TestIdleRevertNoticeAtTheRuntimeLevel).
func builtin(retry string, mutants ...reference.Mutant) func() loop.Runtime {
	return func() loop.Runtime {
		b, err := loop.NewBuiltin(reference.NewPort(reference.Options{Mutants: mutants, Choices: reference.Followed()}), retry)
		if err != nil {
			panic(err)
		}
		return b
	}
}

// otherReading reports whether c is skipped because it holds a reading of
// a followed choice (idle-revert-notice, plan-argument, fault-scope, ...)
// that the runtime of builtin does not follow (it declares one, or
// leaves it either): the only scenarios that runtime may skip for a
// choice. TestIdleRevertNoticeAtTheRuntimeLevel runs the net one against
// a runtime declaring net.
func otherReading(c report.Case) bool {
	if c.Status != report.Skipped {
		return false
	}
	_, rest, ok := strings.Cut(c.Message, "depends on choice ")
	name, _, _ := strings.Cut(rest, "=")
	ch, known := spec.LookupChoice(name)
	return ok && known && ch.Followed
}

// runSuite runs the runtime-level scenarios with o; an error fails t.
func runSuite(t *testing.T, o suite.Options) suite.Result {
	t.Helper()
	res, err := suite.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// replay runs tr against rt and fails t unless the verdict on the
// recording fails exactly when fail says it should.
func replay(t *testing.T, tr *loop.Trace, rt loop.Runtime, fail bool) {
	t.Helper()
	rec, err := loop.Run(rt, *tr)
	if err != nil {
		t.Fatal(err)
	}
	if fs := loop.Verdict(*tr, rec); (len(fs) > 0) != fail {
		t.Errorf("replay: findings %v, want failing=%t", fs, fail)
	}
}

func TestTheBuiltinRuntimePassesTheSuite(t *testing.T) {
	res := runSuite(t, suite.Options{NewRuntime: builtin(loop.RetryPreStep)})
	if res.Impl != nil {
		t.Fatal(res.Impl)
	}
	for _, c := range res.Cases {
		if c.Status != report.Passed && !otherReading(c) {
			t.Errorf("%s: %s: %s", c.ID, c.Status, c.Message)
		}
	}
	if len(res.Cases) < 30 {
		t.Errorf("only %d scenarios", len(res.Cases))
	}
}

// By default (plan-mode-malformed=either) what a runtime's fold does with
// a plan/mode whose data has no boolean active is not judged: the
// scenarios holding the keep reading are skipped naming the choice, and
// the built-in runtime passes every other scenario.
func TestMalformedPlanModeNotJudgedByDefault(t *testing.T) {
	res := runSuite(t, suite.Options{NewRuntime: func() loop.Runtime {
		b, err := loop.NewBuiltin(reference.NewPort(reference.Options{}), loop.RetryPreStep)
		if err != nil {
			panic(err)
		}
		return b
	}})
	skipped := 0
	for _, c := range res.Cases {
		switch {
		case c.Status == report.Skipped && strings.Contains(c.Message, "plan-mode-malformed=keep; the implementation declares plan-mode-malformed=either"):
			skipped++
		case otherReading(c):
			// nor is any reading of a followed choice
		case c.Status != report.Passed:
			t.Errorf("%s: %s: %s", c.ID, c.Status, c.Message)
		}
	}
	if skipped != 4 {
		t.Errorf("%d scenarios skipped for plan-mode-malformed, want the 4 that open a log with such data", skipped)
	}
}

// The shipped loop's retry (same step, no pre-step) breaks STEP-2 and only
// those scenarios (the other retry scenarios hold for both kinds: one
// notice per change, wherever the append lands); a runtime without retries
// skips them, naming the capability.
func TestRetryBehaviours(t *testing.T) {
	for _, c := range []struct {
		retry  string
		status string
	}{{loop.RetrySameStep, report.Failed}, {loop.RetryNone, report.Skipped}} {
		res := runSuite(t, suite.Options{NewRuntime: builtin(c.retry)})
		for _, cs := range res.Cases {
			want := report.Passed
			switch {
			case cs.ID == "rt-step-retry-observed", cs.ID == "rt-step-retry-is-a-dispatch" && c.retry == loop.RetrySameStep:
				want = c.status
			case strings.HasPrefix(cs.ID, "rt-step-retry-") && c.retry == loop.RetryNone:
				// what a failed request leads to is judged of retrying
				// runtimes; the other retry scenarios hold for both kinds
				want = report.Skipped
			}
			if cs.Status != want && !otherReading(cs) {
				t.Errorf("retry %s: %s is %s (%s), want %s", c.retry, cs.ID, cs.Status, cs.Message, want)
			}
		}
	}
}

// The results do not depend on the scenario order (seed) or the run: the
// same cases, byte for byte, for a mutant that fails many of them.
func TestResultsAreDeterministic(t *testing.T) {
	var first []byte
	for _, seed := range []int64{0, 1, 42, 1} {
		res := runSuite(t, suite.Options{NewRuntime: builtin(loop.RetrySameStep, reference.NarrateTwice), Selection: features.Selection{Seed: seed}})
		for i := range res.Cases {
			res.Cases[i].Steps = nil
		}
		b, _ := json.Marshal(res.Cases)
		if first == nil {
			first = b
		} else if string(b) != string(first) {
			t.Fatalf("seed %d gives different results:\n%s\n%s", seed, first, b)
		}
	}
}

// limited is the built-in runtime declaring fewer capabilities.
type limited struct {
	*loop.Builtin
	caps loop.Capabilities
}

func (l limited) Start() (loop.Identity, error) {
	id, err := l.Builtin.Start()
	id.Capabilities = l.caps
	return id, err
}

// A runtime that declares no optional capability gets the checks that
// need one skipped, naming the capability, and never failed.
func TestMissingCapabilitiesSkipNeverFail(t *testing.T) {
	newRuntime := func() loop.Runtime {
		return limited{builtin(loop.RetryNone)().(*loop.Builtin), loop.Capabilities{Retry: loop.RetryNone}}
	}
	res := runSuite(t, suite.Options{NewRuntime: newRuntime})
	passed, skipped := 0, 0
	for _, c := range res.Cases {
		switch c.Status {
		case report.Passed:
			passed++
		case report.Skipped:
			skipped++
			if !strings.Contains(c.Message, "capabilit") && !otherReading(c) {
				t.Errorf("%s skipped without naming the capability: %s", c.ID, c.Message)
			}
		default:
			t.Errorf("%s: %s: %s", c.ID, c.Status, c.Message)
		}
	}
	if passed == 0 || skipped == 0 {
		t.Errorf("%d passed, %d skipped", passed, skipped)
	}
	cases, err := suite.Properties(context.Background(), suite.PropertyOptions{NewRuntime: newRuntime, Seed: 1, Checks: 20})
	if err != nil || cases[0].Status != report.Passed {
		t.Errorf("property with few capabilities: %v %+v", err, cases)
	}
}

// A failing scenario's trace replays: it fails again against the runtime
// that failed and passes against the built-in one.
func TestAFailingScenarioWritesAReplayableTrace(t *testing.T) {
	dir := t.TempDir()
	res, err := suite.Run(context.Background(), suite.Options{NewRuntime: builtin(loop.RetrySameStep), CounterexampleDir: dir, Selection: features.Selection{Tags: "@STEP-2 && @STEP-7"}})
	if err != nil || len(res.Cases) != 1 || res.Cases[0].Counterexample != dir+"/rt-step-retry-observed.yaml" || !strings.HasSuffix(res.Cases[0].Message, "; trace "+res.Cases[0].Counterexample) {
		t.Fatalf("%v %+v", err, res.Cases)
	}
	tr, err := rtrace.ReadFile(dir + "/rt-step-retry-observed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	replay(t, tr, builtin(loop.RetrySameStep)(), true)
	replay(t, tr, builtin(loop.RetryPreStep)(), false)
}

// replayPath is where a failing scenario says its trace was written (no
// replay command is named: suite.Options.Replay is not set).
var replayPath = regexp.MustCompile(`; trace (\S+)$`)

// TestScenarioAndTraceFailInTheSameWords: a runtime-level Then-step checks
// with loop.Expect and records it in the scenario's trace, so the trace a
// failing scenario writes fails, replayed, on the same expectation in the
// same words. (The pairs are ones whose first failure is a Then-step, not
// an invariant of a When-step.)
func TestScenarioAndTraceFailInTheSameWords(t *testing.T) {
	for _, c := range []struct {
		scenario string
		mutant   reference.Mutant
		words    string
	}{
		{"rt-cmd-not-composed", "command-without-service", `command reported: got success ("Plan mode on. Use /plan off to leave."), want error`},
		{"rt-pend-noop-in-turn", reference.NoopQueues, `result s1: got "queued", want "noop"`},
		{"rt-exit-keep-planning-after-approval-same-batch", reference.KeepPlanningKeepsExit, "plan/mode events appended: got [false], want []"},
		{"rt-exit-registered-inactive", "plan-mode-blocks-steps", "requests offering exit_plan_mode: got no request"},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			dir := t.TempDir()
			res, err := suite.Run(context.Background(), suite.Options{NewRuntime: builtin(loop.RetryPreStep, c.mutant), CounterexampleDir: dir, Selection: features.Selection{Tags: "@id:" + c.scenario}})
			if err != nil || len(res.Cases) != 1 {
				t.Fatalf("%v, %d cases", err, len(res.Cases))
			}
			got := res.Cases[0]
			m := replayPath.FindStringSubmatch(got.Message)
			if got.Status != report.Failed || m == nil || m[1] != got.Counterexample || !strings.Contains(got.Message, c.words) {
				t.Fatalf("mutant %s: %s %q, want a failure saying %q with its trace", c.mutant, got.Status, got.Message, c.words)
			}
			tr, err := rtrace.ReadFile(m[1])
			if err != nil {
				t.Fatal(err)
			}
			rec, err := loop.Run(builtin(loop.RetryPreStep, c.mutant)(), *tr)
			if err != nil {
				t.Fatal(err)
			}
			findings := loop.Expectations(rec)
			if len(findings) == 0 {
				t.Fatalf("the replayed trace passes its expectations; the scenario failed with %q", got.Message)
			}
			// The replay names the step ("step 3 (turn): "), the scenario
			// the Gherkin step; the finding's words are the same.
			f := findings[0]
			f.Message = f.Message[strings.Index(f.Message, "): ")+3:]
			if !strings.Contains(got.Message, ": "+f.String()+"; trace ") {
				t.Errorf("the scenario fails with %q, its replayed trace with %q", got.Message, f.String())
			}
			if rec, _ := loop.Run(builtin(loop.RetryPreStep)(), *tr); len(loop.Expectations(rec)) != 0 {
				t.Errorf("the trace fails against the reference: %v", loop.Expectations(rec))
			}
		})
	}
}

// The real dsh runtime's two STEP-6 deviations once found only by reading
// are found by scenarios; the built-in runtime with the same habits fails
// them the same way: headers logged only on change with the pending
// selection rendered (switch-off-not-narrated), and a cancelled round
// trip kept as an entry and narrated (the variant cancelled-selection-narrated).
func TestDshHabitsFailTheirScenarios(t *testing.T) {
	for _, c := range []struct {
		scenario string
		runtime  func() loop.Runtime
	}{
		{"rt-step-switch-narrated-after-failed-append", func() loop.Runtime {
			b, err := loop.NewBuiltinWith(reference.NewPort(reference.Options{Choices: reference.Choices{SectionSource: "pending"}}),
				loop.BuiltinOptions{Mutants: []loop.Mutant{loop.HeaderOnChange}})
			if err != nil {
				panic(err)
			}
			return b
		}},
		{"rt-step-no-narration-after-cancelled-round-trip", func() loop.Runtime {
			b, err := loop.NewBuiltin(reference.NewPort(reference.Options{Mutants: reference.Mutants{reference.CancelledNarrated}, Choices: reference.Choices{CancelPending: "keep-equal"}}), loop.RetryPreStep)
			if err != nil {
				panic(err)
			}
			return b
		}},
	} {
		res := runSuite(t, suite.Options{NewRuntime: c.runtime, Selection: features.Selection{Tags: "@id:" + c.scenario}})
		if len(res.Cases) != 1 || res.Cases[0].Status != report.Failed || !strings.Contains(res.Cases[0].Message, "STEP-6") {
			t.Errorf("%s: %+v, want it failed under STEP-6", c.scenario, res.Cases)
		}
	}
}
