package lockstep

import (
	"errors"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/rtrace"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// TestOwedNoticeAcrossReloadOrRestartIsASilentPoint replays the shrunk
// traces where independent runtimes narrated an idle selection's owed
// notice after a reload (the Python example) and after a restart (the dsh
// loop), and where the dsh loop dropped it with the messages of a step a
// host listener rejected, against the built-in runtime keeping (or
// dropping) its inbox there: the
// comparison with the default reading alone diverges as the traces record,
// and with the silent point's readings it passes. (That narrating twice or
// narrating changes nobody owed still diverges under STEP-6 is
// TestRuntimeLockstepPassesEitherReadingOfTheOwedNotice.)
func TestOwedNoticeAcrossReloadOrRestartIsASilentPoint(t *testing.T) {
	impl := func(atRestart, atLoad, dropped bool, mutants ...reference.Mutant) func() loop.Runtime {
		newPort := reference.Factory(reference.Options{Mutants: mutants})
		return func() loop.Runtime {
			b, _ := loop.NewBuiltin(newPort(), loop.RetryPreStep)
			b.KeepInboxAtRestart, b.KeepInboxAtLoad = atRestart, atLoad
			b.DropClaimedAtReject = dropped
			return b
		}
	}
	for _, c := range []struct {
		file                       string
		atRestart, atLoad, dropped bool
	}{
		{"testdata/python-runtime-notice-after-reload.yaml", false, true, false},
		{"testdata/dsh-runtime-notice-after-restart.yaml", true, false, false},
		// seed 1, case 31 of diff --level runtime against the dsh runtime
		{"testdata/dsh-runtime-notice-lost-at-rejected-step.yaml", false, false, true},
	} {
		tr, err := rtrace.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		compare := func(newImpl func() loop.Runtime, either bool) *rtFailure {
			t.Helper()
			rt := newImpl()
			id, err := rt.Start()
			if err != nil {
				t.Fatal(err)
			}
			rt.Stop()
			s, err := newRtSearcher(RuntimeOptions{NewImpl: newImpl}, id)
			if err != nil {
				t.Fatal(err)
			}
			s.oneReading = !either
			f, _, err := s.run(*tr)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
		if f := compare(impl(c.atRestart, c.atLoad, c.dropped), false); f == nil || f.diff.Observation != RtNotices {
			t.Fatalf("%s: with the default reading alone, want the notices divergence the trace records, got %+v", c.file, f)
		}
		if f := compare(impl(c.atRestart, c.atLoad, c.dropped), true); f != nil {
			t.Fatalf("%s: the notice kept is a reading of a silent point, got %s", c.file, f.diff)
		}
	}
}

// TestHeaderOnChangeIsTheLoopsNotOnlyTheComparisons replays the shrunk dsh
// trace where a selection's notice followed from a header the loop never
// logged: under header-on-change, plan mode judges a notice by the last
// header the loop logged (STEP-6), so the reference side's loop logs
// headers as the assumed loop does. The built-in runtime with that loop,
// the dsh loop's assembly order and section-source=pending, agrees with it.
func TestHeaderOnChangeIsTheLoopsNotOnlyTheComparisons(t *testing.T) {
	tr, err := rtrace.ReadFile("testdata/dsh-runtime-exit-not-narrated-after-failed-append.yaml")
	if err != nil {
		t.Fatal(err)
	}
	assume := []string{"assembly-before-pre-step", "header-on-change"}
	newPort := reference.Factory(reference.Options{Choices: reference.Choices{SectionSource: "pending"}})
	newImpl := func() loop.Runtime {
		b, _ := loop.NewBuiltin(newPort(), loop.RetryPreStep)
		b.Assembly, b.Headers = sim.AssemblyBefore, sim.HeadersOnChange
		return b
	}
	rt := newImpl()
	id, err := rt.Start()
	if err != nil {
		t.Fatal(err)
	}
	rt.Stop()
	s, err := newRtSearcher(RuntimeOptions{NewImpl: newImpl, Assume: assume}, id)
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := s.run(*tr)
	if err != nil {
		t.Fatal(err)
	}
	if f != nil {
		t.Fatalf("a loop logging headers on change, compared assuming it: %s", f.diff)
	}
}

// startFails is a runtime whose Start fails: it cannot be run.
type startFails struct{ loop.Runtime }

func (startFails) Start() (loop.Identity, error) {
	return loop.Identity{}, errors.New("the runtime did not start")
}

// TestARuntimeThatCannotRunUnderAReadingIsAnErrorNotADivergence: a script
// that diverges under the default reading is compared with the silent
// point's other readings: the reference side of each is played against
// what the runtime under test did, which is played once (the random search,
// the shrinker). The exhaustive search plays the runtime again under a
// reading that agrees, for the state's signature; when it cannot be run
// there, the search reports that error (exit 3), not the default reading's
// divergence, which the reading explains.
func TestARuntimeThatCannotRunUnderAReadingIsAnErrorNotADivergence(t *testing.T) {
	tr, err := rtrace.ReadFile("testdata/dsh-runtime-notice-after-restart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	newPort := reference.Factory(reference.Options{})
	calls := 0
	newImpl := func() loop.Runtime {
		calls++
		b, _ := loop.NewBuiltin(newPort(), loop.RetryPreStep)
		b.KeepInboxAtRestart = true
		if calls == 3 {
			// the first replay under another reading
			return startFails{b}
		}
		return b
	}
	rt := newImpl()
	id, err := rt.Start()
	if err != nil {
		t.Fatal(err)
	}
	rt.Stop()
	s, err := newRtSearcher(RuntimeOptions{NewImpl: newImpl}, id)
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := s.compare(newImpl, *tr, true)
	var ie *sim.ImplError
	if !errors.As(err, &ie) || f != nil {
		t.Fatalf("want the implementation error, got divergence %+v, error %v", f, err)
	}
	before := calls
	f, _, err = s.run(*tr)
	if err != nil || f != nil {
		t.Fatalf("without the state: want the divergence explained by a reading, got divergence %+v, error %v", f, err)
	}
	if calls != before+1 {
		t.Fatalf("the runtime under test was played %d times, want once", calls-before)
	}
}

// TestAssemblyBeforePreStepRunsListenersAfterTheAssembly replays the shrunk
// dsh trace (diff --level runtime, seed 1, case 59) where a host listener
// registered before plan mode selects plan mode at the first dispatch. A
// loop that assembles the prompt before it dispatches agent/pre-step (the
// assumed variant assembly-before-pre-step) runs that listener's code after
// the assembly: the step's request carries no plan:policy, and the next
// step's changed header is logged. The reference side ran the listener's
// code before the assembly.
func TestAssemblyBeforePreStepRunsListenersAfterTheAssembly(t *testing.T) {
	tr, err := rtrace.ReadFile("testdata/dsh-runtime-listener-selection-after-assembly.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tr.Steps[0].Expect = nil
	id := loop.Identity{Choices: map[string]string{spec.ChoiceSectionSource: spec.SectionSourcePending}, Capabilities: loop.Capabilities{Retry: loop.RetrySameStep}}
	newRef, err := RuntimeReference(id, []string{"assembly-before-pre-step", "header-on-change", "listener-appended"})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := loop.Run(newRef(), *tr)
	if err != nil {
		t.Fatal(err)
	}
	d := rec.Steps[0]
	if got := loop.SectionRendered(d); len(got) != 2 || got[0] || !got[1] {
		t.Fatalf("plan:policy per request: got %v, want [false true] (the first request was assembled before the listener's selection)", got)
	}
	headers := 0
	for _, e := range d.Obs.Events {
		if e.Type == spec.TypeRequestHeader {
			headers++
		}
	}
	if headers != 2 {
		t.Fatalf("request/header events: got %d, want 2 (the second request's header changed)", headers)
	}
}
