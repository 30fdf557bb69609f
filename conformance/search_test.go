package conformance

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/plankit/plankit/lockstep"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

// rec is a testing.TB that records the failures the library reports
// instead of failing the test; everything else (its context, temporary
// directories) is the test's own.
type rec struct {
	testing.TB
	name           string
	errors, fatals []string
}

func (r *rec) Helper()                      {}
func (r *rec) Errorf(f string, args ...any) { r.errors = append(r.errors, fmt.Sprintf(f, args...)) }
func (r *rec) Fatalf(f string, args ...any) { r.fatals = append(r.fatals, fmt.Sprintf(f, args...)) }
func (r *rec) Name() string {
	if r.name != "" {
		return r.name
	}
	return r.TB.Name()
}
func (r *rec) failures() []string { return append(slices.Clone(r.fatals), r.errors...) }

// Diff finds a mutant's divergence, names its clause, writes its trace
// where the test says and says how to replay it against the
// implementation; that trace fails against the mutant and passes against
// the reference. Against the reference it finds nothing.
func TestDiffReportsADivergenceAndReplaysIt(t *testing.T) {
	out := t.TempDir()
	r := &rec{TB: t}
	res := Diff(r, DiffOptions{NewPort: cancelKeepsPending, Cases: 50, Depth: -1, Out: out})
	if len(r.fatals) > 0 || len(r.errors) != 1 || res == nil || res.Divergence == nil {
		t.Fatalf("Diff against cancel-keeps-pending: %q", r.failures())
	}
	d, msg := res.Divergence, r.errors[0]
	for _, want := range []string{"[PEND-5]", "class: known, explained by cancel-keeps-pending", "trace: " + d.Trace, fmt.Sprintf("conformance.Replay(t, newPort, %q)", d.Trace)} {
		if !strings.Contains(msg, want) {
			t.Errorf("the failure does not say %q:\n%s", want, msg)
		}
	}
	if filepath.Dir(d.Trace) != out {
		t.Errorf("the trace %s is not in the directory the test gave, %s", d.Trace, out)
	}
	again := &rec{TB: t}
	Replay(again, cancelKeepsPending, d.Trace)
	if len(again.errors) == 0 || !strings.Contains(again.errors[0], "state.pending") {
		t.Errorf("the trace replayed against the mutant: %q, want its expectation to fail", again.failures())
	}
	ref := &rec{TB: t}
	if Replay(ref, conforming, d.Trace); len(ref.failures()) > 0 {
		t.Errorf("the trace replayed against the reference: %q", ref.failures())
	}

	clean := &rec{TB: t}
	if res := Diff(clean, DiffOptions{NewPort: conforming, Cases: 20, Depth: 2, Out: t.TempDir()}); len(clean.failures()) > 0 || res.Divergence != nil || res.Sequences != 20 {
		t.Errorf("Diff against the reference: %q, %d sequences", clean.failures(), res.Sequences)
	}
	bad := &rec{TB: t}
	if Diff(bad, DiffOptions{NewPort: conforming, Cases: -1, Depth: -1}); len(bad.fatals) != 1 || !strings.Contains(bad.fatals[0], "no search") {
		t.Errorf("Diff with nothing to search: %q", bad.failures())
	}
}

// Explore finds a mutant's shortest violation, names the clause of the
// observation that diverges from the reference, and writes the trace.
func TestExploreReportsAViolation(t *testing.T) {
	r := &rec{TB: t}
	out := t.TempDir()
	ex := Explore(r, ExploreOptions{NewPort: cancelKeepsPending, Depth: 3, Out: out})
	if len(r.fatals) > 0 || len(r.errors) != 1 || ex.Violation == nil {
		t.Fatalf("Explore against cancel-keeps-pending: %q", r.failures())
	}
	if !slices.Equal(ex.Clauses, []string{"PEND-5"}) || !strings.Contains(r.errors[0], "clauses: PEND-5") || filepath.Dir(ex.Trace) != out ||
		!strings.Contains(r.errors[0], fmt.Sprintf("conformance.Replay(t, newPort, %q)", ex.Trace)) {
		t.Errorf("clauses %v, trace %s:\n%s", ex.Clauses, ex.Trace, r.errors[0])
	}
	clean := &rec{TB: t}
	if ex := Explore(clean, ExploreOptions{NewPort: conforming, Depth: 2}); len(clean.failures()) > 0 || ex.Violation != nil || ex.States < 2 {
		t.Errorf("Explore against the reference: %q, %d states", clean.failures(), ex.States)
	}
}

// An input is read as a sequence the model finds valid, the same every
// time; the empty input is the setup alone.
func TestFuzzInputsDecodeToValidSequences(t *testing.T) {
	id := sim.Identity{Capabilities: reference.Capabilities}
	if _, acts := decode(nil, id, 40); len(acts) != 0 {
		t.Errorf("the empty input drew %d actions", len(acts))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		data := make([]byte, rng.IntN(120))
		for i := range data {
			data[i] = byte(rng.IntN(256))
		}
		s1, a1 := decode(data, id, 40)
		s2, a2 := decode(data, id, 40)
		if s1 != s2 || fmt.Sprint(a1) != fmt.Sprint(a2) {
			t.Fatalf("input %x decoded two ways", data)
		}
		if len(a1) > 40 {
			t.Fatalf("input %x drew %d actions, more than 40", data, len(a1))
		}
	}
}

// A failing input names the divergence; replayed (a seed corpus entry,
// named as Go names it) it is written as a plankit trace under the
// target's directory; in a fuzzing worker nothing is written. Against the
// reference the same input passes.
func TestFuzzFailsADivergingInputAndWritesIt(t *testing.T) {
	newPort := declared(cancelKeepsPending, nil)
	id, err := start(newPort)
	if err != nil {
		t.Fatal(err)
	}
	// The first of a fixed series of inputs whose sequence diverges.
	rng := rand.New(rand.NewPCG(3, 4))
	var input []byte
	for range 2000 {
		data := make([]byte, 8+rng.IntN(60))
		for i := range data {
			data[i] = byte(rng.IntN(256))
		}
		setup, acts := decode(data, id, 40)
		if d, err := lockstep.Attribute(newPort, nil, setup, acts); err != nil {
			t.Fatal(err)
		} else if d != nil {
			input = data
			break
		}
	}
	if input == nil {
		t.Fatal("no input of the series diverges against cancel-keeps-pending")
	}

	worker := &fuzzer{newPort: newPort, steps: 40, out: t.TempDir(), worker: true}
	r := &rec{TB: t, name: "FuzzPlanMode"}
	worker.one(r, input)
	if len(r.fatals) != 1 || !strings.Contains(r.fatals[0], "testdata/fuzz/FuzzPlanMode") || !strings.Contains(r.fatals[0], "PEND-5") {
		t.Errorf("in a worker: %q", r.failures())
	}
	if files, _ := os.ReadDir(worker.out); len(files) != 0 {
		t.Errorf("a worker wrote %d files", len(files))
	}

	replay := &fuzzer{newPort: newPort, steps: 40, out: t.TempDir()}
	r = &rec{TB: t, name: "FuzzPlanMode/5d8e0f0a1b2c3d4e"}
	replay.one(r, input)
	trace := filepath.Join(replay.out, "lockstep-fuzz-5d8e0f0a1b2c3d4e.yaml")
	if len(r.fatals) != 1 || !strings.Contains(r.fatals[0], "trace: "+trace) || !strings.Contains(r.fatals[0], "go test -run='^FuzzPlanMode/5d8e0f0a1b2c3d4e$'") {
		t.Fatalf("replayed: %q", r.failures())
	}
	again := &rec{TB: t}
	if Replay(again, cancelKeepsPending, trace); len(again.errors) == 0 {
		t.Errorf("the written trace passes against the mutant")
	}

	ref := &fuzzer{newPort: declared(conforming, nil), steps: 40, out: t.TempDir()}
	r = &rec{TB: t, name: "FuzzPlanMode/x"}
	if ref.one(r, input); len(r.failures()) > 0 {
		t.Errorf("against the reference: %q", r.failures())
	}
}

// Test's message for a failing check names the clauses the report counts
// it under, not the clauses it is tagged with: a reply that announces the
// wrong outcome is SVC-1's, whatever the check covers (it named CMD-3
// CMD-4 while the table counted SVC-1). A property's says how to replay
// its counterexample against the implementation.
func TestTestNamesTheClausesTheReportCounts(t *testing.T) {
	mutant := reference.Factory(reference.Options{Mutants: reference.Mutants{reference.ReplyAnnouncesEntering}})
	rep := mustRun(t, Options{NewPort: mutant, Seed: 1, Checks: 10, CounterexampleDir: t.TempDir()})
	found := map[string]bool{}
	for _, c := range rep.Cases {
		if !c.Failing() {
			continue
		}
		r := &tb{}
		judgeCase(r, c, false)
		want := "[" + strings.Join(c.FailedClauses(), " ") + "] "
		if len(r.errors) != 1 || !strings.HasPrefix(r.errors[0], want) {
			t.Errorf("%s: %q, want it to start %q", c.ID, r.errors, want)
			continue
		}
		if strings.HasPrefix(c.ID, "cmd-off-other-case-or-trailing-text-is-a-message") {
			found["scenario"] = true
			if want != "[SVC-1] " {
				t.Errorf("%s is counted under %v, want SVC-1", c.ID, c.FailedClauses())
			}
		}
		if c.Kind == report.KindProperty {
			found["property"] = true
			if hint := fmt.Sprintf("conformance.Replay(t, newPort, %q)", c.Counterexample); c.Counterexample == "" || !strings.Contains(r.errors[0], hint) {
				t.Errorf("%s: no replay hint %q in %q", c.ID, hint, r.errors[0])
			}
			if strings.Contains(r.errors[0], "plankit sim") {
				t.Errorf("%s: the message names a plankit command: %q", c.ID, r.errors[0])
			}
		}
	}
	if !found["scenario"] || !found["property"] {
		t.Errorf("failing checks seen: %v, want a /plan reply scenario and a property", found)
	}
}

// declaring is the reference declaring fewer capabilities than it has,
// counting the requests that need the others.
type declaring struct {
	sim.Port
	caps                 sim.Capabilities
	unloads, hostLoads   *atomic.Int32
	gate                 sim.ToolGate
	preTools, emptySteps *atomic.Int32
}

func (d declaring) Start() (sim.Identity, error) {
	id, err := d.Port.Start()
	id.Capabilities = d.caps
	return id, err
}
func (d declaring) Unload() (sim.LoadReply, error) { d.unloads.Add(1); return d.Port.Unload() }
func (d declaring) Load(r sim.LoadRequest) (sim.LoadReply, error) {
	if len(r.HostTools) > 0 {
		d.hostLoads.Add(1)
	}
	return d.Port.Load(r)
}
func (d declaring) PreTool(r sim.PreToolRequest) (sim.PreToolReply, error) {
	d.preTools.Add(1)
	return d.gate.PreTool(r)
}
func (d declaring) PreStep(r sim.PreStepRequest) (sim.PreStepReply, error) {
	if r.SkipsEmpty {
		d.emptySteps.Add(1)
	}
	return d.Port.PreStep(r)
}

// A Go implementation that does not declare a capability is never sent a
// request that needs it, as over the adapter: the checks that need it are
// skipped, naming the capability, never failed. Declared, they run.
func TestUndeclaredCapabilitiesAreNotAsked(t *testing.T) {
	var unloads, hostLoads, preTools, emptySteps atomic.Int32
	counting := func(caps sim.Capabilities) func() sim.Port {
		return func() sim.Port {
			p := conforming()
			return declaring{Port: p, caps: caps, gate: p.(sim.ToolGate), unloads: &unloads, hostLoads: &hostLoads, preTools: &preTools, emptySteps: &emptySteps}
		}
	}
	fewer := reference.Capabilities
	fewer.Unload, fewer.HostTools, fewer.EmptySteps = false, false, false
	rep := mustRun(t, Options{NewPort: counting(fewer), Seed: 1, Checks: 10})
	if rep.Verdict != report.VerdictPass || unloads.Load()+hostLoads.Load()+preTools.Load()+emptySteps.Load() != 0 {
		t.Errorf("verdict %s; asked %d unloads, %d loads with host tools, %d tool gates, %d steps that skip when empty",
			rep.Verdict, unloads.Load(), hostLoads.Load(), preTools.Load(), emptySteps.Load())
	}
	for _, c := range rep.Cases {
		if c.ID == "svc-unload-takes-everything" && (c.Status != report.Skipped || !strings.Contains(c.Message, "unload capability")) {
			t.Errorf("%s: %s %q, want skipped for the unload capability", c.ID, c.Status, c.Message)
		}
	}
	// The searches draw unload too; against an implementation that does not
	// declare it they stop each sequence there, and find nothing.
	r := &rec{TB: t}
	Diff(r, DiffOptions{NewPort: counting(fewer), Cases: 30, Depth: 2})
	Explore(r, ExploreOptions{NewPort: counting(fewer), Depth: 3})
	if len(r.failures()) > 0 || unloads.Load() != 0 {
		t.Errorf("searches without the unload capability: %q, %d unloads asked", r.failures(), unloads.Load())
	}
	rep = mustRun(t, Options{NewPort: counting(reference.Capabilities), Seed: 1, Checks: 10})
	if rep.Verdict != report.VerdictPass || unloads.Load() == 0 || hostLoads.Load() == 0 || preTools.Load() == 0 || emptySteps.Load() == 0 {
		t.Errorf("declared: verdict %s; asked %d unloads, %d loads with host tools, %d tool gates, %d steps that skip when empty",
			rep.Verdict, unloads.Load(), hostLoads.Load(), preTools.Load(), emptySteps.Load())
	}
}

// A failing scenario's message says how to run it alone, and that runs it
// alone and fails it again.
func TestAFailingScenarioSaysHowToRunItAlone(t *testing.T) {
	rep := mustRun(t, Options{NewPort: cancelKeepsPending, Seed: 1, Tags: "@PEND-5"})
	for _, c := range rep.Cases {
		if !c.Failing() || c.Kind != report.KindScenario {
			continue
		}
		r := &tb{}
		judgeCase(r, c, false)
		tags := regexp.MustCompile(`run it alone: the same Options with Tags: "(@id:[^"]+)"`).FindStringSubmatch(strings.Join(r.errors, "\n"))
		if tags == nil {
			t.Fatalf("%s: %q says nothing of running it alone", c.ID, r.errors)
		}
		again := mustRun(t, Options{NewPort: cancelKeepsPending, Seed: 1, Tags: tags[1]})
		if len(again.Cases) == 0 || !slices.ContainsFunc(again.Cases, func(k report.Case) bool { return k.ID == c.ID && k.Failing() }) {
			t.Errorf("%s alone with %s: %d checks, not failing it", c.ID, tags[1], len(again.Cases))
		}
		return
	}
	t.Fatal("no scenario failed against cancel-keeps-pending")
}
