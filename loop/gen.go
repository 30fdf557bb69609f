package loop

import (
	"encoding/json"
	"fmt"

	"github.com/plankit/plankit/sim"
)

// Chooser is the source of a generated script's choices: a seeded
// *rand.Rand (plankit check, diff), or rapid's draws in tests (which
// shrink). IntN returns a value in [0, n).
type Chooser interface{ IntN(n int) int }

// Focus is what a generator stresses beyond the general mix of steps
// (a runtime-level property's focus); each stress only adds choices when it
// is on, so with none a generator draws what the general mix always drew.
type Focus struct {
	// Selections: turns carry more selections while the model streams.
	Selections bool
	// Reviews: the model calls exit_plan_mode more, among every plan shape
	// and more review outcomes, and sometimes no channel asks the user.
	Reviews bool
	// Recovery: restarts and reloads.
	Recovery bool
	// OutsideWrites: an outside writer appends plan/mode between turns
	// (and a fault, whose scope the protocol leaves to the runtime, is
	// then never armed inside a turn).
	OutsideWrites bool
	// Listeners: host listeners before and after plan mode at every
	// dispatch, taking the step's messages too.
	Listeners bool
}

// Gen is what a step's draw knows: the source of its choices, the
// capabilities of the runtime the script is for, whether the alphabet is
// the wider one plankit diff --level runtime compares on, the focus, and
// the script's setup. NewGen makes one and the script's setup.
type Gen struct {
	R     Chooser
	Caps  Capabilities
	Wide  bool
	Focus Focus
	// ids numbers the host actions and calls of the script.
	ids int
	// drawn counts the steps drawn by each draw's name.
	drawn map[string]int
	// plans and reviews are what exit_plan_mode calls present and how
	// the user answers.
	plans   []string
	reviews []sim.Review
}

// Listener names of generated scripts' setups: gate is registered after
// plan mode, guard (wide) and outer (focus Listeners) before it.
const (
	listenerGate  = "gate"
	listenerGuard = "guard"
	listenerOuter = "outer"
)

// AssemblyTool is the host tool the wide scripts have another
// prompt-assembly listener, registered after plan mode's, add to every
// request (capability assemblyTools): plan mode must leave it in the
// catalog, in plan mode or out of it (EXIT-1).
var AssemblyTool = HostTool{Name: "search", Assembly: true}

// GeneratedConfig is the plan-mode config of every generated script.
var GeneratedConfig = json.RawMessage(`{"section":"Plan first."}`)

// NewGen returns a generator for scripts of a runtime with caps, and the
// setup of the script it draws: the config, the services caps offers, the
// host tools and listeners the draws use.
func NewGen(r Chooser, caps Capabilities, wide bool, f Focus) (*Gen, Trace) {
	g := &Gen{R: r, Caps: caps, Wide: wide, Focus: f}
	t := Trace{Config: GeneratedConfig, Services: &sim.Services{Commands: caps.Commands, UserQuestions: caps.UserQuestions}}
	if caps.HostTools {
		t.HostTools = []HostTool{{Name: "read_file"}}
	}
	if caps.HostListeners {
		t.Listeners = []Listener{{Name: listenerGate, Position: "after"}}
		if wide {
			t.Listeners = append(t.Listeners, Listener{Name: listenerGuard, Position: "before"})
		}
		if f.Listeners {
			t.Listeners = append(t.Listeners, Listener{Name: listenerOuter, Position: "before"})
		}
	}
	if caps.HostTools && wide {
		// a second host tool, so their order in the catalog shows (EXIT-1)
		t.HostTools = append(t.HostTools, HostTool{Name: "write_file"})
	}
	if caps.HostTools && caps.AssemblyTools && wide {
		// one another prompt-assembly listener adds after plan mode's
		t.HostTools = append(t.HostTools, AssemblyTool)
	}
	// a complete plan and one with no heading; every shape an
	// implementation may misread (EXIT-3) in the wide alphabet and under
	// the Reviews focus
	g.plans = sim.Plans[:2]
	if wide || f.Reviews {
		g.plans = sim.Plans
	}
	// approve, keep planning, dismiss; with the Reviews focus an approval
	// with feedback, keep planning with feedback and a reload during the
	// review too, and sometimes no channel to ask the user (EXIT-7)
	g.reviews = []sim.Review{sim.Reviews[0], sim.Reviews[2], sim.Reviews[4]}
	if f.Reviews {
		g.reviews = append(g.reviews, sim.Reviews[1], sim.Reviews[3], sim.Reviews[5])
		t.Services.UserQuestions = caps.UserQuestions && r.IntN(4) != 0
	}
	return g, t
}

// ID numbers the script's next host action or call: prefix and a number.
func (g *Gen) ID(prefix string) string {
	g.ids++
	return fmt.Sprintf("%s%d", prefix, g.ids)
}

// Draw is one way generators draw a kind of step: the name a mix refers
// to it by, the capability the runtime must declare for it ("": none),
// and how it draws the step.
type Draw struct {
	Name  string
	Needs string
	Make  func(g *Gen) Step
}

// Weighted is a draw of a mix and its weight.
type Weighted struct {
	Draw   string
	Weight int
}

// Mix is what a generator draws a step from: draws by name with their
// weights, in the order a choice indexes them, and Fallback, drawn in the
// place of a draw the runtime lacks the capability for ("": none, Pick
// reports no step). A mix's order and weights fix its scripts: each pick
// is one choice over the weights' sum.
type Mix struct {
	Draws    []Weighted
	Fallback string
}

// Pick draws one step of the mix: one choice over the weights, then the
// chosen draw, or the fallback when the runtime lacks what the chosen one
// needs; ok is false when neither can be drawn. A draw the table does not
// have is a programming error.
func (g *Gen) Pick(m Mix) (Step, bool) {
	total := 0
	for _, w := range m.Draws {
		total += w.Weight
	}
	n := g.R.IntN(total)
	name := m.Fallback
	for _, w := range m.Draws {
		if n < w.Weight {
			name = w.Draw
			break
		}
		n -= w.Weight
	}
	for _, name := range []string{name, m.Fallback} {
		if name == "" {
			break
		}
		if d := DrawOf(name); d.Needs == "" || g.Caps.Has(d.Needs) {
			return g.make(d), true
		}
	}
	return Step{}, false
}

// Do draws one step with the named draw (which the runtime must have the
// capability for).
func (g *Gen) Do(name string) Step { return g.make(DrawOf(name)) }

// make draws with d and counts it.
func (g *Gen) make(d Draw) Step {
	if g.drawn == nil {
		g.drawn = map[string]int{}
	}
	g.drawn[d.Name]++
	return d.Make(g)
}

// Drawn counts the steps each draw drew, by name.
func (g *Gen) Drawn() map[string]int { return g.drawn }

// DrawOf is the table's draw of that name; an unknown name is a
// programming error.
func DrawOf(name string) Draw {
	for _, k := range StepKinds() {
		for _, d := range k.Draws() {
			if d.Name == name {
				return d
			}
		}
	}
	panic("loop: no step draw named " + name)
}

// Alphabet lists the steps the exhaustive searches combine, as far as
// caps allows, with the setup they need (AlphabetSetup): each kind's
// letters, in table order.
func Alphabet(caps Capabilities) (Trace, []Step) {
	var out []Step
	for _, k := range StepKinds() {
		a, _ := k.Letters(caps)
		out = append(out, a...)
	}
	return alphabetSetup(caps, false), out
}

// WideAlphabet is the alphabet plankit diff --level runtime and explore
// --level runtime combine, with the setup its steps need: Alphabet's
// steps, then each kind's wider letters, in table order.
func WideAlphabet(caps Capabilities) (Trace, []Step) {
	_, out := Alphabet(caps)
	for _, k := range StepKinds() {
		_, w := k.Letters(caps)
		out = append(out, w...)
	}
	return alphabetSetup(caps, true), out
}

// alphabetSetup is the setup of the alphabets' scripts: the generated
// config and the services caps offers, the host tool the letters call;
// in the wide alphabet the tool another prompt-assembly listener adds and
// the host listeners its letters script (gate after plan mode, guard
// before it).
func alphabetSetup(caps Capabilities, wide bool) Trace {
	t := Trace{Config: GeneratedConfig, Services: &sim.Services{Commands: caps.Commands, UserQuestions: caps.UserQuestions}}
	if caps.HostTools {
		t.HostTools = []HostTool{{Name: "read_file"}}
	}
	if !wide {
		return t
	}
	if caps.HostTools && caps.AssemblyTools {
		t.HostTools = append(t.HostTools, AssemblyTool)
	}
	if caps.HostListeners {
		t.Listeners = []Listener{{Name: listenerGate, Position: "after"}, {Name: listenerGuard, Position: "before"}}
	}
	return t
}
