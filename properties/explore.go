package properties

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// ExploreOptions configure a bounded exhaustive exploration.
type ExploreOptions struct {
	NewPort func() sim.Port
	// Depth bounds the length of the explored action sequences.
	Depth int
	// Setup is the runtime configuration (default: commands and
	// user-questions composed, retries through pre-step).
	Setup *Setup
	// Jobs is the number of transitions run at once, each on its own
	// implementation instance (<= 1: one at a time). The result is the
	// same for any number.
	Jobs int
	// Assume names known deviations the model predicts instead of SPEC.md
	// (Assumable lists those it can); any other name is an error.
	Assume []string
}

// ExploreResult is what an exploration covered.
type ExploreResult struct {
	Depth int
	// States is the number of distinct abstract states reached (the
	// initial one included).
	States int
	// Transitions is the number of (state, action) pairs executed and
	// checked.
	Transitions int
	// Actions is the number of actions sent to the implementation,
	// replayed prefixes included.
	Actions int
	// Alphabet is the number of actions explored from each state.
	Alphabet int
	// Violation is the first failure found, breadth first: a shortest
	// sequence.
	Violation *Failure
}

// Alphabet is the finite set of actions the exploration tries in every
// state (those the model finds valid there). It is small but reaches
// every mechanism: selections inside and between turns, the /plan
// command (its off padded with whitespace), accepted, rejected, aborted
// and failing steps, retries, the exit tool's approval and keep-planning
// answer (alone, and after an approval in the same tool batch), turn ends,
// a failed append, restart, reload,
// fork, compaction, a second agent's selection and turn, outside writers
// and an agent opened from a log, and the plugin unloaded and loaded again.
func Alphabet() []sim.Action {
	exit := sim.Review{Answer: sim.Approve}
	keep := sim.Review{Answer: sim.KeepPlanning, Feedback: "Split step 2."}
	reload := sim.Review{Answer: sim.Approve, Reload: true}
	// Two replies of the seam (valid only for implementations that take
	// them): an approval of a question the tool did not ask, and both
	// options selected. Neither approves (EXIT-6, EXIT-7).
	other := sim.Review{Reply: &sim.ReviewReply{Answers: []sim.ReviewAnswer{{Question: "scope-check", Selected: []string{sim.Approve}}}}}
	both := sim.Review{Reply: &sim.ReviewReply{Answers: []sim.ReviewAnswer{{Selected: []string{sim.Approve, sim.KeepPlanning}}}}}
	call := func(r *sim.Review) sim.ToolCall {
		return sim.ToolCall{Name: spec.ExitTool, Args: json.RawMessage(`{"plan":"# Plan\n\n1. Do it."}`), Review: r}
	}
	return []sim.Action{
		{Prompt: &sim.TextAction{Agent: "main", Text: "Plan the refactor."}},
		{Set: &sim.SetAction{Agent: "main", Active: true}},
		{Set: &sim.SetAction{Agent: "main", Active: false}},
		{Command: &sim.CommandAction{Agent: "main", Input: "/plan"}},
		// off with surrounding whitespace: the exact argument off (CMD-4)
		// once trimmed, so the alphabet stays as small as with "/plan off".
		{Command: &sim.CommandAction{Agent: "main", Input: "/plan  off "}},
		{Step: &sim.StepAction{Agent: "main"}},
		{Step: &sim.StepAction{Agent: "main", Decision: sim.Reject}},
		{Step: &sim.StepAction{Agent: "main", Listeners: map[string]string{AuditListener: sim.Abort}}},
		{Step: &sim.StepAction{Agent: "main", Request: "fail"}},
		{Step: &sim.StepAction{Agent: "main", Model: &sim.Model{Calls: []sim.ToolCall{call(&exit)}}}},
		{Step: &sim.StepAction{Agent: "main", Model: &sim.Model{Calls: []sim.ToolCall{call(&keep)}}}},
		{Step: &sim.StepAction{Agent: "main", Model: &sim.Model{Calls: []sim.ToolCall{call(&exit), call(&keep)}}}},
		{Step: &sim.StepAction{Agent: "main", Model: &sim.Model{Calls: []sim.ToolCall{call(&reload)}}}},
		{Step: &sim.StepAction{Agent: "main", Model: &sim.Model{Calls: []sim.ToolCall{call(&other)}}}},
		{Step: &sim.StepAction{Agent: "main", Model: &sim.Model{Calls: []sim.ToolCall{call(&both)}}}},
		{Retry: &sim.StepAction{Agent: "main"}},
		{EndTurn: &sim.EndTurnAction{Agent: "main"}},
		{Fault: &sim.FaultAction{Appends: 1}},
		{Restart: &struct{}{}},
		{Reload: &struct{}{}},
		{Fork: &sim.ForkAction{Agent: "main", As: "fork-1"}},
		{Set: &sim.SetAction{Agent: "side", Active: true}},
		{Prompt: &sim.TextAction{Agent: "side", Text: "Tidy the README."}},
		{Step: &sim.StepAction{Agent: "side"}},
		{Compact: &sim.AgentAction{Agent: "main"}},
		// Outside writers (LOG-3): plan/mode appended by another process,
		// and an agent started from a given log. (Data that is not exactly
		// {active: boolean} is the scenarios' and the outside-writers
		// property's, the data with no boolean active only where the
		// implementation declares choice plan-mode-malformed; the alphabet
		// stays small.)
		{Append: &sim.AppendAction{Agent: "main", Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":true}`)}},
		{Open: &sim.OpenAction{Agent: "opened", Log: []sim.EventSpec{{Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":true}`)}}}},
		// The plugin unloaded and loaded again (SVC-2, PEND-8).
		{Unload: &sim.UnloadAction{}},
		{Load: &sim.LoadAction{}},
	}
}

// AlphabetFor is Alphabet with, for a setup whose host has tools of its
// own, a step calling them, and for a runtime that skips empty steps, a
// step whose messages the audit listener takes for itself (EXIT-1, SVC-3,
// PEND-2). The default setup's alphabet is Alphabet.
func AlphabetFor(s Setup) []sim.Action {
	out := Alphabet()
	if s.HostTools {
		calls := []sim.ToolCall{{Name: HostTools[1], Args: json.RawMessage(`{"path":"README.md"}`)}, {Name: AssemblyTools[0], Args: json.RawMessage(`{"query":"TODO"}`)}}
		out = append(out, sim.Action{Step: &sim.StepAction{Agent: "main", Model: &sim.Model{Calls: calls}}})
	}
	if s.EmptySteps == sim.EmptyStepsSkip {
		out = append(out, sim.Action{Step: &sim.StepAction{Agent: "main", Listeners: map[string]string{AuditListener: sim.Drop}}})
	}
	return out
}

// Explore enumerates every sequence of Alphabet actions up to Depth,
// breadth first, merging sequences that reach the same abstract state
// (the model's state: logged and pending selections, turns, retries,
// headers, queued and owed notices, armed faults, the readings of an
// undeclared silent point still left). Each (state, action) pair is
// executed by replaying the state's prefix on a fresh instance, since ports
// cannot be cloned, and checked against the model; the first violation
// stops the exploration.
func Explore(ctx context.Context, opts ExploreOptions) (ExploreResult, error) {
	setup := Setup{Services: sim.Services{Commands: true, UserQuestions: true}, Retries: sim.RetriesPreStep}
	if opts.Setup != nil {
		setup = *opts.Setup
	}
	alphabet := AlphabetFor(setup)
	res := ExploreResult{Depth: opts.Depth, Alphabet: len(alphabet)}
	dev, err := ParseDeviations(opts.Assume)
	if err != nil {
		return res, fmt.Errorf("--assume: %w", err)
	}
	full := lookup(NameStateMachine).full()
	full.assume = dev
	start, f, err := startSession(full, opts.NewPort, setup)
	if err != nil {
		return res, err
	}
	if f != nil {
		res.Violation = f
		return res, nil
	}
	start.rt.Close()
	// The transitions of a level run on opts.Jobs workers and are judged
	// in order (Levels), so states, counts and the violation found are the
	// same for any number of workers.
	var stopErr error
	res.States, err = Levels(ctx, opts.Jobs, opts.Depth, start.model, alphabet, func(prefix []sim.Action, act sim.Action) transition {
		return runTransition(full, opts.NewPort, setup, prefix, act)
	}, func(prefix []sim.Action, _ sim.Action, tr transition) (*Model, bool) {
		if tr.counted {
			res.Actions += len(prefix) + 1
			res.Transitions++
		}
		switch {
		case errors.Is(tr.err, sim.ErrUnsupported):
			// An action needing a capability the implementation does not
			// declare (unload, say) is not explored.
			return nil, true
		case tr.err != nil:
			stopErr = tr.err
			return nil, false
		case tr.f != nil:
			res.Violation = tr.f
			return nil, false
		}
		return tr.model, true
	})
	if err != nil {
		return res, err
	}
	return res, stopErr
}

// transition is what running one (state, action) pair of an exploration
// level found.
type transition struct {
	// counted: the action was sent (the prefix replayed without error).
	counted bool
	f       *Failure
	err     error
	model   *Model
}

// runTransition replays the state's prefix on a fresh instance, then runs
// and checks the action.
func runTransition(full *property, newPort func() sim.Port, setup Setup, prefix []sim.Action, act sim.Action) (tr transition) {
	s, f, err := startSession(full, newPort, setup)
	if err != nil || f != nil {
		tr.f, tr.err = f, err
		return
	}
	for k, p := range prefix {
		pred := s.model.Apply(p)
		res, err := s.rt.Do(p)
		if err != nil {
			s.rt.Close()
			tr.err = fmt.Errorf("replaying %v: %w", prefix, err)
			return
		}
		// Which readings of an undeclared silent point still explain the
		// implementation is part of the state (Model.Key): the prefix
		// tells where they part.
		s.acts = append(s.acts[:0], prefix[:k+1]...)
		if f := s.settle(p, pred, res); f != nil {
			s.rt.Close()
			tr.f = f
			return
		}
	}
	s.acts = append([]sim.Action(nil), prefix...)
	tr.counted = true
	f, err = s.do(act, fullExpect)
	s.rt.Close()
	if err != nil {
		tr.err = fmt.Errorf("after %v: %w", prefix, err)
		return
	}
	if f == nil {
		f = s.invariants()
	}
	tr.f, tr.model = f, s.model
	return
}

// invariants checks the runtime's host-side state against the model after
// an action: turn and retry status and the log length agree, and the
// model's state is the fold of its log.
func (s *session) invariants() *Failure {
	for _, a := range s.model.Agents() {
		_, open := s.rt.Status(a)
		msg := ""
		switch {
		case open != s.model.Open(a):
			msg = fmt.Sprintf("agent %s: turn open %v, the model says %v", a, open, s.model.Open(a))
		case s.rt.AwaitingRetry(a) != s.model.AwaitingRetry(a):
			msg = fmt.Sprintf("agent %s: awaiting retry %v, the model says %v", a, s.rt.AwaitingRetry(a), s.model.AwaitingRetry(a))
		case len(s.rt.Log(a)) != s.model.LogLen(a):
			msg = fmt.Sprintf("agent %s: log has %d events, the model %d", a, len(s.rt.Log(a)), s.model.LogLen(a))
		}
		if msg != "" {
			return &Failure{Setup: s.setup, Actions: append([]sim.Action(nil), s.acts...), Index: len(s.acts) - 1, Messages: []string{msg}}
		}
	}
	return nil
}
