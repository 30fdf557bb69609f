package features

import (
	"errors"
	"fmt"
	"strings"

	"github.com/plankit/plankit/internal/third_party/godog"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

// mainAgent is the agent every scenario talks about unless it names another.
const mainAgent = "main"

// world is one scenario's state: the options it builds the runtime with,
// the runtime (created at the first action), and what the last action did.
type world struct {
	newPort func() sim.Port
	opts    sim.Options
	section string
	rt      *sim.Runtime
	load    sim.Result
	// last is the result of the last action; history every result since
	// the runtime started.
	last    sim.Result
	history []sim.Result
	// implErr is set when the implementation could not be run.
	implErr *sim.ImplError
	// unsupported is the first request the implementation declined.
	unsupported string
}

func newWorld(newPort func() sim.Port) *world {
	w := &world{newPort: newPort, section: trace.DefaultSection}
	w.opts = sim.Options{
		Config:   sim.JSON(map[string]string{"section": trace.DefaultSection}),
		Services: sim.Services{Commands: true, UserQuestions: true},
		Agents:   []string{mainAgent},
	}
	return w
}

// started reports whether the runtime exists; configuration steps must
// come before it.
func (w *world) configure() error {
	if w.rt != nil {
		return errors.New("scenario bug: the runtime is already running; configuration steps must come first")
	}
	return nil
}

// runtime builds the runtime on first use.
func (w *world) runtime() (*sim.Runtime, error) {
	if w.rt != nil {
		return w.rt, nil
	}
	var port sim.Port
	if !w.opts.NoPlugin {
		port = w.newPort()
	}
	rt, res, err := sim.New(port, w.opts)
	if err != nil {
		return nil, w.fail(err)
	}
	w.rt, w.load, w.last = rt, res, res
	w.history = append(w.history, res)
	return rt, nil
}

// fail records an implementation failure so the run can report that the
// implementation could not be run, distinct from non-conformance.
func (w *world) fail(err error) error {
	if errors.Is(err, sim.ErrUnsupported) {
		// The implementation declined the request: the scenario cannot
		// be judged against it, so it is skipped, saying why.
		if w.unsupported == "" {
			w.unsupported = err.Error()
		}
		return godog.ErrSkip
	}
	var ie *sim.ImplError
	if errors.As(err, &ie) && w.implErr == nil {
		w.implErr = ie
	}
	return err
}

// do runs one action and keeps its result.
func (w *world) do(act sim.Action) (sim.Result, error) {
	rt, err := w.runtime()
	if err != nil {
		return sim.Result{}, err
	}
	res, err := rt.Do(act)
	w.last = res
	w.history = append(w.history, res)
	if err != nil {
		var ie *sim.InputError
		if errors.As(err, &ie) {
			return res, fmt.Errorf("the runtime could not perform %s: %v", act, err)
		}
		return res, w.fail(err)
	}
	return res, nil
}

// Register implements World.
func (w *world) Register(sc *godog.ScenarioContext) { w.register(sc) }

// Unsupported implements World.
func (w *world) Unsupported() string { return w.unsupported }

// ImplErr implements World.
func (w *world) ImplErr() error {
	if w.implErr == nil {
		return nil
	}
	return w.implErr
}

// Close implements World.
func (w *world) Close() { w.close() }

func (w *world) close() {
	if w.rt != nil {
		_ = w.rt.Close()
	}
}

// get asks the implementation for get(agent) now.
func (w *world) get(agent string) (sim.GetReply, error) {
	res, err := w.do(sim.Action{Get: &sim.AgentAction{Agent: agent}})
	if err != nil {
		return sim.GetReply{}, err
	}
	g, ok := res.StateOf(agent)
	if !ok {
		return sim.GetReply{}, fmt.Errorf("get(%s) returned nothing (is the plugin loaded?)", agent)
	}
	return g, nil
}

// lastRequest is the request the last action sent.
func (w *world) lastRequest() (sim.Request, error) {
	if n := len(w.last.Requests); n > 0 {
		return w.last.Requests[n-1], nil
	}
	return sim.Request{}, fmt.Errorf("the last action (%s) sent no request (decision %q)", w.last.Action.Name(), w.last.Decision)
}

// planEvents lists the plan/mode events the last action appended for agent,
// with their raw data.
func (w *world) planEvents(agent string) []sim.Event {
	var out []sim.Event
	for _, a := range w.last.Appended {
		if a.Agent == agent && a.Event.Type == spec.TypePlanMode {
			out = append(out, a.Event)
		}
	}
	return out
}

// logFold is the host's own fold of an agent's log: the active of the last
// plan/mode event the implementation's reading folds (choices
// plan-mode-data and plan-mode-malformed), false when none.
func (w *world) logFold(agent string) bool {
	log := w.rt.Log(agent)
	return sim.FoldPlanMode(log, len(log), spec.PlanModeReadingOf(w.rt.Identity().Choices))
}

func describeEvents(es []sim.Event) string {
	if len(es) == 0 {
		return "none"
	}
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = fmt.Sprintf("%s %s", e.Type, e.Data)
	}
	return strings.Join(parts, ", ")
}

func state(b bool) string {
	if b {
		return "active"
	}
	return "inactive"
}

func toolNames(ts []sim.Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}
