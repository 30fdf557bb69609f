package adapter_test

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/internal/proctest"
	"github.com/plankit/plankit/trace"
)

// randomTrace writes a random but well-formed script: it tracks each
// agent's turn state so that every action fits, and mixes in faults,
// restarts, reloads, forks, folds, commands and exit-tool reviews.
func randomTrace(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	state := map[string]string{"main": "idle"} // idle | open | running | retry
	agents := []string{"main"}
	var b strings.Builder
	fmt.Fprintf(&b, "name: random %d\n", seed)
	if r.IntN(3) == 0 {
		fmt.Fprintf(&b, "services: {commands: %s, userQuestions: %s}\n", pick("true", "false"), pick("true", "false"))
	}
	if r.IntN(3) == 0 {
		fmt.Fprintf(&b, "listeners:\n  - {name: guard, registered: %s}\n", pick("before", "after"))
	}
	b.WriteString("script:\n")
	for range 10 + r.IntN(30) {
		a := agents[r.IntN(len(agents))]
		opts := []string{"set", "set", "get", "fault", "fold", "reload"}
		switch state[a] {
		case "idle":
			opts = append(opts, "prompt", "prompt", "command", "restart", "fork")
		case "open":
			opts = append(opts, "step", "step", "step", "exit", "exit", "end", "command", "set", "failreq")
		case "running":
			opts = append(opts, "idle", "command")
		case "retry":
			opts = []string{"retry"}
		}
		switch pick(opts...) {
		case "prompt":
			fmt.Fprintf(&b, "  - prompt: {agent: %s, text: \"p\"}\n", a)
			state[a] = "open"
		case "step":
			d := pick("", "", ", decision: reject", ", decision: abort")
			fmt.Fprintf(&b, "  - step: {agent: %s%s}\n", a, d)
			if d != "" {
				state[a] = "idle"
			}
		case "failreq":
			fmt.Fprintf(&b, "  - step: {agent: %s, request: fail}\n", a)
			state[a] = "retry"
		case "retry":
			fmt.Fprintf(&b, "  - retry: {agent: %s}\n", a)
			state[a] = "open"
		case "exit":
			fmt.Fprintf(&b, "  - step: {agent: %s, model: {calls: [{name: exit_plan_mode, args: {plan: %q}, review: {answer: %s%s}}]}}\n",
				a, pick("# P", "x", "  # Q\n1"), pick("approve", "keep-planning", "dismiss"), pick("", "", ", feedback: fb", ", reload: true"))
		case "set":
			fmt.Fprintf(&b, "  - set: {agent: %s, active: %s}\n", a, pick("true", "false"))
		case "get":
			fmt.Fprintf(&b, "  - get: {agent: %s}\n", a)
		case "command":
			fmt.Fprintf(&b, "  - command: {agent: %s, input: %q}\n", a, pick("/plan", "/plan off", "/plan do it", "/plan  off "))
		case "end":
			fmt.Fprintf(&b, "  - end-turn: {agent: %s}\n", a)
			state[a] = "running"
		case "idle":
			fmt.Fprintf(&b, "  - idle: {agent: %s}\n", a)
			state[a] = "idle"
		case "fault":
			fmt.Fprintf(&b, "  - fault: {appends: %d}\n", 1+r.IntN(2))
		case "restart":
			b.WriteString("  - restart: {}\n")
			for x := range state {
				state[x] = "idle"
			}
		case "reload":
			b.WriteString("  - reload: {}\n")
		case "fork":
			n := fmt.Sprintf("a%d", len(agents))
			agents = append(agents, n)
			state[n] = "idle"
			fmt.Fprintf(&b, "  - fork: {agent: %s, as: %s}\n", a, n)
		case "fold":
			fmt.Fprintf(&b, "  - fold: {agent: %s, end: %d}\n", a, r.IntN(43)-2)
		}
	}
	return b.String()
}

// On random scripts the Python example and the served reference give the
// reference's timelines (the Python one but for its implementation line),
// with every message checked against the strict schemas.
func TestRandomScriptsMatchTheReference(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatalf("python3 is needed for the second-language example: %v", err)
	}
	python := newPool(t, adapter.Options{Command: []string{"python3", "adapter.py"}, Dir: "../examples/adapters/python", Validate: true})
	served := newPool(t, adapter.Options{Command: []string{plankitBin(t), "serve"}, Validate: true})
	ran := 0
	for seed := range uint64(60) {
		src := randomTrace(seed)
		tr, err := trace.Parse(fmt.Sprintf("random-%d.yaml", seed), []byte(src))
		if err != nil {
			t.Fatalf("seed %d: generated an invalid trace: %v\n%s", seed, err, src)
		}
		want, wantRun := timeline(t, tr, refPort())
		if wantRun.Err != nil {
			continue // a script the runtime refused; the generator keeps these rare
		}
		ran++
		got, run := timeline(t, tr, served.Port())
		if run.Err != nil || got != want {
			t.Fatalf("seed %d: served differs (err %v):\n%s\n--- served\n%s\n--- in-process\n%s", seed, run.Err, src, got, want)
		}
		got, run = timeline(t, tr, python.Port())
		if run.Err != nil || proctest.WithoutIdentity(got) != proctest.WithoutIdentity(want) {
			t.Fatalf("seed %d: python differs (err %v):\n%s\n--- python\n%s\n--- reference\n%s", seed, run.Err, src, got, want)
		}
	}
	if ran < 40 {
		t.Fatalf("only %d of 60 random scripts ran; the generator is off", ran)
	}
}
