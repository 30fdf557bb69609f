package conformance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

var (
	conforming = reference.Factory(reference.Options{})
	// cancelKeepsPending fails the PEND-5 scenarios.
	cancelKeepsPending = reference.Factory(reference.Options{Mutants: reference.Mutants{reference.CancelKeepsPending}})
)

func mustRun(t *testing.T, o Options) report.Run {
	t.Helper()
	if o.CounterexampleDir == "" {
		// a failing property's trace goes with the test, not to a new
		// temporary directory that outlives it
		o.CounterexampleDir = t.TempDir()
	}
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func failing(rep report.Run) []string {
	var ids []string
	for _, c := range rep.Cases {
		if c.Failing() {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

func TestAMutantFailsTheClauseItBreaks(t *testing.T) {
	rep := mustRun(t, Options{NewPort: cancelKeepsPending, Seed: 1, Tags: "@PEND-5"})
	if rep.Verdict != report.VerdictFail || !slices.Contains(failing(rep), "pend-cancel-before-boundary") {
		t.Fatalf("verdict %s, failing %v", rep.Verdict, failing(rep))
	}
	for _, row := range rep.Clauses {
		if row.Clause == "PEND-5" && row.Failed == 0 {
			t.Errorf("the PEND-5 row shows no failure: %+v", row)
		}
	}
}

// brokenPort starts, then fails every call.
type brokenPort struct{ sim.Port }

func (brokenPort) Start() (sim.Identity, error) { return sim.Identity{Name: "broken"}, nil }
func (brokenPort) Stop() error                  { return nil }
func (brokenPort) Load(sim.LoadRequest) (sim.LoadReply, error) {
	return sim.LoadReply{}, errors.New("connection reset")
}

// deadPort cannot start.
type deadPort struct{ brokenPort }

func (deadPort) Start() (sim.Identity, error) {
	return sim.Identity{}, errors.New("exec: no such file")
}

func TestAnImplementationThatCannotRunIsNotAFailure(t *testing.T) {
	started := false
	rep := mustRun(t, Options{NewPort: func() sim.Port { return deadPort{} }, Started: func(sim.Identity) { started = true }})
	if rep.Verdict != report.VerdictImpl || !strings.Contains(rep.Error, "could not be started: exec: no such file") || len(rep.Cases) == 0 || started {
		t.Errorf("dead: verdict %s error %q, %d cases, started %v", rep.Verdict, rep.Error, len(rep.Cases), started)
	}
	// Every check is listed, none judged, none failed: the properties too.
	props := 0
	for _, c := range rep.Cases {
		if c.Status != report.Errored || !strings.Contains(c.Message, "exec: no such file") {
			t.Errorf("dead: %s is %s (%s), want %s", c.ID, c.Status, c.Message, report.Errored)
		}
		if c.Kind == report.KindProperty {
			props++
		}
	}
	if props == 0 {
		t.Error("dead: the properties are missing")
	}
	if len(rep.Clauses) != len(spec.Clauses) {
		t.Errorf("dead: the table has %d rows, want every clause", len(rep.Clauses))
	}
	rep = mustRun(t, Options{NewPort: func() sim.Port { return brokenPort{} }, Tags: "@LOG-1"})
	if rep.Verdict != report.VerdictImpl || !strings.Contains(rep.Error, "connection reset") {
		t.Errorf("broken: verdict %s error %q", rep.Verdict, rep.Error)
	}
}

func TestInterruptedRunListsWhatItDidNotRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := Run(ctx, Options{NewPort: conforming, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != report.VerdictInterrupted || !strings.Contains(rep.Error, "interrupted") || len(rep.Cases) == 0 {
		t.Fatalf("verdict %s error %q, %d cases", rep.Verdict, rep.Error, len(rep.Cases))
	}
	for _, c := range rep.Cases {
		if c.Status != report.NotRun {
			t.Errorf("%s ran after the interrupt: %s", c.ID, c.Status)
		}
	}
}

func TestOptionsThatCannotRun(t *testing.T) {
	m, _ := report.ParseManifest("m.txt", nil)
	fix := func([]report.Case) (*report.Manifest, error) { return m, nil }
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{}, "NewPort is nil"},
		{Options{NewPort: conforming, Seed: -1}, "seed -1"},
		{Options{NewPort: conforming, Checks: -1}, "checks -1"},
		{Options{NewPort: conforming, Only: "nothing"}, `only "nothing": want features or properties`},
		{Options{NewPort: conforming, Format: "fancy"}, `format "fancy"`},
		{Options{NewPort: conforming, Manifest: m}, "needs the date"},
		{Options{NewPort: conforming, Manifest: m, Today: "1 July"}, "needs the date"},
		{Options{NewPort: conforming, Tags: "@PEND-5", UpdateManifest: fix}, "filtered run (--tags @PEND-5)"},
		{Options{NewPort: conforming, Choices: map[string]string{"nope": "x"}}, `choice "nope"`},
		{Options{NewPort: conforming, Choices: map[string]string{spec.ChoiceFoldEnd: "x"}}, `unknown value "x"`},
		{Options{NewPort: conforming, Choices: map[string]string{spec.ChoiceFoldEnd: spec.FoldEndError}}, `declares "clamp", the options say "error"`},
		{Options{NewPort: conforming, Tags: "@NO-SUCH-TAG"}, "no check matches --tags @NO-SUCH-TAG"},
		{Options{NewPort: conforming, Tags: "@PEND-5 &&"}, "features:"},
	} {
		_, err := Run(context.Background(), tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want an error containing %q", tc.o, err, tc.want)
		}
	}
}

// presenting is an implementation that says it is id when it starts.
type presenting struct {
	sim.Port
	id sim.Identity
}

func (p presenting) Start() (sim.Identity, error) {
	_, err := p.Port.Start()
	return p.id, err
}

// Choices given in the options stand for an implementation that does not
// declare them: the checks that depend on them run instead of skipping.
func TestChoicesFillWhatTheImplementationLeavesUndeclared(t *testing.T) {
	silent := func() sim.Port {
		return presenting{conforming(), sim.Identity{Name: "silent", Capabilities: reference.Capabilities}}
	}
	skipped := func(rep report.Run) int {
		n := 0
		for _, c := range rep.Cases {
			if c.Status == report.Skipped {
				n++
			}
		}
		return n
	}
	bare := mustRun(t, Options{NewPort: silent, Only: Features})
	given := mustRun(t, Options{NewPort: silent, Only: Features, Choices: reference.Choices{}.Map()})
	declared := mustRun(t, Options{NewPort: conforming, Only: Features})
	if skipped(given) != skipped(declared) || skipped(bare) <= skipped(declared) || bare.Verdict != report.VerdictPass || given.Verdict != report.VerdictPass {
		t.Errorf("skipped %d without choices, %d with them, %d when declared (verdicts %s, %s)", skipped(bare), skipped(given), skipped(declared), bare.Verdict, given.Verdict)
	}
	if given.Implementation.Choices[spec.ChoicePlanHeading] != spec.PlanHeadingLevel1 {
		t.Errorf("the report's identity lacks the given choices: %v", given.Implementation.Choices)
	}
}

// UpdateManifest sees the cases of a complete run and the manifest it
// returns is the one applied; entries expire against Options.Today.
func TestManifest(t *testing.T) {
	var seen []report.Case
	rep := mustRun(t, Options{NewPort: cancelKeepsPending, Seed: 1, Checks: 5, UpdateManifest: func(raw []report.Case) (*report.Manifest, error) {
		seen = raw
		empty, _ := report.ParseManifest("m.txt", nil)
		return report.ParseManifest("m.txt", empty.Fix(raw))
	}})
	if len(seen) != len(rep.Cases) || rep.Verdict != report.VerdictPass || rep.Manifest != "m.txt" {
		t.Fatalf("hook saw %d cases of %d; verdict %s, manifest %q, failing %v", len(seen), len(rep.Cases), rep.Verdict, rep.Manifest, failing(rep))
	}
	m, err := report.ParseManifest("m.txt", []byte("clause:PEND-5 expires=2026-06-30 -- cancelled leaves the selection pending\n"))
	if err != nil {
		t.Fatal(err)
	}
	for today, want := range map[string]string{"2026-06-30": report.VerdictPass, "2026-07-01": report.VerdictFail} {
		rep := mustRun(t, Options{NewPort: cancelKeepsPending, Seed: 1, Tags: "@PEND-5", Manifest: m, Today: today})
		if rep.Verdict != want {
			t.Errorf("today %s: verdict %s, want %s", today, rep.Verdict, want)
		}
	}
}

// tb records what the helper reports on a test.
type tb struct {
	testing.TB
	errors, skips []string
}

func (r *tb) Helper()                      {}
func (r *tb) Errorf(f string, args ...any) { r.errors = append(r.errors, fmt.Sprintf(f, args...)) }
func (r *tb) Skipf(f string, args ...any)  { r.skips = append(r.skips, fmt.Sprintf(f, args...)) }
func (r *tb) Skip(args ...any)             { r.skips = append(r.skips, fmt.Sprint(args...)) }

func TestTheHelperFailsWhatFailed(t *testing.T) {
	for _, tc := range []struct {
		status        string
		errors, skips int
	}{
		{report.Passed, 0, 0}, {report.Failed, 1, 0}, {report.UnexpectedPass, 1, 0},
		{report.ExpectedFailed, 0, 1}, {report.Skipped, 0, 1}, {report.Errored, 0, 1}, {report.NotRun, 0, 1}, {"bogus", 1, 0},
	} {
		r := &tb{}
		judgeCase(r, report.Case{ID: "x", Clauses: []string{"PEND-5"}, Status: tc.status, Message: "why"}, false)
		if len(r.errors) != tc.errors || len(r.skips) != tc.skips {
			t.Errorf("%s: errors %q, skips %q", tc.status, r.errors, r.skips)
		}
		if tc.errors > 0 && !strings.Contains(r.errors[0], "[PEND-5] ") {
			t.Errorf("%s: %q does not name the clause", tc.status, r.errors[0])
		}
	}
	r := &tb{}
	judgeRun(r, report.Run{Verdict: report.VerdictImpl, Error: "connection reset", Findings: []string{"stale entry"}})
	if len(r.errors) != 2 {
		t.Errorf("run: errors %q, want the finding and the error", r.errors)
	}
	r = &tb{}
	judgeRun(r, report.Run{Verdict: report.VerdictPass})
	if len(r.errors) != 0 {
		t.Errorf("a passing run reported %q", r.errors)
	}
}
