package properties

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// qmsg is a message waiting in an agent's runtime queue: a user message or
// a plan-mode notice injected by an idle selection.
type qmsg struct {
	notice bool
	text   string
}

// intent is a pending selection; silent marks the exit tool's approved
// exit, which is never narrated (EXIT-5).
type intent struct {
	active bool
	silent bool
}

// mevent is one event of the model's copy of a session log.
type mevent struct {
	typ    string
	plan   bool // for plan/mode: its active value
	isPlan bool
}

// agent is the model's view of one agent.
type agent struct {
	name string
	log  []mevent
	// logged is the fold of the log (LOG-2/3).
	logged  bool
	pending *intent
	open    bool
	retry   bool // the last request failed and waits for a retry
	// continues: the turn's last step ended with tool calls, so the next
	// step continues after their results.
	continues bool
	// header is the logged state when the last request/header was logged
	// (nil before the first): what the model was last told (STEP-6).
	header *bool
	// shown is whether the last header rendered plan:policy (nil before
	// the first), which decides the header's reason.
	shown *bool
	// tools is whether the last header offered exit_plan_mode (nil before
	// the first): an unloaded plugin's header has no tools.
	tools *bool
	queue []qmsg
	// owed: under idle-revert-notice=net, the user's last change
	// committed outside a running step owes its narration to the next
	// accepted in-turn pre-step.
	owed bool
}

// Model is the abstract plan-mode system: SPEC.md's clauses over the
// simulated runtime, as small pure Go, independent of any implementation.
// It knows each action's preconditions (Valid) and predicts what the
// implementation must do (Apply).
type Model struct {
	Setup   Setup
	Choices Choices
	agents  []*agent
	fail    int // armed append faults
	// unloaded: the plugin was unloaded and not loaded again (SVC-2).
	unloaded bool
	// ReviewReplies: the implementation takes reviews scripted as the
	// seam's reply or failure (sim.Identity.ReviewReplies); without it no
	// such review is a valid action.
	ReviewReplies bool
	// alts are the model under the other readings of the silent points
	// the implementation leaves undeclared (the followed choices,
	// spec.Readings: this model follows the reference's reading), advanced
	// by the same actions. A run passes while one reading explains every
	// action so far (Settle); nil once one reading is left.
	alts []*Model
}

// NewModel returns the model of a fresh run. A followed choice the
// implementation leaves undeclared (spec.Either) is predicted as the
// reference's reading until an action can part its readings; there the
// model forks into one model per reading (fork), and Settle keeps those
// that explain what the implementation did.
func NewModel(s Setup, c Choices) *Model {
	m := &Model{Setup: s, Choices: c}
	for _, n := range s.Options().Agents {
		m.agents = append(m.agents, &agent{name: n})
	}
	return m
}

// MayPart reports whether an action can part the readings of a followed
// choice, whatever the state: an idle commit for idle-revert-notice (a set
// or a command; under empty-step=inject a step too), a /plan line with
// whitespace around its argument for plan-argument, a request for
// unloaded-header (it parts only while plan mode is unloaded), another
// writer's plan/mode for logged-pending. lockstep asks it of a sequence's
// actions to play only the readings that can part on it.
func MayPart(choice string, act sim.Action) bool {
	switch choice {
	case spec.ChoiceIdleRevertNotice:
		return act.Set != nil || act.Command != nil || act.Step != nil || act.Retry != nil
	case spec.ChoicePlanArgument:
		return act.Command != nil && spec.Padded(act.Command.Input)
	case spec.ChoiceUnloadedHeader:
		return act.Step != nil || act.Retry != nil
	case spec.ChoiceLoggedPending:
		return act.Append != nil && act.Append.Type == spec.TypePlanMode
	}
	return false
}

// parts reports whether act parts the readings of choice from this
// model's state.
func (m *Model) parts(choice string, act sim.Action) bool {
	if !MayPart(choice, act) {
		return false
	}
	switch choice {
	case spec.ChoiceIdleRevertNotice:
		return act.Set != nil || act.Command != nil || m.Choices.EmptyStep == spec.EmptyStepInject
	case spec.ChoiceUnloadedHeader:
		return !m.Plugin() && !m.Setup.NoPlugin
	case spec.ChoiceLoggedPending:
		a := m.agent(act.Append.Agent)
		return a != nil && a.pending != nil
	}
	return true
}

// followed are the followed choices the plugin-level model reads, each
// with its field of Choices.
var followed = []struct {
	name  string
	field func(*Choices) *string
}{
	{spec.ChoiceIdleRevertNotice, func(c *Choices) *string { return &c.IdleRevertNotice }},
	{spec.ChoicePlanArgument, func(c *Choices) *string { return &c.PlanArgument }},
	{spec.ChoiceUnloadedHeader, func(c *Choices) *string { return &c.UnloadedHeader }},
	{spec.ChoiceLoggedPending, func(c *Choices) *string { return &c.LoggedPending }},
}

// fork splits the model (and each alt) into one model per reading of each
// followed choice still undeclared that act parts: the model takes the
// reference's reading, the others become alts.
func (m *Model) fork(act sim.Action) {
	for _, f := range followed {
		if *f.field(&m.Choices) != spec.Either || !slices.ContainsFunc(append([]*Model{m}, m.alts...), func(x *Model) bool { return x.parts(f.name, act) }) {
			continue
		}
		c, _ := spec.LookupChoice(f.name)
		values := c.ValueNames()[1:]
		var alts []*Model
		for _, x := range append([]*Model{m}, m.alts...) {
			for _, v := range values[1:] {
				y := x.clone()
				*f.field(&y.Choices) = v
				alts = append(alts, y)
			}
		}
		for _, x := range m.alts {
			*f.field(&x.Choices) = values[0]
		}
		*f.field(&m.Choices) = values[0]
		m.alts = append(m.alts, alts...)
	}
}

// rejoin undoes forks that no longer part anything: where, for a followed
// choice, the model or an alt and its siblings (the same reading of every
// other choice) hold every value of the choice and are in one state, they
// predict the same until an action parts them again, so they become one
// model again with the choice undeclared (spec.Either). This keeps the
// explored states few.
func (m *Model) rejoin() {
	if len(m.alts) == 0 {
		return
	}
	for _, f := range followed {
		c, _ := spec.LookupChoice(f.name)
		values := len(c.Values) - 1
		all := append([]*Model{m}, m.alts...)
		groups := map[string][]int{}
		var order []string
		for i, x := range all {
			v := *f.field(&x.Choices)
			if v == spec.Either {
				continue
			}
			*f.field(&x.Choices) = "*"
			k := x.readingKey() + x.stateKey() + x.logKey()
			*f.field(&x.Choices) = v
			if _, ok := groups[k]; !ok {
				order = append(order, k)
			}
			groups[k] = append(groups[k], i)
		}
		drop := map[int]bool{}
		for _, k := range order {
			g := groups[k]
			if len(g) != values {
				continue
			}
			*f.field(&all[g[0]].Choices) = spec.Either
			for _, i := range g[1:] {
				drop[i] = true
			}
		}
		if len(drop) == 0 {
			continue
		}
		var kept []*Model
		for i, x := range all[1:] {
			if !drop[i+1] {
				kept = append(kept, x)
			}
		}
		m.alts = kept
	}
}

// clone is a deep copy of the model, without its alts.
func (m *Model) clone() *Model {
	c := *m
	c.alts = nil
	c.agents = make([]*agent, len(m.agents))
	for i, a := range m.agents {
		b := *a
		b.log = slices.Clone(a.log)
		b.queue = slices.Clone(a.queue)
		if a.pending != nil {
			p := *a.pending
			b.pending = &p
		}
		c.agents[i] = &b
	}
	return &c
}

// defers reports whether this model's reading defers the narration of a
// change committed outside a running step to the next accepted in-turn
// pre-step (idle-revert-notice=net); otherwise (keep, and the reading the
// model of either predicts first) the notice is queued at the commit.
func (m *Model) defers() bool { return m.Choices.IdleRevertNotice == spec.IdleRevertNoticeNet }

// Undeclared reports whether the model still follows more than one
// reading of the silent points the implementation leaves undeclared.
func (m *Model) Undeclared() bool { return len(m.alts) > 0 }

// Settle keeps, of the readings a model of undeclared silent points
// follows, the ones that explained the last action: the model's own (ok)
// and each of its alts' (altOK, in order). When the model's own did not,
// the first alt that did becomes the model. It reports whether any reading
// did; a model with one reading reports ok.
func (m *Model) Settle(ok bool, altOK []bool) bool {
	var kept []*Model
	for i, a := range m.alts {
		if altOK[i] {
			kept = append(kept, a)
		}
	}
	switch {
	case ok:
		m.alts = kept
	case len(kept) == 0:
		return false
	default:
		rr := m.ReviewReplies
		*m = *kept[0]
		m.alts = kept[1:]
		m.ReviewReplies = rr
		for _, a := range m.alts {
			a.alts = nil
		}
	}
	m.rejoin()
	return true
}

// readingKey names the model's values of the followed choices, which
// decide its future as its state does.
func (m *Model) readingKey() string {
	return fmt.Sprintf("[%s %s %s %s]", m.Choices.IdleRevertNotice, m.Choices.PlanArgument, m.Choices.UnloadedHeader, m.Choices.LoggedPending)
}

// Agents lists agent names in creation order.
func (m *Model) Agents() []string {
	out := make([]string, len(m.agents))
	for i, a := range m.agents {
		out[i] = a.name
	}
	return out
}

func (m *Model) agent(name string) *agent {
	for _, a := range m.agents {
		if a.name == name {
			return a
		}
	}
	return nil
}

// Key identifies the abstract state, for deduplication: everything that
// decides the future behaviour, but not log lengths.
func (m *Model) Key() string {
	k := m.readingKey() + m.stateKey()
	for _, a := range m.alts {
		k += "||" + a.readingKey() + a.stateKey()
	}
	return k
}

// stateKey is Key of this one reading, without the reading.
func (m *Model) stateKey() string {
	var b strings.Builder
	fmt.Fprintf(&b, "f%d", m.fail)
	if m.unloaded {
		b.WriteString("u")
	}
	for _, a := range m.agents {
		fmt.Fprintf(&b, "|%s:%v:%v:%v:%s:%s:%s:", a.name, a.logged, a.open, a.retry, intentKey(a.pending), boolKey(a.header), boolKey(a.shown))
		if m.Setup.EmptySteps == sim.EmptyStepsSkip {
			// Whether the next step continues after tool results decides
			// whether the runtime may skip it.
			fmt.Fprintf(&b, "c%v:", a.continues)
		}
		for _, q := range a.queue {
			if q.notice {
				b.WriteByte('n')
			} else {
				b.WriteString("u" + q.text + ";")
			}
		}
		if a.owed {
			b.WriteString(":o")
		}
	}
	return b.String()
}

// logKey is what a fold of any range of the agents' logs reads: each
// log's length and where its plan/mode events lie with their values. Two
// readings whose logs differ (a padded /plan steered as a message starts a
// turn the bare reading does not) stay apart, though their states agree.
func (m *Model) logKey() string {
	var b strings.Builder
	for _, a := range m.agents {
		fmt.Fprintf(&b, "|%s:%d", a.name, len(a.log))
		for i, e := range a.log {
			if e.isPlan {
				fmt.Fprintf(&b, ":%d=%v", i, e.plan)
			}
		}
	}
	return b.String()
}

func intentKey(p *intent) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%v%v", p.active, p.silent)
}

func boolKey(p *bool) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

// Get is the model's get(agent) (PEND-7).
func (m *Model) Get(name string) sim.GetReply {
	a := m.agent(name)
	g := sim.GetReply{Active: a.logged}
	if a.pending != nil {
		v := a.pending.active
		g.Pending = &v
	}
	return g
}

// Open reports whether the agent has an open turn.
func (m *Model) Open(name string) bool { a := m.agent(name); return a != nil && a.open }

// AwaitingRetry reports whether the agent's last request failed.
func (m *Model) AwaitingRetry(name string) bool { a := m.agent(name); return a != nil && a.retry }

// LogLen is the length of the agent's log.
func (m *Model) LogLen(name string) int { return len(m.agent(name).log) }

// Fold is foldPlanMode over the first end events of the agent's log.
func (m *Model) Fold(name string, end int) bool {
	a := m.agent(name)
	v := false
	for _, e := range a.log[:min(max(end, 0), len(a.log))] {
		if e.isPlan {
			v = e.plan
		}
	}
	return v
}

// Valid reports whether act fits the state: the runtime would accept it
// (no *sim.InputError).
func (m *Model) Valid(act sim.Action) bool {
	// An action valid under one reading of a followed choice and not
	// another (a turn a padded /plan message opened under one reading
	// only) is not drawn while both are followed.
	for _, a := range m.alts {
		if !a.valid(act) {
			return false
		}
	}
	return m.valid(act)
}

// valid is Valid under this model's own reading.
func (m *Model) valid(act sim.Action) bool {
	switch {
	case act.Load != nil && (len(act.Load.Config) > 0 || act.Load.Services != nil):
		return false // the model keeps the run's config and services
	case m.unloaded && (act.Set != nil || act.Get != nil || act.Reload != nil || act.Fold != nil):
		return false // the service is gone: set is refused, nothing to observe
	case !m.reviewsValid(act):
		return false // a review the implementation does not take
	}
	return modelled[act.Name()] && act.Ready(m)
}

// modelled are the actions the model predicts (Apply); it finds any other
// action invalid, so generators never draw it.
var modelled = map[string]bool{
	"prompt": true, "set": true, "get": true, "command": true, "step": true, "retry": true,
	"end-turn": true, "idle": true, "fault": true, "restart": true, "reload": true,
	"fork": true, "compact": true, "fold": true, "append": true, "open": true,
	"unload": true, "load": true,
}

// Plugin reports whether the plan-mode plugin is composed.
func (m *Model) Plugin() bool { return !m.unloaded && !m.Setup.NoPlugin }

// Pending reports whether a selection waits for the agent.
func (m *Model) Pending(name string) bool { a := m.agent(name); return a != nil && a.pending != nil }

// MalformedPlanMode reports whether outside writers may append plan/mode
// data with no boolean active (sim.World): only where the implementation
// declares what its fold does with it (choice plan-mode-malformed not
// either).
func (m *Model) MalformedPlanMode() bool {
	return m.Choices.PlanModeMalformed != spec.PlanModeMalformedEither && m.Choices.PlanModeMalformed != ""
}

// HostTools names the host's own tools of the run (sim.World).
func (m *Model) HostTools() []string {
	if !m.Setup.HostTools {
		return nil
	}
	return append(slices.Clone(HostTools), AssemblyTools...)
}

// auditListener is the host's own pre-step listener of every run: it
// adds AuditMessage to the step's messages before the plugin's listener.
var auditListener = sim.ListenerSpec{Name: AuditListener, Registered: "before", Messages: []string{AuditMessage}}

// Listeners implements sim.World: the host's listeners, without building
// the whole runtime options at each draw.
func (m *Model) Listeners() []string { return []string{auditListener.Name} }

// reviewsValid reports whether the action's scripted reviews are ones the
// implementation takes.
func (m *Model) reviewsValid(act sim.Action) bool {
	s := act.Step
	if s == nil {
		s = act.Retry
	}
	if s == nil || s.Model == nil || m.ReviewReplies {
		return true
	}
	for _, c := range s.Model.Calls {
		if c.Review != nil && c.Review.Extended() {
			return false
		}
	}
	return true
}
