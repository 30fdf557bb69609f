package suite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"
	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/third_party/godog"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/rtrace"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// world is one scenario: the trace being built, its session once the
// first When step runs, and what stopped it.
type world struct {
	newRuntime func() loop.Runtime
	// cexDir receives the trace of a failing scenario ("" writes none).
	cexDir string
	// refused keeps the first trace that could not be written.
	refused *writeRefusal
	// replay is the command that replays it, before the trace's path
	// (empty: none is named).
	replay  string
	id      string
	written bool
	trace   loop.Trace
	session *loop.Session
	clause  string
	// tags are the clauses the scenario is tagged with.
	tags        []string
	unsupported string
	implErr     error
	// agent is the agent the user's steps address: main, or the last one
	// the host opened.
	agent string

	// counterexample is the path of the trace written (failed).
	counterexample string
}

// Counterexample is the path of the trace a failure wrote, or "".
func (w *world) Counterexample() string { return w.counterexample }

// writeRefusal is the first scenario trace of a run that could not be
// written (a symbolic link at its name, a full disk): the run's input
// error, as a counterexample that cannot be written is at the plugin level.
type writeRefusal struct {
	mu  sync.Mutex
	err error
}

func (r *writeRefusal) add(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
	}
}

func (r *writeRefusal) first() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

func newWorld(nr func() loop.Runtime, cexDir, replay string, refused *writeRefusal) *world {
	return &world{newRuntime: nr, cexDir: cexDir, replay: replay, refused: refused, agent: "main", trace: loop.Trace{
		Config:               json.RawMessage(`{"section":"Plan first."}`),
		Services:             &sim.Services{Commands: true, UserQuestions: true},
		ServicesByCapability: true,
	}}
}

func (w *world) Unsupported() string { return w.unsupported }
func (w *world) ImplErr() error      { return w.implErr }
func (w *world) Close() {
	if w.session != nil {
		_ = w.session.Close()
		w.session = nil
	}
}

// Trace is the scenario's trace so far (for replaying a failure).
func (w *world) Trace() loop.Trace {
	if w.session != nil {
		return w.session.Trace()
	}
	return w.trace
}

func (w *world) Register(sc *godog.ScenarioContext) {
	sc.Before(func(c context.Context, p *godog.Scenario) (context.Context, error) {
		for _, t := range p.Tags {
			if strings.HasPrefix(t.Name, "@id:") {
				w.id = strings.TrimPrefix(t.Name, "@id:")
			}
			if id, ok := spec.ClauseTag(t.Name); ok {
				if w.clause == "" {
					w.clause = id
				}
				w.tags = append(w.tags, id)
			}
		}
		w.trace.Name = p.Name
		return c, nil
	})
	sc.Step(`^a runtime with plan mode configured with section "([^"]*)"$`, func(s string) {
		w.trace.Config = sim.JSON(map[string]string{"section": s})
	})
	sc.Step(`^a runtime with plan mode configured with:$`, func(doc *godog.DocString) {
		w.trace.Config = json.RawMessage(doc.Content)
	})
	sc.Step(`^the commands service is not composed$`, func() { w.trace.Services.Commands = false })
	sc.Step(`^the user-questions service is not composed$`, func() { w.trace.Services.UserQuestions = false })
	sc.Step(`^a host tool "([^"]*)"$`, func(n string) { w.trace.HostTools = append(w.trace.HostTools, loop.HostTool{Name: n}) })
	sc.Step(`^a host tool "([^"]*)" added by a prompt-assembly listener after plan mode's$`, func(n string) {
		w.trace.HostTools = append(w.trace.HostTools, loop.HostTool{Name: n, Assembly: true})
	})
	sc.Step(`^a host pre-step listener "([^"]*)" registered (before|after) plan mode$`, func(n, pos string) {
		w.trace.Listeners = append(w.trace.Listeners, loop.Listener{Name: n, Position: pos})
	})

	sc.Step(`^the user (selects|leaves) plan mode$`, func(v string) error {
		return w.do(loop.Step{Set: &loop.SetRequest{Agent: w.agent, Active: v == "selects"}})
	})
	sc.Step(`^the user sends "([^"]*)"$`, func(p string) error {
		return w.do(loop.Step{Turn: &loop.TurnRequest{Agent: w.agent, Prompt: p}})
	})
	sc.Step(`^the user sends "([^"]*)" and the turn plays:$`, func(p string, doc *godog.DocString) error {
		s, err := script(doc)
		if err != nil {
			return err
		}
		return w.do(loop.Step{Turn: &loop.TurnRequest{Agent: w.agent, Prompt: p, Script: s}})
	})
	sc.Step(`^the user types "([^"]*)"$`, func(in string) error {
		return w.do(loop.Step{Command: &loop.CommandRequest{Agent: w.agent, Input: in}})
	})
	sc.Step(`^the user types "([^"]*)" and the turn plays:$`, func(in string, doc *godog.DocString) error {
		s, err := script(doc)
		if err != nil {
			return err
		}
		return w.do(loop.Step{Command: &loop.CommandRequest{Agent: w.agent, Input: in, Script: &s}})
	})
	sc.Step(`^the runtime restarts$`, func() error { return w.do(loop.Step{Restart: &struct{}{}}) })
	sc.Step(`^plan mode is reloaded$`, func() error { return w.do(loop.Step{Reload: &struct{}{}}) })
	sc.Step(`^an outside writer appends plan/mode (true|false)$`, func(v string) error {
		return w.do(loop.Step{Append: &loop.AppendRequest{Agent: w.agent, Type: spec.TypePlanMode, Data: sim.JSON(map[string]bool{"active": v == "true"})}})
	})
	sc.Step(`^plan mode is unloaded$`, func() error { return w.do(loop.Step{Unload: &struct{}{}}) })
	sc.Step(`^the host opens the agent "([^"]*)" from the log:$`, func(name string, doc *godog.DocString) error {
		var log []sim.EventSpec
		if err := strictYAML(doc.Content, &log); err != nil {
			return fmt.Errorf("the log: %w", err)
		}
		w.agent = name
		return w.do(loop.Step{Open: &loop.OpenStep{Agent: name, Log: log}})
	})
	sc.Step(`^the next plan/mode append fails$`, func() error {
		return w.do(loop.Step{Fault: &loop.FaultRequest{Agent: w.agent, Count: 1}})
	})

	sc.Step(`^plan mode refuses the config$`, func() error {
		if err := w.open(); err != nil {
			return err
		}
		if w.session.Record().Load.Error == "" {
			return w.fail("plan mode accepted the config %s", w.trace.Config)
		}
		return nil
	})
	sc.Step(`^the step appends plan/mode (.+)$`, func(list string) error {
		want := []bool{}
		if list != "nothing" {
			for _, v := range strings.Split(list, ", ") {
				want = append(want, v == "true")
			}
		}
		return w.expect(loop.Expect{PlanMode: want})
	})
	sc.Step(`^the step logs (\d+) plan-mode notices?$`, func(n int) error { return w.expect(loop.Expect{Notices: &n}) })
	// Where plan mode's listener sits shows in what a host listener
	// registered before it does to the notice: prepended, it wraps the
	// host listener, so the notice is added outside it (STEP-1).
	sc.Step(`^plan mode's listener wraps host listener "[^"]*": the step logs (\d+) plan-mode notices?$`, func(n int) error {
		return w.expectAs(attribution.ObsListener, loop.Expect{Notices: &n})
	})
	sc.Step(`^the outcome is "([^"]*)"$`, func(o string) error { return w.expect(loop.Expect{Outcome: o}) })
	sc.Step(`^set reports an error$`, func() error { t := true; return w.expect(loop.Expect{Error: &t}) })
	sc.Step(`^result "([^"]*)" is "([^"]*)"$`, func(id, v string) error {
		return w.expect(loop.Expect{Results: map[string]string{id: v}})
	})
	sc.Step(`^the turn ends "([^"]*)"$`, func(r string) error { return w.expect(loop.Expect{TurnEnd: r}) })
	sc.Step(`^the requests show plan:policy as (.+)$`, func(list string) error {
		want := []bool{}
		for _, v := range strings.Split(list, ", ") {
			want = append(want, v == "on")
		}
		return w.expect(loop.Expect{Section: want})
	})
	sc.Step(`^the step sends (\d+) requests?$`, func(n int) error { return w.expect(loop.Expect{Requests: &n}) })
	// SPEC.md's glossary: the request header is the request/header event
	// the runtime logs for each request it actually sends (STEP-6 reads
	// the last one logged).
	sc.Step(`^the step sends (\d+) requests?, each logged with its own request/header$`, func(n int) error {
		headers := make([]string, n)
		for i := range headers {
			headers[i] = spec.TypeRequestHeader
		}
		return w.expect(loop.Expect{Requests: &n, Events: &loop.EventsExpect{Types: []string{spec.TypeRequestHeader}, Are: headers}})
	})
	sc.Step(`^get shows active (true|false)(?: with (nothing pending|pending true|pending false))?$`, func(active, pending string) error {
		if err := w.do(loop.Step{Get: &loop.AgentRequest{Agent: w.agent}}); err != nil {
			return err
		}
		x := loop.Expect{Active: boolp(active == "true")}
		switch pending {
		case "nothing pending":
			x.NoPending = true
		case "pending true":
			x.Pending = boolp(true)
		case "pending false":
			x.Pending = boolp(false)
		}
		return w.expect(x)
	})
	sc.Step(`^the step's events of types (.+) are: (.+)$`, func(types, seq string) error {
		return w.expect(loop.Expect{Events: &loop.EventsExpect{Types: strings.Split(types, ", "), Are: strings.Split(seq, ", ")}})
	})
	sc.Step(`^request (\d+) of the step carries a plan-mode notice$`, func(n int) error {
		return w.expect(loop.Expect{NoticeIn: []int{n}})
	})
	sc.Step(`^the plan:policy section of request (\d+) of the step is "([^"]*)" at order 50$`, func(n int, text string) error {
		return w.expect(loop.Expect{SectionText: []loop.RequestSection{{Request: n, Text: text}}})
	})
	sc.Step(`^every request of the step offers exit_plan_mode$`, func() error {
		return w.expect(loop.Expect{Offers: spec.ExitTool})
	})
	sc.Step(`^result "([^"]*)" asked the user$`, func(id string) error {
		return w.expect(loop.Expect{Asked: []string{id}})
	})
	sc.Step(`^result "([^"]*)" carries "([^"]*)"$`, func(id, text string) error {
		return w.expect(loop.Expect{Carries: map[string]string{id: text}})
	})
	sc.Step(`^the command reports "(success|error)"$`, func(kind string) error {
		return w.expect(loop.Expect{Command: kind})
	})
	sc.Step(`^the reply announces "(committed|queued|cancelled|noop)"$`, func(outcome string) error {
		if w.session == nil {
			return errors.New("no step ran yet")
		}
		if !w.session.Record().Identity.Capabilities.CommandOutcomes {
			// a runtime that does not say what its replies announce
			// (minor 5) has the check skipped, never failed
			w.unsupported = "what a reply announces needs the capability commandOutcomes, which the runtime does not declare"
			return godog.ErrSkip
		}
		return w.expect(loop.Expect{Announces: outcome})
	})
}

func boolp(b bool) *bool { return &b }

// reviews reports whether a step's script has the model call exit_plan_mode.
func reviews(st loop.Step) bool {
	sc := st.ScriptOf()
	if sc == nil {
		return false
	}
	for _, r := range sc.Responses {
		for _, c := range r.Calls {
			if c.Name == spec.ExitTool {
				return true
			}
		}
	}
	return false
}

// script reads a docstring in YAML as a turn script.
func script(doc *godog.DocString) (loop.Script, error) {
	var s loop.Script
	if err := strictYAML(doc.Content, &s); err != nil {
		return s, fmt.Errorf("the turn script: %w", err)
	}
	return s, nil
}

// strictYAML decodes YAML into v, refusing unknown fields.
func strictYAML(doc string, v any) error {
	js, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		return fmt.Errorf("not YAML: %w", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(js)))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// open starts the session with the setup given so far.
func (w *world) open() error {
	if w.session != nil {
		return nil
	}
	s, err := loop.Open(w.newRuntime(), w.trace)
	w.session = s
	return w.runErr(err)
}

// runErr sorts a runtime's error: lacking a feature skips the scenario;
// a script that does not fit is the scenario's own failure; anything else
// is the runtime failing to run.
func (w *world) runErr(err error) error {
	if err == nil {
		return nil
	}
	var in *sim.InputError
	switch {
	case errors.Is(err, sim.ErrUnsupported):
		w.unsupported = err.Error()
		return godog.ErrSkip
	case errors.As(err, &in):
		return err
	}
	w.implErr = err
	return fmt.Errorf("the runtime could not be run: %w", err)
}

// do plays a step, then checks every invariant over what was observed.
func (w *world) do(st loop.Step) error {
	if err := w.open(); err != nil {
		return err
	}
	if !w.session.Loaded() {
		return w.fail("plan mode refused the config: %s", w.session.Record().Load.Error)
	}
	probe := loop.Trace{Steps: []loop.Step{st}}
	needs := probe.Needs()
	if w.trace.Services.UserQuestions && reviews(st) {
		// the scenario composes the user-questions service for its review
		needs = append(needs, "userQuestions")
	}
	for _, n := range needs {
		if !w.session.Record().Identity.Capabilities.Has(n) {
			w.unsupported = fmt.Sprintf("%s needs the capability %s, which the runtime does not declare", st.Name(), n)
			return godog.ErrSkip
		}
	}
	if err := w.runErr(w.session.Do(st)); err != nil {
		return err
	}
	if fs := loop.Invariants(w.session.Trace(), w.session.Record()); len(fs) > 0 {
		return w.failed(w.attributed(fs))
	}
	return nil
}

// expect records an expectation on the last step (so a written trace
// replays it) and checks it.
func (w *world) expect(x loop.Expect) error { return w.expectAs("", x) }

// expectAs is expect where the step compares observation (an observation
// kind of attribution.Table) rather than what x's comparison names: its
// failures count under that observation's clauses.
func (w *world) expectAs(observation string, x loop.Expect) error {
	d := w.session.Last()
	if d == nil {
		return errors.New("no step ran yet")
	}
	x.Clause = w.clause
	fs := x.Check(*d)
	if observation != "" {
		for i := range fs {
			fs[i].Rule = observation
		}
	}
	if len(fs) == 0 {
		w.session.Expect(x)
		return nil
	}
	// The trace records the expectation under the clause its failure is
	// named by, so a replay fails in the same words.
	err := w.attributed(fs)
	x.Clause = err.Findings[0].Clause
	w.session.Expect(x)
	return w.failed(err)
}

// attributedFindings are a step's findings with the clauses the first of
// them names: its rule's (attribution.Checks), or its observation kind's
// narrowed by the scenario's tags.
type attributedFindings struct {
	loop.Findings
	clauses []string
}

func (a attributedFindings) AttributedClauses() []string { return a.clauses }

// AttributedRule is the rule or observation kind of the first finding.
func (a attributedFindings) AttributedRule() string { return a.Findings[0].Rule }

// attributed names the findings' failure under the clauses of the first
// one, the observation that diverged first. An exit tool call that was
// never presented for review is the review seam's (EXIT-4), unless the
// scenario composes no user-questions channel (EXIT-7).
func (w *world) attributed(fs []loop.Finding) attributedFindings {
	fs = slices.Clone(fs)
	var first []string
	for i := range fs {
		if fs[i].Rule == attribution.ExpPresented && !w.trace.Services.UserQuestions {
			fs[i].Rule = attribution.ExpNoChannel
		}
		if fs[i].Rule == "" {
			continue
		}
		cl := attribution.Attribute(fs[i].Rule, w.tags)
		if slices.Equal(cl, w.tags) && len(w.tags) > 1 {
			// The observation does not narrow the scenario's clauses:
			// the scenario's own (first) clause, what its steps hold.
			cl = w.tags[:1]
		}
		if i == 0 {
			first = cl
		}
		fs[i].Clause = cl[0]
	}
	return attributedFindings{loop.Findings(fs), first}
}

func (w *world) fail(format string, args ...any) error {
	return w.failed(fmt.Errorf("%s: %s", w.clause, fmt.Sprintf(format, args...)))
}

// failed writes the scenario's trace so far, with its expectations, as a
// runtime trace that plankit sim --level runtime replays, and names it in
// the error with the command that replays it (Options.Replay).
func (w *world) failed(err error) error {
	if w.cexDir == "" || w.session == nil || w.written {
		return err
	}
	w.written = true
	t := w.session.Trace()
	t.ServicesByCapability = false
	t.Services = &sim.Services{Commands: w.trace.Services.Commands, UserQuestions: w.trace.Services.UserQuestions}
	data, merr := rtrace.Marshal(t)
	if merr == nil {
		merr = os.MkdirAll(w.cexDir, 0o755)
	}
	path := filepath.Join(w.cexDir, w.id+".yaml")
	if merr == nil {
		merr = atomicfile.Write(path, data)
	}
	if merr != nil {
		if w.refused != nil {
			w.refused.add(fmt.Errorf("scenario %s: writing its trace: %w", w.id, merr))
		}
		return fmt.Errorf("%w (the scenario's trace could not be written: %v)", err, merr)
	}
	w.counterexample = path
	return fmt.Errorf("%w%s", err, replayed(w.replay, path))
}
