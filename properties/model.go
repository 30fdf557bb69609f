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
	// alt is the model under the other reading of a silent point the
	// implementation leaves undeclared (idle-revert-notice=either: this
	// model predicts keep, alt net), advanced by the same actions. A run
	// passes while either reading explains every action so far (Settle);
	// nil once one reading is left.
	alt *Model
}

// NewModel returns the model of a fresh run.
func NewModel(s Setup, c Choices) *Model {
	m := &Model{Setup: s, Choices: c}
	for _, n := range s.Options().Agents {
		m.agents = append(m.agents, &agent{name: n})
	}
	if c.IdleRevertNotice == spec.IdleRevertNoticeEither || c.IdleRevertNotice == "" {
		net := c
		net.IdleRevertNotice = spec.IdleRevertNoticeNet
		m.alt = NewModel(s, net)
	}
	return m
}

// defers reports whether this model's reading defers the narration of a
// change committed outside a running step to the next accepted in-turn
// pre-step (idle-revert-notice=net); otherwise (keep, and the reading the
// model of either predicts first) the notice is queued at the commit.
func (m *Model) defers() bool { return m.Choices.IdleRevertNotice == spec.IdleRevertNoticeNet }

// agreesWithAlt reports whether the two readings of idle-revert-notice the
// model follows are in the same state: no notice of an idle commit waits in
// a queue (this model's keep) and none is owed (the alt's net). Only then
// do they part, so from such a state they predict the same for any action.
func (m *Model) agreesWithAlt() bool {
	for _, a := range m.agents {
		if slices.ContainsFunc(a.queue, func(q qmsg) bool { return q.notice }) {
			return false
		}
	}
	for _, a := range m.alt.agents {
		if a.owed {
			return false
		}
	}
	return true
}

// Undeclared reports whether the model still follows two readings of a
// silent point the implementation leaves undeclared.
func (m *Model) Undeclared() bool { return m.alt != nil }

// Settle keeps, of the two readings a model of an undeclared silent point
// follows, the ones that explained the last action: the model's own
// (ok) and its alt's (altOK). When only the alt's did, the model becomes
// the alt. It reports whether either reading did; a model with one
// reading reports ok.
func (m *Model) Settle(ok, altOK bool) bool {
	switch {
	case m.alt == nil:
		return ok
	case ok && altOK:
		return true
	case ok:
		m.alt = nil
		return true
	case altOK:
		rr := m.ReviewReplies
		*m = *m.alt
		m.ReviewReplies = rr
		return true
	}
	return false
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
	if m.alt != nil {
		b.WriteString("||" + m.alt.Key())
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
