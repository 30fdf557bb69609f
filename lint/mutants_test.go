package lint_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/plankit/plankit/lint"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/render"
	"github.com/plankit/plankit/trace"
)

// logVisible lists the mutants whose deviation shows in a session log, the
// fixture trace that makes it show, and the clause the finding names. The
// clause is the mutant's own, except for fold-first: the plugin's fold is not
// logged, but a wrong fold renders a request that disagrees with the log.
var logVisible = []struct {
	mutant reference.Mutant
	trace  string
	clause string
}{
	{reference.PlanModeExtraField, "narration.yaml", "LOG-1"},
	{reference.DoubleAppend, "narration.yaml", "LOG-4"},
	{reference.NarrateAlways, "narration.yaml", "STEP-6"},
	{reference.NarrateTwice, "narration.yaml", "STEP-6"},
	{reference.SectionWrongOrder, "narration.yaml", "CFG-2"},
	{reference.SectionWhileInactive, "narration.yaml", "CFG-2"},
	{reference.ToolHiddenInactive, "narration.yaml", "EXIT-1"},
	{reference.FoldFirst, "narration.yaml", "CFG-2"},
	{reference.AppendOnReject, "reject-abort.yaml", "STEP-3"},
	{reference.AppendOnAbort, "reject-abort.yaml", "STEP-3"},
	{reference.AppendBeforeDownstream, "reject-abort.yaml", "STEP-3"},
	{reference.PlanWithoutHeading, "exit.yaml", "EXIT-3"},
	{reference.PlanHeadingAnyLevel, "heading.yaml", "EXIT-3"},
	{reference.ExitOutsidePlan, "exit.yaml", "EXIT-2"},
	{reference.PlanMessageNotSteered, "command.yaml", "CMD-3"},
	// A resumed process that ignores the log renders a request the log
	// contradicts (its restart happens at a load).
	{reference.ResumeIgnoresLog, "resume.yaml", "CFG-2"},
	// A mid-turn selection committed at once lands after the turn's last
	// step, where no pre-step runs: it was not kept pending (PEND-1).
	{reference.QueuedCommitsNow, "queued.yaml", "PEND-1"},
	// An approved exit appended during the exit tool's call lands inside
	// the step, while that call waits for its result.
	{reference.ApprovedExitAtOnce, "exit.yaml", "EXIT-5"},
	// A notice repeated at a retry is a second notice for one change.
	{reference.RetryRenarrates, "../../../examples/step-retry-notice-once.yaml", "STEP-6"},
	// A plugin that ignores another writer's plan/mode renders a request
	// the log contradicts.
	{reference.OutsideWritesIgnored, "outside.yaml", "CFG-2"},
}

// logInvisible lists the mutants no log can show, and why.
var logInvisible = map[reference.Mutant]string{
	reference.PendingSurvivesRestart:    "a restart between turns is not logged; a later append reads as a later selection",
	reference.NoopQueues:                "set outcomes are not logged",
	reference.CancelKeepsPending:        "set calls are not logged; the kept selection's append reads as a new selection",
	reference.IdleSetQueues:             "set calls are not logged; a queued idle selection's append reads as a mid-turn one",
	reference.GetHidesPending:           "get is not logged",
	reference.ListenerAppended:          "the listener order is not logged",
	reference.RetryNotObserved:          "a selection appended at a later step reads as a later selection",
	reference.FailedAppendBlocks:        "a failed append is not logged; the rejection reads as another listener's",
	reference.ConfigUnknownKeyIgnored:   "the plugin config is not logged",
	reference.ApproveWithFeedback:       "review answers are not logged",
	reference.KeepPlanningKeepsExit:     "review answers are not logged; the kept exit's append reads as an approval's",
	reference.ApprovalKeepsUserExit:     "set calls and review answers are not logged; the narrated exit reads as the user's own selection",
	reference.CommandUntrimmed:          "the padded argument is logged in command/run, but no lint rule reads /plan arguments yet",
	reference.RetryIgnoresFailedHeader:  "a retry's request is not logged apart from its header, so which header a notice was judged against does not show",
	reference.ReviewReadsAnyQuestion:    "review replies are not logged",
	reference.MultiSelectApproves:       "review replies are not logged",
	reference.UnloadKeepsPending:        "an unload and a load are not logged; the restored selection's append reads as a new selection",
	reference.ReplyAnnouncesEntering:    "the outcome a reply announces is not logged, only its wording, which checks never read",
	reference.NarrateExit:               "set calls are not logged; a user who cancels the approval and leaves plan mode again makes the same plan/mode, and that one is narrated",
	reference.ExitGateReadsPending:      "a tool failure's wording is not fixed, so a refused call reads as any failed call",
	reference.NoChannelApproves:         "the composed services are not logged",
	reference.ReloadApproves:            "a reload is not logged",
	reference.CommandWithoutService:     "the composed services are not logged",
	reference.OffKeepsPending:           "set calls are not logged; the kept entry's append reads as a new selection",
	reference.SelectionContinues:        "a step forced by a selection reads as an ordinary continuation step",
	reference.ApproveWithoutReview:      "review questions are not logged; the approval reads as the user's",
	reference.BarePlanToggles:           "the linter judges /plan arguments only for CMD-3 (a message is steered); a bare /plan leaving plan mode reads like a /plan off",
	reference.PlanModeBlocksSteps:       "a rejected step reads as another listener's rejection",
	reference.AssemblyToolsHiddenInPlan: "a log does not say which tools are the host's, and a host may change its own tools between requests, so a tool missing from a header reads as one the host did not offer",
	reference.HostToolsReorderedInPlan:  "a host may change its own tools between requests, so a reordered catalog reads as the host's own change",
	reference.HostToolsBlockedInPlan:    "a denied call's result reads as any failed tool call; the log does not say which tools are the host's",
	reference.NoticeForcesStep:          "whether the runtime would have skipped the step is not logged; a step that carries only a notice reads as one the runtime sends anyway",
}

// simLog runs a trace against the reference (with mutants) and returns its
// session logs as plankit sim --format jsonl writes them.
func simLog(t *testing.T, path string, ms reference.Mutants) []byte {
	t.Helper()
	return simLogWith(t, path, reference.Options{Mutants: ms})
}

func simLogWith(t *testing.T, path string, opts reference.Options) []byte {
	t.Helper()
	tr, err := trace.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	run := trace.Execute(tr, reference.NewPort(opts))
	if run.Err != nil {
		t.Fatalf("%s: %v", path, run.Err)
	}
	var b bytes.Buffer
	if err := render.Write(&b, "jsonl", run); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestEveryMutantIsClassified(t *testing.T) {
	for _, m := range reference.Catalogue {
		_, invisible := logInvisible[m.Name]
		visible := slices.ContainsFunc(logVisible, func(v struct {
			mutant reference.Mutant
			trace  string
			clause string
		}) bool {
			return v.mutant == m.Name
		})
		if visible == invisible {
			t.Errorf("mutant %s (%s): list it in exactly one of logVisible and logInvisible", m.Name, m.Clause)
		}
	}
}

// seenThroughAnotherClause lists the mutants whose broken clause is not
// itself logged, so their symptom is a finding of the clause the log does
// show: a wrong fold or an ignored log renders a request the log
// contradicts (CFG-2); a selection committed mid-turn lands inside a step
// (STEP-3).
var seenThroughAnotherClause = map[reference.Mutant]bool{
	reference.FoldFirst:            true,
	reference.ResumeIgnoresLog:     true,
	reference.QueuedCommitsNow:     true,
	reference.OutsideWritesIgnored: true,
}

func TestMutantLogsHaveFindings(t *testing.T) {
	for _, v := range logVisible {
		t.Run(string(v.mutant), func(t *testing.T) {
			path := filepath.Join("testdata/traces", v.trace)
			r := lint.Bytes(path, simLog(t, path, reference.Mutants{v.mutant}), lint.Options{})
			if !slices.Contains(r.Clauses(), v.clause) {
				t.Fatalf("mutant %s: want a %s finding, got %v:\n%s", v.mutant, v.clause, r.Clauses(), text(r))
			}
			if info, _ := reference.LookupMutant(string(v.mutant)); info.Clause != v.clause && !seenThroughAnotherClause[v.mutant] {
				t.Fatalf("mutant %s breaks %s, the table says %s", v.mutant, info.Clause, v.clause)
			}
		})
	}
}

// The fixture traces and every example trace, run against the faithful
// reference, give clean logs: the rules have no false findings there.
func TestFaithfulLogsAreClean(t *testing.T) {
	fixtures, _ := filepath.Glob("testdata/traces/*.yaml")
	examples, _ := filepath.Glob("../examples/*.yaml")
	if len(fixtures) < 4 || len(examples) == 0 {
		t.Fatalf("found %d fixtures and %d examples", len(fixtures), len(examples))
	}
	for _, path := range append(fixtures, examples...) {
		r := lint.Bytes(path, simLog(t, path, nil), lint.Options{})
		if c := lint.Code([]*lint.Report{r}); c != lint.ExitClean {
			t.Errorf("%s: exit %d:\n%s", path, c, text(r))
		}
		if r.Sessions == 0 {
			t.Errorf("%s: no session read", path)
		}
	}
}

// Every state line agrees with the reference's own fold at that header.
func TestStatesMatchTheReferenceFold(t *testing.T) {
	examples, _ := filepath.Glob("../examples/*.yaml")
	for _, path := range examples {
		tr, err := trace.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		run := trace.Execute(tr, reference.NewPort(reference.Options{}))
		var want []string
		for _, l := range run.Logs {
			for i, e := range l.Events {
				if e.Type == "request/header" {
					want = append(want, fmt.Sprint(reference.FoldPlanMode(l.Events, i)))
				}
			}
		}
		var b bytes.Buffer
		_ = render.Write(&b, "jsonl", run)
		var got []string
		for _, s := range lint.Bytes(path, b.Bytes(), lint.Options{}).States() {
			got = append(got, fmt.Sprint(*s.Active))
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: states %v, reference fold %v", path, got, want)
		}
	}
}

// With section-source=pending the section shows a selection whose append
// failed; the log cannot tell that from a CFG-2 breach, so the linter takes
// the implementation's declared choice.
func TestSectionSourcePendingChoice(t *testing.T) {
	path := "testdata/traces/append-failure.yaml"
	log := simLogWith(t, path, reference.Options{Choices: reference.Choices{SectionSource: "pending"}})
	if r := lint.Bytes(path, log, lint.Options{}); !slices.Equal(r.Clauses(), []string{"CFG-2"}) {
		t.Fatalf("default options: want a CFG-2 finding, got %v:\n%s", r.Clauses(), text(r))
	}
	if r := lint.Bytes(path, log, lint.Options{SectionSource: "pending"}); lint.Code([]*lint.Report{r}) != lint.ExitClean {
		t.Fatalf("section-source=pending: want clean:\n%s", text(r))
	}
	if err := (lint.Options{SectionSource: "later"}).Validate(); err == nil {
		t.Fatal("an unknown section-source value must be refused")
	}
}
