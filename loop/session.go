package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"slices"
	"unicode/utf8"

	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/sim"
)

// Trace is a runtime-level script: how the runtime is composed and what
// the outside world does, step by step (docs/runtime-trace-format.md).
type Trace struct {
	Name        string          `json:"name,omitempty"`
	Description string          `json:"description,omitempty"`
	Config      json.RawMessage `json:"config,omitempty"`
	Services    *sim.Services   `json:"services,omitempty"`
	HostTools   []HostTool      `json:"hostTools,omitempty"`
	Listeners   []Listener      `json:"listeners,omitempty"`
	// Agents are opened at start, in order (default: main).
	Agents []string `json:"agents,omitempty"`
	Steps  []Step   `json:"steps"`
	// ServicesByCapability composes a requested service only when the
	// runtime declares it, instead of needing it (the runtime-level suite
	// sets it; steps that use a service still need it).
	ServicesByCapability bool `json:"-"`
	// MaxTranscript bounds what the model requests of a run carry in all
	// (inputlimit.Limits.Transcript; 0: inputlimit.Trace's), so that no
	// trace, however it makes its turns resend the transcript, makes a run
	// hold or print more than that.
	MaxTranscript int64 `json:"-"`
}

// Needs lists the capabilities the trace needs, sorted.
func (t Trace) Needs() []string {
	need := map[string]bool{}
	if t.Services != nil && t.Services.Commands && !t.ServicesByCapability {
		need["commands"] = true
	}
	if t.Services != nil && t.Services.UserQuestions && !t.ServicesByCapability {
		need["userQuestions"] = true
	}
	if len(t.HostTools) > 0 {
		need["hostTools"] = true
	}
	if slices.ContainsFunc(t.HostTools, func(h HostTool) bool { return h.Assembly }) {
		need["assemblyTools"] = true
	}
	if len(t.Listeners) > 0 {
		need["hostListeners"] = true
	}
	hostActions := func(s *Script) {
		for h := range s.HostActions() {
			if h.Append != nil {
				need["outsideAppend"] = true
			}
			if h.Fault != nil {
				need["failAppend"] = true
			}
			if h.Command != nil {
				need["commands"] = true
			}
		}
	}
	script := func(s *Script) {
		if s == nil {
			return
		}
		hostActions(s)
		for _, r := range s.Responses {
			if len(r.During) > 0 {
				need["duringStream"] = true
			}
			if r.Fail {
				// what a failed request leads to is judged of retrying runtimes
				need["retry"] = true
			}
			for _, c := range r.Calls {
				if c.Review != nil && c.Review.Reload {
					need["reload"] = true
				}
				if c.Review != nil && c.Review.Extended() {
					need["reviewReplies"] = true
				}
			}
		}
		for _, p := range s.PreSteps {
			if p.Behaviour == sim.Drop {
				need["emptySteps"] = true
			}
		}
	}
	for _, s := range t.Steps {
		if n := kindOf(&s).needs(&s); n != "" {
			need[n] = true
		}
		if s.Expect != nil && s.Expect.Announces != "" {
			need["commandOutcomes"] = true
		}
		script(s.ScriptOf())
	}
	out := make([]string, 0, len(need))
	for k := range need {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Record is everything a session observed.
type Record struct {
	Identity Identity   `json:"identity"`
	Load     LoadReply  `json:"load"`
	Config   string     `json:"-"`
	Steps    []StepDone `json:"steps"`
	// Logs are the observed logs by agent, as the runtime reported them.
	Logs   map[string][]sim.Event `json:"logs"`
	Agents []string               `json:"agents"`
}

// StepDone is one step and what it caused.
type StepDone struct {
	Step Step `json:"step"`
	// Start is the agent's log length before the step.
	Start   int            `json:"start"`
	Obs     Observation    `json:"observation"`
	Set     *SetResult     `json:"set,omitempty"`
	Get     *sim.GetReply  `json:"get,omitempty"`
	Command *CommandResult `json:"command,omitempty"`
	Error   string         `json:"error,omitempty"`
}

// MissingError is a trace that needs capabilities the runtime does not
// declare: the checks that need it are skipped, never failed.
type MissingError struct{ Needs []string }

func (e *MissingError) Error() string {
	return fmt.Sprintf("needs capabilities the runtime does not declare: %v", e.Needs)
}

// Is makes a MissingError match sim.ErrUnsupported.
func (e *MissingError) Is(target error) bool { return target == sim.ErrUnsupported }

// ObservationError is a runtime whose observations contradict each other
// (an event seq that does not continue the log): a protocol failure.
type ObservationError struct{ Msg string }

func (e *ObservationError) Error() string { return e.Msg }

// Session plays a trace against a runtime and records what it observed.
type Session struct {
	rt     Runtime
	trace  Trace
	rec    Record
	loaded bool
	needs  []string
	// unloaded: plan mode was unloaded and not loaded again; its service
	// cannot be asked (get, set).
	unloaded bool
	// carried is what the requests observed so far carry, counted as
	// Trace.MaxTranscript says.
	carried int64
}

// Run plays t against rt from a fresh start and returns the record. On an
// error the record holds everything observed up to it. The runtime is
// stopped at the end.
func Run(rt Runtime, t Trace) (rec Record, err error) {
	s, err := Open(rt, t)
	if err != nil {
		return s.Record(), err
	}
	defer func() {
		if closeErr := s.Close(); err == nil && closeErr != nil {
			err = closeErr
		}
		rec = s.Record()
	}()
	for i, st := range t.Steps {
		if err := s.Do(st); err != nil {
			return s.rec, fmt.Errorf("step %d (%s): %w", i+1, st.Name(), err)
		}
	}
	return s.rec, nil
}

// Open starts rt, loads it as t says and opens its agents; t's steps are
// not played (use Do), but the capabilities they need are checked (a
// *MissingError when the runtime lacks one). On an error the runtime is
// stopped.
func Open(rt Runtime, t Trace) (*Session, error) {
	s := &Session{rt: rt, trace: t, needs: t.Needs()}
	s.trace.Steps = nil
	if err := s.start(true); err != nil {
		_ = rt.Stop()
		return s, err
	}
	return s, nil
}

// Loaded reports whether plan mode accepted the config.
func (s *Session) Loaded() bool { return s.loaded }

// Trace is the trace played so far: the setup and every step done.
func (s *Session) Trace() Trace { return s.trace }

// Record is what the session observed so far.
func (s *Session) Record() Record { return s.rec }

// Last is the last step done, or nil.
func (s *Session) Last() *StepDone {
	if len(s.rec.Steps) == 0 {
		return nil
	}
	return &s.rec.Steps[len(s.rec.Steps)-1]
}

// Expect adds x to what the last step expects (members x sets replace
// the step's), so the session's trace replays the expectation.
func (s *Session) Expect(x Expect) {
	n := len(s.trace.Steps)
	if n == 0 {
		return
	}
	merged := x.over(s.trace.Steps[n-1].Expect)
	s.trace.Steps[n-1].Expect = &merged
	if m := len(s.rec.Steps); m > 0 {
		s.rec.Steps[m-1].Step.Expect = &merged
	}
}

// Close stops the runtime.
func (s *Session) Close() error { return s.rt.Stop() }

// Do plays one step; it is added to the session's trace.
func (s *Session) Do(st Step) error {
	if !s.loaded {
		return &sim.InputError{Msg: "plan mode refused the config; no step can run"}
	}
	s.trace.Steps = append(s.trace.Steps, st)
	return s.step(st)
}

func (t Trace) agents() []string {
	if len(t.Agents) == 0 {
		return []string{"main"}
	}
	return t.Agents
}

func (t Trace) loadRequest() LoadRequest {
	req := LoadRequest{Config: t.Config, HostTools: t.HostTools, Listeners: t.Listeners}
	if len(req.Config) == 0 {
		req.Config = json.RawMessage("{}")
	}
	if t.Services != nil {
		req.Services = *t.Services
	}
	return req
}

// stopForRestart stops the runtime before the restart step's start. A
// runtime that can be told a stop is a restart (sim.Restarter, as at the
// plugin level: the adapter under --restarts reset or auto) may keep its
// process and reset it at start; the start, load and opens that follow are
// the same either way.
func (s *Session) stopForRestart() error {
	if rs, ok := s.rt.(sim.Restarter); ok {
		return rs.StopForRestart()
	}
	return s.rt.Stop()
}

// start brings the runtime up, loads it and opens the agents with their
// observed logs (empty at the first start).
func (s *Session) start(first bool) error {
	id, err := s.rt.Start()
	if err != nil {
		return err
	}
	if first {
		s.rec.Identity = id
		s.rec.Logs = map[string][]sim.Event{}
		s.rec.Agents = s.trace.agents()
		var missing []string
		for _, n := range s.needs {
			if !id.Capabilities.Has(n) {
				missing = append(missing, n)
			}
		}
		if missing != nil {
			return &MissingError{Needs: missing}
		}
	}
	req := s.trace.loadRequest()
	if s.trace.ServicesByCapability {
		caps := s.rec.Identity.Capabilities
		req.Services.Commands = req.Services.Commands && caps.Commands
		req.Services.UserQuestions = req.Services.UserQuestions && caps.UserQuestions
	}
	reply, err := s.rt.Load(req)
	if err != nil {
		return err
	}
	if first {
		s.rec.Load = reply
	}
	s.loaded = reply.Error == ""
	if !s.loaded {
		return nil
	}
	for _, a := range s.rec.Agents {
		log := s.rec.Logs[a]
		if log == nil {
			log = []sim.Event{}
		}
		obs, err := s.rt.Open(OpenRequest{Agent: a, Events: log})
		if err != nil {
			return err
		}
		if err := s.observe(a, obs); err != nil {
			return err
		}
	}
	return nil
}

// observe adds observed events to the agent's log, checking that their seq
// continues it.
func (s *Session) observe(agent string, obs Observation) error {
	log := s.rec.Logs[agent]
	for _, e := range obs.Events {
		if e.Seq != len(log) {
			return &ObservationError{Msg: fmt.Sprintf("agent %q: observed event %q has seq %d; the observed log has %d events, so the next seq is %d", agent, e.Type, e.Seq, len(log), len(log))}
		}
		e.Data = sim.Canonical(e.Data)
		log = append(log, e)
	}
	s.rec.Logs[agent] = log
	for _, q := range obs.Requests {
		if q.At > len(log) {
			return &ObservationError{Msg: fmt.Sprintf("agent %q: a request was sent at log length %d, beyond the %d events observed", agent, q.At, len(log))}
		}
	}
	return s.carry(obs.Requests)
}

// jsonLen is the length of s written as a JSON string's contents by
// encoding/json: what printing it costs.
func jsonLen(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r == '"' || r == '\\' || r == '\n' || r == '\r' || r == '\t':
			n += 2
		case r < 0x20 || r == '<' || r == '>' || r == '&' || r == '\u2028' || r == '\u2029' || r == utf8.RuneError:
			n += 6
		default:
			n += utf8.RuneLen(r)
		}
	}
	return n
}

// carry counts what requests carry toward the trace's transcript bound; a
// run past it is an input error: the trace asks for more than the bound.
func (s *Session) carry(requests []ModelRequest) error {
	limit := s.trace.MaxTranscript
	if limit <= 0 {
		limit = inputlimit.Trace.Transcript
	}
	for _, q := range requests {
		for _, m := range q.Messages {
			s.carried += int64(jsonLen(m.Text)) + inputlimit.MessageOverhead
		}
		if s.carried > limit {
			return &sim.InputError{Msg: fmt.Sprintf("the trace's model requests carry %s; each message counts its text as JSON and %d bytes, once for every request that carries it",
				inputlimit.Exceeded("bytes of transcript in all", limit, inputlimit.FlagTranscript), inputlimit.MessageOverhead)}
		}
	}
	return nil
}

func (s *Session) step(st Step) error {
	k := kindOf(&st)
	if why := st.Refusal(State{Agents: s.rec.Agents, Unloaded: s.unloaded}); why != "" {
		// refused before anything is recorded
		return &sim.InputError{Msg: why}
	}
	agent := st.Agent()
	done := StepDone{Step: st, Start: len(s.rec.Logs[agent])}
	if err := k.play(s, &done, &st); err != nil {
		s.rec.Steps = append(s.rec.Steps, done)
		return err
	}
	s.unloaded = st.unloadedAfter(s.unloaded)
	if agent == "" && len(s.rec.Agents) > 0 {
		// what a runtime-wide step caused is the first agent's
		agent = s.rec.Agents[0]
	}
	if agent != "" && !k.introducesAgent() {
		if err := s.observe(agent, done.Obs); err != nil {
			return err
		}
	}
	s.rec.Steps = append(s.rec.Steps, done)
	return nil
}

// HostActions yields every host action the script plays: each response's,
// each of its calls', then each pre-step's. A nil script has none.
func (sc *Script) HostActions() iter.Seq[HostAction] {
	return func(yield func(HostAction) bool) {
		if sc == nil {
			return
		}
		all := func(hs []HostAction) bool {
			for _, h := range hs {
				if !yield(h) {
					return false
				}
			}
			return true
		}
		for _, r := range sc.Responses {
			if !all(r.During) {
				return
			}
			for _, c := range r.Calls {
				if !all(c.During) {
					return
				}
			}
		}
		for _, p := range sc.PreSteps {
			if !all(p.During) {
				return
			}
		}
	}
}

// IsSkip reports whether err means the runtime lacks what a check needs.
func IsSkip(err error) bool { return errors.Is(err, sim.ErrUnsupported) }
