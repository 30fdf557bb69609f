package suite_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/rtrace"
)

// replayPath is where a failing scenario says its trace was written.
var replayPath = regexp.MustCompile(`; replay: plankit sim --level runtime (\S+)$`)

// TestScenarioAndTraceFailInTheSameWords: a runtime-level Then-step checks
// with loop.Expect and records it in the scenario's trace, so the trace a
// failing scenario writes fails, replayed, on the same expectation in the
// same words.
func TestScenarioAndTraceFailInTheSameWords(t *testing.T) {
	for _, c := range []struct {
		scenario string
		mutant   reference.Mutant
		words    string
	}{
		{"rt-cmd-not-composed", "command-without-service", "command reported: got success, want error"},
		{"rt-exit-approved", reference.ApproveWithoutReview, "tool call c1 asked the user: got not asked, want asked"},
		{"rt-exit-keep-planning-after-approval-same-batch", "exit-gate-reads-pending", `want it to carry "Cover rollback."`},
		{"rt-exit-registered-inactive", "plan-mode-blocks-steps", "requests offering exit_plan_mode: got no request"},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			dir := t.TempDir()
			res, err := suite.Run(context.Background(), suite.Options{NewRuntime: builtin(loop.RetryPreStep, c.mutant), Tags: "@id:" + c.scenario, CounterexampleDir: dir})
			if err != nil || len(res.Cases) != 1 {
				t.Fatalf("%v, %d cases", err, len(res.Cases))
			}
			got := res.Cases[0]
			m := replayPath.FindStringSubmatch(got.Message)
			if got.Status != report.Failed || m == nil || !strings.Contains(got.Message, c.words) {
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
			if !strings.Contains(got.Message, ": "+f.String()+"; replay") {
				t.Errorf("the scenario fails with %q, its replayed trace with %q", got.Message, f.String())
			}
			if rec, _ := loop.Run(builtin(loop.RetryPreStep)(), *tr); len(loop.Expectations(rec)) != 0 {
				t.Errorf("the trace fails against the reference: %v", loop.Expectations(rec))
			}
		})
	}
}
