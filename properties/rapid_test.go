package properties

import (
	"fmt"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/trace"
	"pgregory.net/rapid"
)

// rapidChooser draws every choice from rapid, so rapid shrinks them.
type rapidChooser struct{ t *rapid.T }

func (c rapidChooser) Intn(label string, n int) int {
	return rapid.IntRange(0, n-1).Draw(c.t, label)
}

// machine is the rapid state machine of one property: its actions are the
// generator kinds (repeated by weight), its invariant compares the
// runtime's host-side state with the model after every action.
func machine(t *rapid.T, p *property, newPort func() sim.Port) {
	c := rapidChooser{t}
	s, f, err := startSession(p, newPort, DrawSetup(c))
	if err != nil {
		t.Fatalf("implementation could not be run: %v", err)
	}
	if f != nil {
		t.Fatal(f.String())
	}
	defer s.rt.Close()
	actions := map[string]func(*rapid.T){}
	for _, k := range Kinds {
		for i := range weight(p.weights, k) {
			actions[fmt.Sprintf("%s#%d", k.Name, i)] = func(t *rapid.T) {
				act, ok := k.Make(s.model, rapidChooser{t})
				if !ok || !s.model.Valid(act) {
					t.Skip("no valid " + k.Name)
				}
				f, err := s.do(act, p.expect)
				if err != nil {
					t.Fatalf("%s: %v", act, err)
				}
				if f != nil {
					b, _ := trace.Marshal(f.Setup.Trace("counterexample: "+p.Name, "", p.Clauses, entries(f)))
					t.Fatalf("%s\n%s", f, b)
				}
			}
		}
	}
	actions[""] = func(t *rapid.T) {
		for _, a := range s.model.Agents() {
			_, open := s.rt.Status(a)
			if open != s.model.Open(a) || s.rt.AwaitingRetry(a) != s.model.AwaitingRetry(a) {
				t.Fatalf("agent %s: runtime turn open=%v awaiting retry=%v, model %v %v", a, open, s.rt.AwaitingRetry(a), s.model.Open(a), s.model.AwaitingRetry(a))
			}
			if n := len(s.rt.Log(a)); n != s.model.LogLen(a) {
				t.Fatalf("agent %s: log has %d events, the model %d", a, n, s.model.LogLen(a))
			}
			if s.model.Fold(a, s.model.LogLen(a)) != s.model.Get(a).Active {
				t.Fatalf("agent %s: model state is not the fold of its log", a)
			}
		}
	}
	t.Repeat(actions)
}

func entries(f *Failure) []trace.Entry {
	out := make([]trace.Entry, len(f.Actions))
	for i, a := range f.Actions {
		out[i] = trace.Entry{Action: a}
	}
	x := f.Expect
	out[f.Index].Expect = &x
	return out
}

// TestPropertiesRapid runs every sequence property as a rapid state
// machine against the reference (-rapid.checks, -rapid.seed apply).
func TestPropertiesRapid(t *testing.T) {
	newPort := reference.Factory(reference.Options{})
	for i := range props {
		p := &props[i]
		if p.kind != "" {
			continue
		}
		t.Run(p.Name, rapid.MakeCheck(func(t *rapid.T) { machine(t, p, newPort) }))
	}
}

// TestPropertiesRapidChoices runs the model state machine against the
// reference with every alternative silent-point choice.
func TestPropertiesRapidChoices(t *testing.T) {
	alt := reference.AlternativeChoices()
	newPort := reference.Factory(reference.Options{Choices: alt})
	t.Run(NameStateMachine, rapid.MakeCheck(func(t *rapid.T) { machine(t, lookup(NameStateMachine), newPort) }))
}

// TestGenerateFindsMutant shows the generated model sequences catch a broken
// implementation (the inverse of TestPropertiesRapid: the checks can fail).
func TestGenerateFindsMutant(t *testing.T) {
	newPort := reference.Factory(reference.Options{Mutants: reference.Mutants{reference.AppendOnReject}})
	failed := false
	for seed := int64(1); seed <= 20 && !failed; seed++ {
		f, err := generate(lookup(NameStateMachine), newPort, NewPRNG(seed, "mutant"), 40)
		if err != nil {
			t.Fatal(err)
		}
		failed = f != nil
	}
	if !failed {
		t.Fatal("append-on-reject survived the model state machine")
	}
}
