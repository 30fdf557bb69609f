package sim

import (
	"testing"
)

// TestActionTableCoversTheUnion holds the table to Action: every field is
// one declared action with the field's JSON name, and each action reads
// its own field.
func TestActionTableCoversTheUnion(t *testing.T) {
	for _, p := range TableProblems() {
		t.Error(p)
	}
	if (Action{}).Name() != "" || (Action{}).Agent() != "" {
		t.Error("the empty action has a name or an agent")
	}
}

// TestActionAgents: an agent-scoped action names its agent from its own
// value; runtime-wide ones name none.
func TestActionAgents(t *testing.T) {
	for _, c := range []struct {
		act  Action
		want string
	}{
		{Action{Step: &StepAction{Agent: "a"}}, "a"},
		{Action{Retry: &StepAction{Agent: "b"}}, "b"},
		{Action{Prompt: &TextAction{Agent: "c"}}, "c"},
		{Action{Fork: &ForkAction{Agent: "d", As: "e"}}, "d"},
		{Action{Fold: &FoldAction{}}, ""},
		{Action{Restart: &struct{}{}}, ""},
		{Action{Fault: &FaultAction{Appends: 1}}, ""},
	} {
		if got := c.act.Agent(); got != c.want {
			t.Errorf("%s: agent %q, want %q", c.act, got, c.want)
		}
	}
}

// TestDrawnActionsAreTheirOwn: every draw makes an action of the kind that
// declares it.
func TestDrawnActionsAreTheirOwn(t *testing.T) {
	for _, plugin := range []bool{true, false} {
		drawOwn(t, fakeWorld{agents: []string{"main", "side"}, open: map[string]bool{"main": true}, retry: map[string]bool{}, plugin: plugin})
	}
}

func drawOwn(t *testing.T, w fakeWorld) {
	for _, k := range Actions() {
		for _, d := range k.Draws() {
			for seed := range 20 {
				act, ok := d.Make(w, &counter{n: seed})
				if ok && act.Name() != k.Name() {
					t.Errorf("draw %s of action %s made %s", d.Name, k.Name(), act)
				}
				if ok && !act.Ready(w) {
					t.Errorf("draw %s made %s, which is not ready", d.Name, act)
				}
			}
		}
	}
}

type fakeWorld struct {
	agents      []string
	open, retry map[string]bool
	plugin      bool
}

func (w fakeWorld) Agents() []string            { return w.agents }
func (w fakeWorld) Open(a string) bool          { return w.open[a] }
func (w fakeWorld) AwaitingRetry(a string) bool { return w.retry[a] }
func (w fakeWorld) Pending(a string) bool       { return a == "main" }
func (w fakeWorld) LogLen(string) int           { return 3 }
func (w fakeWorld) Plugin() bool                { return w.plugin }
func (w fakeWorld) Listeners() []string         { return []string{"audit"} }
func (w fakeWorld) HostTools() []string         { return []string{"read"} }
func (w fakeWorld) MalformedPlanMode() bool     { return true }

// counter is a Chooser that walks through choices deterministically.
type counter struct{ n int }

func (c *counter) Intn(_ string, n int) int {
	c.n = (c.n*7 + 3) % 1000003
	return c.n % n
}
