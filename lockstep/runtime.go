package lockstep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/internal/shrinker"
	"github.com/plankit/plankit/internal/workers"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/rtrace"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// RuntimeOptions configure a runtime-level lockstep search: a whole
// runtime (its loop and its plan mode) against plankit's built-in runtime
// around the reference, on the same generated runtime scripts.
type RuntimeOptions struct {
	// NewImpl builds a fresh instance of the runtime under test.
	NewImpl func() loop.Runtime
	// NewImplFor, when set, builds the instance a random script runs on,
	// knowing its check (ID "lockstep/N"), as Options.NewImplFor.
	NewImplFor func(sim.Check) loop.Runtime
	// Assume names known deviations the reference side then follows:
	// reference variants (plankit mutants) and runtime variants
	// (RuntimeVariants).
	Assume []string
	Seed   int64
	// Cases random scripts of Steps steps (default 40), then every script
	// of the runtime alphabet up to Depth.
	Cases, Steps, Depth int
	Out                 string
	Output              io.Writer
	Jobs                int
}

// RuntimeVariant is a behaviour of a runtime's loop that the built-in
// runtime can follow: a known deviation (or option) of a shipped loop, which
// --assume and a manifest's assume: lines accept at runtime level.
type RuntimeVariant struct {
	Name, Clause, What string
}

// RuntimeVariants are the loop behaviours the built-in runtime follows when
// assumed (or tried when a divergence is classified).
var RuntimeVariants = []RuntimeVariant{
	{"same-step-retries", spec.STEP2, "request recovery retries inside the step: no agent/pre-step runs for the retry (the shipped dsh loop; a runtime that declares retry same-step gets it without assuming it)"},
	{"header-on-change", spec.STEP6, "the loop logs request/header only when the header changed, not for every request sent (the shipped dsh loop; SPEC.md's glossary: one for each request sent)"},
	{"assembly-before-pre-step", spec.STEP7, "the loop assembles the system prompt before it dispatches agent/pre-step, so a selection applied at that pre-step is not in the step's request (the shipped dsh loop)"},
}

// IsRuntimeVariant reports whether name is a runtime variant.
func IsRuntimeVariant(name string) bool {
	for _, v := range RuntimeVariants {
		if v.Name == name {
			return true
		}
	}
	return false
}

// LookupRuntimeAssumption checks that name is something a runtime-level
// search can assume: a runtime variant or a reference variant.
func LookupRuntimeAssumption(name string) error {
	if IsRuntimeVariant(name) {
		return nil
	}
	if _, err := reference.LookupMutant(name); err != nil {
		var names []string
		for _, v := range RuntimeVariants {
			names = append(names, v.Name)
		}
		return fmt.Errorf("%w; runtime variants: %s", err, strings.Join(names, ", "))
	}
	return nil
}

// RuntimeDivergence is the first observation on which the runtime under
// test and the built-in runtime around the reference differ, shrunk, named
// and classified.
type RuntimeDivergence struct {
	Diff
	Search string
	Case   int
	// Trace is the shrunk script; its last step (Index) diverged and
	// carries the reference's observation as its expectation when one can
	// state it.
	Trace       loop.Trace
	Index       int
	ExplainedBy [][]string
	// Path is the written trace file.
	Path                                string
	Stated, Reproduced, PassesReference bool
	// Recurs: the shrunk script played again diverges again. When it does
	// not, the runtime under test did not do the same on the same script
	// (or could not be run the first time): the divergence is neither
	// stated nor classified.
	Recurs bool
	// Cause is the first departure on the shrunk script, with get()
	// probed after every step, when it comes before the diverging step
	// (a state that departed at a step shows only later): the divergence
	// is named by its clauses (RuntimeDepart).
	Cause *RuntimeDeparture
}

// New reports whether no known variant explains the divergence.
func (d *RuntimeDivergence) New() bool { return d.Recurs && len(d.ExplainedBy) == 0 }

// StepName is the diverging step's name.
func (d *RuntimeDivergence) StepName() string {
	if len(d.Trace.Steps) == 0 {
		return "load"
	}
	return d.Trace.Steps[d.Index].Name()
}

// Summary is the divergence in one line.
func (d *RuntimeDivergence) Summary() string {
	class := classText(d.ExplainedBy)
	if !d.Recurs {
		class = "did not recur when played again"
	}
	return fmt.Sprintf("%s, step %d of %d (%s): %s; %s; trace %s", d.Search, d.Index+1, len(d.Trace.Steps), d.StepName(), d.Diff.String(), class, d.Path)
}

func classText(sets [][]string) string {
	if len(sets) == 0 {
		return "new"
	}
	return ExplainedText(sets)
}

// ExplainedText says in words which sets of known variants explain a
// divergence ("explained by a + b or c"); "" when none does.
func ExplainedText(sets [][]string) string {
	if len(sets) == 0 {
		return ""
	}
	var out []string
	for _, set := range sets {
		out = append(out, strings.Join(set, " + "))
	}
	return "explained by " + strings.Join(out, " or ")
}

// rtSearcher is one runtime-level search.
type rtSearcher struct {
	opts   RuntimeOptions
	id     loop.Identity
	newRef func() loop.Runtime
	// oneReading plays the default reading alone (tests show with it
	// what the other readings explain).
	oneReading bool
	// probing asks get() of every agent on both sides after every step
	// (RuntimeDepart): a state that departed at a step is named there.
	probing bool
	// sideOf memoizes the reference sides of the other readings (sides),
	// by their key; the search's workers share it, guarded by mu (a copy
	// of the searcher shares both).
	mu     *sync.Mutex
	sideOf map[string]func() loop.Runtime
	// hint is the key of the side that last agreed with the runtime,
	// tried first next time.
	hint *readingHint[string]
}

// side is a reference side under other readings, with its memo key.
type side struct {
	key    string
	newRef func() loop.Runtime
}

// newRtSearcher is the search of opts against the runtime id.
func newRtSearcher(opts RuntimeOptions, id loop.Identity) (*rtSearcher, error) {
	newRef, err := RuntimeReference(id, opts.Assume)
	if err != nil {
		return nil, err
	}
	return &rtSearcher{opts: opts, id: id, newRef: newRef, mu: &sync.Mutex{}, sideOf: map[string]func() loop.Runtime{}, hint: &readingHint[string]{}}, nil
}

// sides are the reference side under the other readings that can part on
// t: the loop's readings of where a between-turns selection's notice
// waits (its inbox outliving a restart, a load after an unload, a rejected
// step's claimed messages dropped: the silent point "an owed notice across
// a restart or a reload", docs/spec-choices.md), each with every reading of
// the followed choices the runtime leaves undeclared that can part on t
// (spec.Readings; partsScript). Under idle-revert-notice=net no notice
// waits in the inbox (it is told at a pre-step, in the step's messages),
// so the inbox readings do not part there: one side is enough. A script
// passes when it agrees with any reading.
func (s *rtSearcher) sides(t loop.Trace) ([]side, error) {
	if s.oneReading {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	decl := maps.Clone(s.id.Choices)
	if decl == nil {
		decl = map[string]string{}
	}
	for _, c := range spec.Choices {
		if v := decl[c.Name]; c.Followed && (v == "" || v == spec.Either) && !partsScript(c.Name, t) {
			decl[c.Name] = c.Values[1].Name // the built-in runtime's reading
		}
	}
	var out []side
	for i, d := range spec.Readings(decl, spec.LevelRuntime) {
		loops := []loopReading{{}}
		for _, k := range otherLoopReadings {
			if loopPartsScript(k, t) {
				loops = append(loops, k)
			}
		}
		if d[spec.ChoiceIdleRevertNotice] == spec.IdleRevertNoticeNet {
			loops = loops[:1]
		}
		if i == 0 {
			loops = loops[1:] // the first reading's default loop is s.newRef
		}
		for _, k := range loops {
			key := fmt.Sprint(sortedPairs(d), k)
			newRef, ok := s.sideOf[key]
			if !ok {
				id := s.id
				id.Choices = d
				var err error
				if newRef, err = runtimeReference(id, s.opts.Assume, k); err != nil {
					return nil, err
				}
				s.sideOf[key] = newRef
			}
			out = append(out, side{key, newRef})
		}
	}
	return out, nil
}

// loopPartsScript reports whether a loop reading can part from the
// default one on t: each way it keeps its inbox only where the script has
// what it is about (a restart, an unload, a step a listener or the script
// rejects or aborts).
func loopPartsScript(k loopReading, t loop.Trace) bool {
	var restart, unload, rejects, steers bool
	for _, st := range t.Steps {
		restart = restart || st.Restart != nil
		unload = unload || st.Unload != nil
		if sc := st.ScriptOf(); sc != nil {
			rejects = rejects || len(sc.PreSteps) > 0 || len(t.Listeners) > 0
			for h := range sc.HostActions() {
				steers = steers || h.Command != nil
			}
		}
	}
	return (!k.restart || restart) && (!k.load || unload) && (!k.droppedAtReject || rejects) && (!k.withdrawnAtUnload || unload) && (!k.steerContinues || steers)
}

func sortedPairs(m map[string]string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, k+"="+m[k])
	}
	return out
}

// partsScript reports whether the readings of a followed choice can part
// on a runtime script: an idle commit for idle-revert-notice (a set or a
// command, a step's or a host action's), a /plan line with whitespace
// around its argument for plan-argument, an unload for unloaded-header, an
// outside writer's plan/mode for logged-pending, and one after a fault was
// armed for fault-scope.
func partsScript(choice string, t loop.Trace) bool {
	var set, padded, unload, outside, afterFault, faults bool
	note := func(setOrCommand bool, input string, fault, plan bool) {
		set = set || setOrCommand
		padded = padded || setOrCommand && spec.Padded(input)
		faults = faults || fault
		outside = outside || plan
		afterFault = afterFault || plan && faults
	}
	for _, st := range t.Steps {
		input := ""
		if st.Command != nil {
			input = st.Command.Input
		}
		note(st.Set != nil || st.Command != nil, input, st.Fault != nil, st.Append != nil && st.Append.Type == spec.TypePlanMode)
		unload = unload || st.Unload != nil
		for h := range st.ScriptOf().HostActions() {
			input := ""
			if h.Command != nil {
				input = h.Command.Input
			}
			note(h.Set != nil || h.Command != nil, input, h.Fault != nil, h.Append != nil && h.Append.Type == spec.TypePlanMode)
		}
	}
	switch choice {
	case spec.ChoiceIdleRevertNotice:
		return set
	case spec.ChoicePlanArgument:
		return padded
	case spec.ChoiceUnloadedHeader:
		return unload
	case spec.ChoiceLoggedPending:
		return outside
	case spec.ChoiceFaultScope:
		return afterFault
	}
	return true
}

// RuntimeReference returns the built-in runtime around the reference as the
// runtime under test would be if it were faithful: its declared choices and
// retry behaviour, plus the assumed variants.
func RuntimeReference(id loop.Identity, assume []string) (func() loop.Runtime, error) {
	return runtimeReference(id, assume, loopReading{})
}

// loopReading is how the reference side's loop reads the silent point of
// the loop around plan mode: where it keeps its inbox — across a restart,
// across a load after an unload, and (unless dropped) the messages a
// rejected or aborted step claimed — whether it withdraws plan mode's
// notices from it at an unload, and whether a message steered during a
// turn's last response makes the turn go on.
type loopReading struct{ restart, load, droppedAtReject, withdrawnAtUnload, steerContinues bool }

// otherLoopReadings are the readings besides the default (the inbox
// emptied at a restart and a load, a rejected step's messages kept for a
// later step): every other combination.
var otherLoopReadings = func() []loopReading {
	var out []loopReading
	for _, restart := range []bool{false, true} {
		for _, load := range []bool{false, true} {
			for _, dropped := range []bool{false, true} {
				for _, withdrawn := range []bool{false, true} {
					for _, steer := range []bool{false, true} {
						if k := (loopReading{restart, load, dropped, withdrawn, steer}); k != (loopReading{}) {
							out = append(out, k)
						}
					}
				}
			}
		}
	}
	return out
}()

// runtimeReference is RuntimeReference whose loop keeps its inbox as keep
// says.
func runtimeReference(id loop.Identity, assume []string, keep loopReading) (func() loop.Runtime, error) {
	var plugin []string
	retry, assembly, headers := id.Capabilities.Retry, "", ""
	for _, name := range assume {
		switch name {
		case "same-step-retries":
			retry = loop.RetrySameStep
		case "assembly-before-pre-step":
			assembly = sim.AssemblyBefore
		case "header-on-change":
			// the loop logs a header only when it changed, and plan
			// mode judges a notice by the last logged one (STEP-6);
			// the comparison drops the repeats (rtSituation.headerOnChange)
			headers = sim.HeadersOnChange
		default:
			plugin = append(plugin, name)
		}
	}
	if retry == "" {
		retry = loop.RetryNone
	}
	if _, err := loop.NewBuiltin(nil, retry); err != nil {
		return nil, &sim.ImplError{Op: "start", Err: fmt.Errorf("the runtime declares a retry behaviour the built-in runtime does not know: %w", err)}
	}
	newPort, err := ReferenceFor(id.Choices, plugin)
	if err != nil {
		return nil, err
	}
	return func() loop.Runtime {
		b, _ := loop.NewBuiltin(newPort(), retry)
		b.Assembly, b.Headers = assembly, headers
		b.KeepInboxAtRestart, b.KeepInboxAtLoad = keep.restart, keep.load
		b.DropClaimedAtReject = keep.droppedAtReject
		b.WithdrawNoticesAtUnload = keep.withdrawnAtUnload
		b.SteerContinues = keep.steerContinues
		return b
	}, nil
}

// RunRuntime searches for the first divergence between a runtime and the
// built-in runtime around the reference: Cases random scripts, then every
// script of the runtime alphabet up to Depth. Errors are as Run's.
func RunRuntime(ctx context.Context, opts RuntimeOptions) (*Result, error) {
	out := withDefaults(&opts.Steps, opts.Output)
	id, err := identify[loop.Identity](opts.NewImpl())
	if err != nil {
		return nil, err
	}
	res := &Result{Implementation: sim.Identity{Name: id.Name, Version: id.Version, Language: id.Language, Choices: id.Choices},
		Assume: opts.Assume, Seed: opts.Seed, Cases: opts.Cases, Steps: opts.Steps, Depth: opts.Depth, runtime: true}
	for _, name := range opts.Assume {
		if err := LookupRuntimeAssumption(name); err != nil {
			return res, err
		}
	}
	s, err := newRtSearcher(opts, id)
	if err != nil {
		return res, err
	}
	fmt.Fprintf(out, "lockstep (runtime): %s %s against the built-in runtime around the reference (retry %s, %s), seed %d\n", safetext.Line(id.Name), safetext.Line(id.Version), safetext.Line(id.Capabilities.Retry), assumedText(opts.Assume), opts.Seed)
	d, err := searchBoth(ctx, out, res, s, fmt.Sprintf("scripts of %d steps", opts.Steps), "scripts")
	if d != nil {
		res.Runtime = d
	}
	return res, err
}

// finish classifies d by the known variants and writes its trace.
func (s *rtSearcher) finish(d *RuntimeDivergence) error {
	d.ExplainedBy = s.classify(d)
	if len(d.Trace.Steps) > 1 {
		// name it by its cause: an earlier step may have departed in a
		// state only a get shows
		if dep, err := RuntimeDepart(s.opts.NewImpl, s.opts.Assume, d.Trace); err == nil && dep != nil && dep.Index < d.Index {
			d.Cause, d.Clauses = dep, dep.Clauses
		}
	}
	return s.write(d)
}

// rtFailure is a divergence before shrinking: the steps run up to and
// including the diverging one, and what the runtime under test did.
type rtFailure struct {
	trace loop.Trace
	diff  *Diff
	imp   []loop.StepDone
	ref   []loop.StepDone
}

// run plays t on both sides, step by step, and returns the first
// divergence (nil: none). Steps the reference's session refuses before
// playing them (a get or set while plan mode is unloaded) are left out of
// both sides. ok is false when the reference refused a step mid-way: the
// script no longer fits (a shrink candidate).
func (s *rtSearcher) run(t loop.Trace) (f *rtFailure, sig string, err error) {
	return s.compare(s.opts.NewImpl, t, false)
}

// compare is run; with state, a script a reading other than the default
// explains also gets that reading's signature of the state it ends in (the
// exhaustive search merges states by it), which costs playing the runtime
// again.
func (s *rtSearcher) compare(newImp func() loop.Runtime, t loop.Trace, state bool) (f *rtFailure, sig string, err error) {
	f, sig, err = s.runWith(s.newRef, newImp, t)
	if f == nil || err != nil || f.diff.Observation == RtLoadError {
		// (the readings differ only in notices, which a load has none of)
		return f, sig, err
	}
	// The owed notice's silent point: a script the reference side plays
	// the same way under another reading (the inbox, and a notice in it,
	// kept across a restart or a load after an unload) agrees with that
	// reading. The readings differ only there, so every other divergence
	// remains. The divergence is reported on the script the default
	// reading played (f.trace leaves out the steps its reference side
	// refused, which no reading changes); a reading that agrees with the
	// runtime on that script explains it, as it would when the written
	// trace is played again. The runtime under test does on f.trace what
	// it did (f.imp), so only the reference side is played for each
	// reading (replayRuntime): the runtime is played again only for the
	// state's signature, to learn whether a reading that agrees there
	// agrees on the whole script.
	// (A divergence at load, or a step the runtime refused, is not a
	// record replayRuntime can compare: every reading plays both sides.)
	compared := f.diff.Observation != RtLoadError && f.diff.Observation != RtError
	sides, err := s.sides(t)
	if err != nil {
		return nil, "", err
	}
	agree := sides
	if compared {
		headerOnChange := slices.Contains(s.opts.Assume, "header-on-change")
		agree = nil
		if !state {
			// one agreeing reading is enough, whichever it is
			keys := make([]string, len(sides))
			for j, sd := range sides {
				keys[j] = sd.key
			}
			for _, j := range s.hint.first(keys) {
				if replayRuntime(sides[j].newRef, f.trace, f.imp, headerOnChange) {
					s.hint.note(keys[j])
					return nil, "", nil
				}
			}
			return f, sig, nil
		}
		// the state's signature is the first agreeing reading's: every
		// one is looked at, in the readings' order
		for _, kept := range sides {
			if replayRuntime(kept.newRef, f.trace, f.imp, headerOnChange) {
				agree = append(agree, kept)
			}
		}
		if len(agree) == 0 {
			return f, sig, nil
		}
	}
	for _, kept := range agree {
		g, sig2, err := s.runWith(kept.newRef, newImp, t)
		if err != nil {
			// the runtime could not be run under this reading: not a
			// divergence (the script never ran there), an error
			return nil, "", err
		}
		if g == nil {
			return nil, sig2, nil
		}
	}
	if compared {
		// a reading agrees on f.trace
		return nil, "", nil
	}
	for _, kept := range sides {
		g, _, err := s.runWith(kept.newRef, newImp, f.trace)
		if err != nil {
			return nil, "", err
		}
		if g == nil {
			return nil, "", nil
		}
	}
	return f, sig, nil
}

// runWith is run against the reference side newRef, the runtime under
// test built by newImp.
func (s *rtSearcher) runWith(newRef, newImp func() loop.Runtime, t loop.Trace) (f *rtFailure, sig string, err error) {
	played := t
	played.Steps = nil
	refSess, err := loop.Open(newRef(), played)
	if err != nil {
		return nil, "", fmt.Errorf("the built-in runtime around the reference could not start: %w", err)
	}
	defer refSess.Close()
	impSess, err := loop.Open(newImp(), played)
	if err != nil {
		if loop.IsSkip(err) {
			return nil, "", nil
		}
		return nil, "", implErr(err)
	}
	defer impSess.Close()
	if refSess.Loaded() != impSess.Loaded() {
		rr, ir := refSess.Record().Load, impSess.Record().Load
		d := &Diff{Observation: RtLoadError, Reference: show(rr.Error != ""), Implementation: show(ir.Error != ""), Clauses: rows(attribution.RowRtLoadConfig)}
		return &rtFailure{trace: played, diff: d}, "", nil
	}
	if !refSess.Loaded() {
		return nil, "", nil
	}
	tracker := situationOf(t, slices.Contains(s.opts.Assume, "header-on-change"))
	for _, st := range t.Steps {
		before := len(refSess.Record().Steps)
		cx := tracker
		if err := refSess.Do(st); err != nil {
			var in *sim.InputError
			if errors.As(err, &in) && len(refSess.Record().Steps) == before {
				continue
			}
			if errors.As(err, &in) {
				return nil, "", nil
			}
			return nil, "", fmt.Errorf("the built-in runtime around the reference failed: %w", err)
		}
		played.Steps = append(played.Steps, st)
		ierr := impSess.Do(st)
		refRec, impRec := refSess.Record(), impSess.Record()
		if ierr != nil {
			var in *sim.InputError
			if !errors.As(ierr, &in) {
				return nil, "", implErr(ierr)
			}
			cl := rows(attribution.RowRtErrorRefused)
			if cx.last == "set" || cx.last == "command" {
				// a selection left the runtime somewhere the reference
				// is not (a turn it started)
				cl = rows(attribution.RowRtErrorRefusedAfterSelection)
			}
			d := &Diff{Observation: RtError, Agent: st.Agent(), Reference: "the step runs", Implementation: "refused: " + in.Msg, Clauses: cl}
			return &rtFailure{trace: played, diff: d, imp: impRec.Steps, ref: refRec.Steps}, "", nil
		}
		r, i := refRec.Steps[len(refRec.Steps)-1], impRec.Steps[len(impRec.Steps)-1]
		if d := compareRuntime(cx, refRec, r, i); d != nil {
			if (d.Observation == RtOutcome || slices.Equal(d.Clauses, rows(attribution.RowRtRequestSections))) && !cx.unloaded {
				// an outcome or a section that follows from a state in
				// force that differs
				probeState(refSess, impSess, st.Agent(), d)
			}
			if slices.Equal(d.Clauses, rows(attribution.RowRtRequestSections)) && !cx.unloaded && staleRequest(impRec, i) {
				d.Clauses = merge(rows(attribution.RowRtRequestStale), d.Clauses)
			}
			return &rtFailure{trace: played, diff: d, imp: impRec.Steps, ref: refRec.Steps}, "", nil
		}
		tracker.after(st, r)
		if s.probing && !tracker.unloaded {
			if d := probeGets(tracker, refSess, impSess); d != nil {
				return &rtFailure{trace: played, diff: d, imp: impRec.Steps, ref: refRec.Steps}, "", nil
			}
		}
	}
	return nil, signature(refSess.Record(), tracker), nil
}

// probeGets asks get() of every agent on both sides after a step and
// names a state that differs by the step just played (cx has advanced
// past it): the active state by stateClauses, a pending selection by
// pendingClauses. The gets are the sessions' steps, not the script's.
func probeGets(cx rtSituation, ref, imp *loop.Session) *Diff {
	for _, agent := range ref.Record().Agents {
		probe := loop.Step{Get: &loop.AgentRequest{Agent: agent}}
		if ref.Do(probe) != nil || imp.Do(probe) != nil {
			return nil
		}
		r, i := ref.Last().Get, imp.Last().Get
		switch {
		case r == nil || i == nil || show(r) == show(i):
		case r.Active != i.Active:
			cl := cx.stateClauses(false)
			if foldFirst(ref.Record().Logs[agent], i.Active) {
				cl = merge(rows(attribution.RowRtStateFoldFirst), cl)
			}
			return &Diff{Observation: RtActive, Agent: agent, Reference: show(r), Implementation: show(i), Clauses: cl}
		default:
			return &Diff{Observation: RtGet, Agent: agent, Reference: show(r), Implementation: show(i), Clauses: cx.pendingClauses(r, i)}
		}
	}
	return nil
}

// RuntimeDeparture is where a failing runtime-level check's script first
// departed from the built-in runtime around the reference: the step whose
// observations, or the state get() showed after it, differed first.
type RuntimeDeparture struct {
	Diff
	// Index is the departing step of the script, from 0; Step is it.
	Index int
	Step  loop.Step
}

// String says which step departed, what SPEC.md requires there (its first
// clause's words) and what differed.
func (d *RuntimeDeparture) String() string {
	var b strings.Builder
	if d.Observation == RtLoadError {
		fmt.Fprintf(&b, "first departure at load: %s", d.Diff.String())
	} else {
		fmt.Fprintf(&b, "first departure at step %d (%s): %s", d.Index+1, d.Step.Name(), d.Diff.String())
	}
	if len(d.Clauses) > 0 {
		if c, ok := spec.Lookup(d.Clauses[0]); ok {
			fmt.Fprintf(&b, "; %s: %s", c.ID, c.Statement)
		}
	}
	return b.String()
}

// RuntimeDepart replays a script a runtime-level check played (a
// scenario's steps, a generated script) beside the built-in runtime around
// the reference — the runtime's choices and retry kind, the assumed
// variants, and every reading of the loop and of the followed choices
// that can part on it — asking get() of every agent after every step, and
// returns the first departure (under several readings the latest: the
// reading that agreed longest), named by the attribution table's runtime
// rows. Nil when the script agrees throughout.
func RuntimeDepart(newImpl func() loop.Runtime, assume []string, t loop.Trace) (*RuntimeDeparture, error) {
	id, err := identify[loop.Identity](newImpl())
	if err != nil {
		return nil, err
	}
	s, err := newRtSearcher(RuntimeOptions{NewImpl: newImpl, Assume: assume}, id)
	if err != nil {
		return nil, err
	}
	s.probing = true
	sides, err := s.sides(t)
	if err != nil {
		return nil, err
	}
	var best *RuntimeDeparture
	var bestRef func() loop.Runtime
	var played loop.Trace
	for _, sd := range append([]side{{newRef: s.newRef}}, sides...) {
		newRef := sd.newRef
		f, _, err := s.runWith(newRef, newImpl, t)
		if err != nil {
			return nil, err
		}
		if f == nil {
			return nil, nil // a reading explains the whole script
		}
		k := len(f.trace.Steps) - 1
		if best == nil || k > best.Index {
			var st loop.Step
			if k >= 0 {
				st = f.trace.Steps[k]
			}
			best, bestRef, played = &RuntimeDeparture{Diff: *f.diff, Index: max(k, 0), Step: st}, newRef, f.trace
		}
	}
	if best.Observation == RtGet && hidesPending(&best.Diff) && len(played.Steps) > 0 {
		// get shows nothing pending where the reference does after a
		// step: a selection the runtime dropped there is not appended by
		// the next turn either; one it only hides from get is (PEND-7)
		next := played
		next.Steps = append(slices.Clone(played.Steps), loop.Step{Turn: &loop.TurnRequest{Agent: best.Agent, Prompt: "Go on."}})
		plain := *s
		plain.probing = false
		// (a follow-up that cannot run leaves the naming as it is)
		if f, _, err := plain.runWith(bestRef, newImpl, next); err == nil && f == nil {
			best.Clauses = rows(attribution.RowRtGetHidden)
		}
	}
	if best.Observation == RtNotices && best.Step.ScriptOf() != nil && fewer(best.Implementation, best.Reference) {
		// a notice missing from the turn's step: one the runtime logs in
		// the next request instead is in the wrong step's messages
		// (STEP-7); one it never logs is not (STEP-6, the rows)
		next := played
		next.Steps = append(slices.Clone(played.Steps), loop.Step{Turn: &loop.TurnRequest{Agent: best.Agent, Prompt: "Go on."}})
		r, rok := lastAlone(bestRef, next)
		i, iok := lastAlone(newImpl, next)
		if rok && iok && loop.Notices(i) > loop.Notices(r) {
			best.Clauses = rows(attribution.RowRtNoticesLate)
		}
	}
	return best, nil
}

// fewer reports whether the count a rendered as a number is smaller than b's.
func fewer(a, b string) bool {
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	return err1 == nil && err2 == nil && x < y
}

// lastAlone plays t on one runtime alone and returns what its last step
// did; false when it could not play the whole script.
func lastAlone(newRt func() loop.Runtime, t loop.Trace) (loop.StepDone, bool) {
	opening := t
	opening.Steps = nil
	sess, err := loop.Open(newRt(), opening)
	if err != nil {
		return loop.StepDone{}, false
	}
	defer sess.Close()
	if !sess.Loaded() {
		return loop.StepDone{}, false
	}
	for _, st := range t.Steps {
		if sess.Do(st) != nil {
			return loop.StepDone{}, false
		}
	}
	last := sess.Last()
	if last == nil {
		return loop.StepDone{}, false
	}
	return *last, true
}

// hidesPending reports whether a differing get shows no pending selection
// where the reference shows one.
func hidesPending(d *Diff) bool {
	return strings.Contains(d.Reference, `"pending"`) && !strings.Contains(d.Implementation, `"pending"`)
}

// staleRequest reports whether a request the runtime sent in step d (the
// last step of rec) renders plan mode's section for the state before a
// plan/mode the step appended ahead of it, not for the fold of its own log
// when it was sent: the request was derived before the append it should
// reflect (STEP-7).
func staleRequest(rec loop.Record, d loop.StepDone) bool {
	log := rec.Logs[d.Step.Agent()]
	start := max(0, len(log)-len(d.Obs.Events))
	reading := spec.PlanModeReadingOf(rec.Identity.Choices)
	for _, q := range d.Obs.Requests {
		at := min(q.At, len(log))
		appended := at > start && slices.ContainsFunc(log[start:at], func(e sim.Event) bool { return e.Type == spec.TypePlanMode })
		shown := len(planSections(q.Sections)) > 0
		if appended && shown == sim.FoldPlanMode(log, start, reading) && shown != sim.FoldPlanMode(log, at, reading) {
			return true
		}
	}
	return false
}

// probeState tells a set outcome that follows from a state in force that
// differs (LOG-3, LOG-2: the state is not the fold of the log) from one
// that does not: it asks get of both sides after the step (the script
// ends at the divergence, so the probe changes nothing compared).
func probeState(ref, imp *loop.Session, agent string, d *Diff) {
	if agent == "" {
		return
	}
	probe := loop.Step{Get: &loop.AgentRequest{Agent: agent}}
	if ref.Do(probe) != nil || imp.Do(probe) != nil {
		return
	}
	r, i := ref.Last().Get, imp.Last().Get
	// the implementation's state is not the fold of its own log (an
	// active state it changed by the step itself, appending, is)
	log := imp.Record().Logs[agent]
	fold := sim.FoldPlanMode(log, len(log), spec.PlanModeReadingOf(imp.Record().Identity.Choices))
	if r != nil && i != nil && r.Active != i.Active && i.Active != fold {
		d.Clauses = merge(rows(attribution.RowRtProbe), d.Clauses)
		if foldFirst(ref.Record().Logs[agent], i.Active) {
			d.Clauses = merge(rows(attribution.RowRtStateFoldFirst), d.Clauses)
		}
	}
}

// foldFirst reports whether active, a runtime's state that is not the
// log's fold, is the value of the log's first plan/mode where the last's
// differs: the fold read the first event of the range, not the last
// (LOG-2), rather than a state kept beside the log (LOG-3).
func foldFirst(log []sim.Event, active bool) bool {
	var first, last *bool
	for _, e := range log {
		if e.Type != spec.TypePlanMode {
			continue
		}
		if v, ok := (spec.PlanModeReading{}).Read(e.Data); ok {
			if first == nil {
				first = &v
			}
			last = &v
		}
	}
	return first != nil && *first == active && *last != active
}

func implErr(err error) error {
	var ie *sim.ImplError
	if errors.As(err, &ie) {
		return err
	}
	return &sim.ImplError{Op: "runtime", Err: err}
}

// random compares Cases scripts drawn by suite.GenerateWide.
func (s *rtSearcher) random(ctx context.Context, res *Result) (*RuntimeDivergence, error) {
	configs := properties.Configs()
	outs := make([]*rtFailure, s.opts.Cases)
	errs := make([]error, s.opts.Cases)
	found := -1
	var firstErr error
	err := workers.Run(ctx, s.opts.Jobs, s.opts.Cases, func(i int) {
		r := rand.New(rand.NewPCG(uint64(s.opts.Seed), uint64(i)+1<<32))
		t := suite.GenerateWide(r, s.id.Capabilities, s.opts.Steps)
		switch r.IntN(16) {
		case 0, 1:
			t.Config = []byte(configs[r.IntN(len(configs))])
		case 2:
			// the commands service not composed (CMD-1)
			t.Services.Commands = false
		case 3:
			// no user-questions channel (EXIT-7)
			t.Services.UserQuestions = false
		}
		outs[i], _, errs[i] = s.compare(caseFactory(s.opts.NewImpl, s.opts.NewImplFor, i), t, false)
	}, func(i int) bool {
		res.Sequences++
		if errs[i] != nil {
			firstErr = errs[i]
			return false
		}
		if outs[i] != nil {
			found = i
			return false
		}
		outs[i] = nil
		return true
	})
	switch {
	case err != nil:
		return nil, err
	case firstErr != nil:
		return nil, firstErr
	case found < 0:
		return nil, nil
	}
	f, err := s.shrink(outs[found])
	if err != nil {
		return nil, err
	}
	return s.divergence(f, "random", found), nil
}

func (s *rtSearcher) divergence(f *rtFailure, search string, i int) *RuntimeDivergence {
	return &RuntimeDivergence{Diff: *f.diff, Search: search, Case: i, Trace: f.trace, Index: max(len(f.trace.Steps)-1, 0)}
}

// shrink removes steps, responses, calls, pre-steps and host actions while
// a divergence of the same observation kind remains (shrinker.Greedy over
// suite.Smaller), within a budget of replays.
func (s *rtSearcher) shrink(f *rtFailure) (*rtFailure, error) {
	best := f
	budget := 400
	_, err := shrinker.Greedy(f.trace, suite.Smaller, func(cand loop.Trace) (bool, error) {
		if budget <= 0 {
			return false, nil
		}
		budget--
		g, _, err := s.run(cand)
		if err != nil || g == nil || g.diff.Observation != best.diff.Observation {
			return false, err
		}
		best = g
		return true, nil
	})
	return best, err
}

// exhaustive compares every script of the runtime alphabet up to Depth,
// breadth first, merging scripts after which the reference's observed
// logs and state are the same; the first divergence is a shortest one.
func (s *rtSearcher) exhaustive(ctx context.Context, res *Result) (*RuntimeDivergence, error) {
	base, alphabet := loop.WideAlphabet(s.id.Capabilities)
	search := fmt.Sprintf("depth %d", s.opts.Depth)
	seen := map[string]bool{}
	level := [][]int{{}}
	res.States = 1
	for depth := 1; depth <= s.opts.Depth; depth++ {
		var cands [][]int
		for _, prefix := range level {
			for k := range alphabet {
				cands = append(cands, append(slices.Clone(prefix), k))
			}
		}
		type out struct {
			f   *rtFailure
			sig string
			err error
		}
		outs := make([]out, len(cands))
		var next [][]int
		var d *RuntimeDivergence
		var runErr error
		err := workers.Run(ctx, s.opts.Jobs, len(cands), func(i int) {
			t := base
			t.Name = fmt.Sprintf("runtime lockstep %s: %v", search, cands[i])
			for _, k := range cands[i] {
				t.Steps = append(t.Steps, alphabet[k])
			}
			f, sig, err := s.compare(s.opts.NewImpl, t, true)
			outs[i] = out{f, sig, err}
		}, func(i int) bool {
			o := outs[i]
			outs[i] = out{}
			res.Transitions++
			switch {
			case o.err != nil:
				runErr = o.err
				return false
			case o.f != nil:
				d = s.divergence(o.f, search, 0)
				return false
			case o.sig != "" && !seen[o.sig]:
				seen[o.sig] = true
				res.States++
				next = append(next, cands[i])
			}
			return true
		})
		switch {
		case err != nil:
			return nil, err
		case runErr != nil:
			return nil, runErr
		case d != nil:
			return d, nil
		}
		level = next
	}
	return nil, nil
}

// classify finds the smallest sets of known variants (one, then two),
// beyond the assumed ones, under which the reference side does exactly
// what the runtime under test did over the diverging script.
func (s *rtSearcher) classify(d *RuntimeDivergence) [][]string {
	f, _, err := s.run(d.Trace)
	if err != nil || f == nil {
		return nil
	}
	var candidates []string
	for _, v := range RuntimeVariants {
		if !slices.Contains(s.opts.Assume, v.Name) {
			candidates = append(candidates, v.Name)
		}
	}
	for _, m := range Known() {
		if !slices.Contains(s.opts.Assume, string(m.Name)) && appliesTo(s.id.Choices, string(m.Name)) {
			candidates = append(candidates, string(m.Name))
		}
	}
	explains := func(set ...string) bool {
		newRef, err := RuntimeReference(s.id, append(slices.Clone(s.opts.Assume), set...))
		all := append(slices.Clone(s.opts.Assume), set...)
		return err == nil && replayRuntime(newRef, f.trace, f.imp, slices.Contains(all, "header-on-change"))
	}
	return smallestExplaining(candidates, explains)
}

// appliesTo says whether a variant can show under the declared choices.
func appliesTo(choices map[string]string, name string) bool {
	s := &searcher{choices: choices}
	return s.applies(name)
}

// replayRuntime plays t on a fresh reference side and compares every step
// with what the runtime under test did (imp).
func replayRuntime(newRef func() loop.Runtime, t loop.Trace, imp []loop.StepDone, headerOnChange bool) bool {
	played := t
	played.Steps = nil
	sess, err := loop.Open(newRef(), played)
	if err != nil || !sess.Loaded() {
		if err == nil {
			sess.Close()
		}
		return false
	}
	defer sess.Close()
	tracker := situationOf(t, headerOnChange)
	for k, st := range t.Steps {
		if k >= len(imp) {
			return false
		}
		cx := tracker
		if err := sess.Do(st); err != nil {
			return false
		}
		rec := sess.Record()
		r := rec.Steps[len(rec.Steps)-1]
		if compareRuntime(cx, rec, r, imp[k]) != nil {
			return false
		}
		tracker.after(st, r)
	}
	return true
}

// write writes the divergence as a runtime trace whose diverging step
// carries the reference's observation as its expectation, then replays it
// against the runtime under test (it must fail there) and the reference
// side (it must pass).
func (s *rtSearcher) write(d *RuntimeDivergence) error {
	dir, err := traceDir(s.opts.Out)
	if err != nil {
		return err
	}
	f, _, err := s.run(d.Trace)
	if err != nil {
		return err
	}
	t := d.Trace
	t.Steps = append([]loop.Step{}, t.Steps...)
	note := " No runtime trace expectation can state this observation; the trace replays the script."
	d.Recurs = f != nil
	if f == nil {
		note = " Played again, the shrunk script agrees with the reference side: the runtime did not do the same on the same script; the trace replays it."
	}
	if f != nil && len(f.ref) > 0 && len(t.Steps) > 0 {
		if x, ok := expectOf(f.diff, f.ref[len(f.ref)-1]); ok {
			st := t.Steps[len(t.Steps)-1]
			st.Expect = &x
			t.Steps[len(t.Steps)-1] = st
			d.Stated = true
			note = ""
		}
	}
	assumed := assumedWith(s.opts.Assume)
	t.Name = "runtime lockstep divergence: " + d.Observation
	// The difference quotes what the runtime said: escaped for one line,
	// so the trace file holds it inert (safetext).
	t.Description = safetext.Line(fmt.Sprintf("Runtime lockstep divergence (%s, seed %d, case %d) shrunk to %d steps: at step %d the runtime and the built-in runtime around the reference%s differ on %s.%s",
		d.Search, s.opts.Seed, d.Case, len(t.Steps), d.Index+1, assumed, d.Diff.String(), note))
	b, err := rtrace.Marshal(t)
	if err != nil {
		return err
	}
	path, err := writeTrace(dir, "runtime-lockstep", s.opts.Seed, d.Case, d.Search, b)
	if err != nil {
		return err
	}
	d.Path = path
	d.Trace = t
	back, err := rtrace.ReadFile(path)
	if err != nil {
		return fmt.Errorf("the written runtime trace does not parse: %w", err)
	}
	if d.Stated {
		rec, err := loop.Run(s.opts.NewImpl(), *back)
		fs := loop.Expectations(rec)
		d.Reproduced = err == nil && len(fs) > 0
		rec, err = loop.Run(s.newRef(), *back)
		d.PassesReference = err == nil && len(loop.Verdict(*back, rec)) == 0
	} else {
		rec, err := loop.Run(s.newRef(), *back)
		d.PassesReference = err == nil && len(loop.Verdict(*back, rec)) == 0
	}
	return nil
}
