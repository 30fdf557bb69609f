package lockstep_test

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/lockstep"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
)

// builtinRuntime is the built-in runtime around the reference with the
// mutants, as check --level runtime --mutant runs it.
func builtinRuntime(retry string, mutants ...reference.Mutant) func() loop.Runtime {
	newPort := reference.Factory(reference.Options{Mutants: mutants})
	return func() loop.Runtime {
		b, _ := loop.NewBuiltin(newPort(), retry)
		return b
	}
}

func TestRuntimeLockstepFindsNothingInTheBuiltinRuntime(t *testing.T) {
	for _, retry := range []string{loop.RetryPreStep, loop.RetrySameStep, loop.RetryNone} {
		res, err := lockstep.RunRuntime(context.Background(), lockstep.RuntimeOptions{NewImpl: builtinRuntime(retry), Seed: 1, Cases: 60, Steps: 12, Depth: 2, Out: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if res.Runtime != nil {
			t.Fatalf("retry %s: %s", retry, res.Runtime.Summary())
		}
	}
}

// TestRuntimeLockstepNamesEachMutantUnderItsClause searches each mutant
// put in the built-in runtime within RuntimeMutantBudget and wants a
// divergence named under the mutant's clause (RuntimeMutantProblems):
// every one a runtime can show, since the runtime protocol's minor 5 shows
// what a /plan reply announces (SVC-1) and tools a later prompt-assembly
// listener adds (EXIT-1).
func TestRuntimeLockstepNamesEachMutantUnderItsClause(t *testing.T) {
	for _, mi := range reference.Catalogue {
		t.Run(string(mi.Name), func(t *testing.T) {
			t.Parallel()
			problems, _, err := lockstep.RuntimeMutantProblems(context.Background(), mi, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range problems {
				t.Error(p)
			}
		})
	}
}

// TestRuntimeLockstepIsTheSameForAnyJobs: the output and the divergence are
// byte-identical for one worker and four.
func TestRuntimeLockstepIsTheSameForAnyJobs(t *testing.T) {
	run := func(jobs int) string {
		var out bytes.Buffer
		dir := t.TempDir()
		res, err := lockstep.RunRuntime(context.Background(), lockstep.RuntimeOptions{NewImpl: builtinRuntime(loop.RetryPreStep, reference.NoticeForcesStep), Seed: 3, Cases: 40, Steps: 12, Depth: 2, Out: dir, Output: &out, Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		if res.Runtime == nil {
			t.Fatal("no divergence")
		}
		return strings.ReplaceAll(out.String(), dir, "OUT")
	}
	if a, b := run(1), run(4); a != b {
		t.Fatalf("--jobs 1 and --jobs 4 differ:\n%s\n%s", a, b)
	}
}

// TestRuntimeExplorationFindsAForcedStep: every script up to depth 2
// finds a pending selection whose notice makes the loop run a step the
// runtime would skip (PEND-2).
func TestRuntimeExplorationFindsAForcedStep(t *testing.T) {
	res, err := lockstep.RunRuntime(context.Background(), lockstep.RuntimeOptions{NewImpl: builtinRuntime(loop.RetryPreStep, reference.NoticeForcesStep), Depth: 2, Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Runtime
	if d == nil || !slices.Contains(d.Clauses, "PEND-2") || !d.Stated || !d.Reproduced || !d.PassesReference {
		t.Fatalf("want a stated, reproduced PEND-2 divergence, got %+v", d)
	}
}

// keptInbox is the built-in runtime around the reference (with mutants)
// whose loop keeps its inbox across a restart and a load after an unload,
// and drops the messages a rejected step claimed: the other readings of
// where an idle selection's owed notice waits.
func keptInbox(mutants ...reference.Mutant) func() loop.Runtime {
	newPort := reference.Factory(reference.Options{Mutants: mutants})
	return func() loop.Runtime {
		b, _ := loop.NewBuiltin(newPort(), loop.RetryPreStep)
		b.KeepInboxAtRestart, b.KeepInboxAtLoad = true, true
		b.DropClaimedAtReject = true
		return b
	}
}

// TestRuntimeLockstepPassesEitherReadingOfTheOwedNotice: a runtime that
// keeps an idle selection's notice across a restart and a reload (as the
// Python example runtime across a reload and the dsh loop across a restart
// do) agrees with the silent point's other reading, while the same runtime
// narrating twice or narrating changes nobody owed still diverges under
// STEP-6: the silent point accepts the one owed notice, nothing more.
func TestRuntimeLockstepPassesEitherReadingOfTheOwedNotice(t *testing.T) {
	for seed := int64(1); seed <= 2; seed++ {
		res, err := lockstep.RunRuntime(context.Background(), lockstep.RuntimeOptions{NewImpl: keptInbox(), Seed: seed, Cases: 60, Steps: 12, Depth: 2, Out: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if res.Runtime != nil {
			t.Fatalf("seed %d: the inbox kept: %s", seed, res.Runtime.Summary())
		}
	}
	for _, m := range []reference.Mutant{reference.NarrateTwice, reference.NarrateAlways} {
		res, err := lockstep.RunRuntime(context.Background(), lockstep.RuntimeOptions{NewImpl: keptInbox(m), Seed: 1, Cases: 60, Steps: 12, Depth: 2, Out: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if d := res.Runtime; d == nil || !slices.Contains(d.Clauses, "STEP-6") {
			t.Fatalf("%s with the inbox kept: want a STEP-6 divergence, got %+v", m, d)
		}
	}
}

// TestRuntimeSearchOnSeveralWorkers: the runtime-level search on several
// workers, against mutants whose divergences are played again under the
// other readings of the owed notice (each worker looks the readings' sides
// up in one memo): it finds each mutant, explained by it, and does not
// crash. `plankit diff --level runtime --mutant idle-set-queues` died of
// "concurrent map read and map write" before the memo was guarded.
func TestRuntimeSearchOnSeveralWorkers(t *testing.T) {
	for _, m := range []reference.Mutant{reference.IdleSetQueues, reference.SelectionContinues, reference.NoticeForcesStep} {
		res, err := lockstep.RunRuntime(context.Background(), lockstep.RuntimeOptions{NewImpl: builtinRuntime(loop.RetryPreStep, m), Seed: 1, Cases: 60, Depth: 1, Jobs: 4, Out: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if res.Runtime == nil || !slices.ContainsFunc(res.Runtime.ExplainedBy, func(set []string) bool { return slices.Contains(set, string(m)) }) {
			t.Errorf("%s: want a divergence it explains, got %v", m, res.Runtime)
		}
	}
}
