package reference

import (
	"github.com/plankit/plankit/sim"
)

// wire wraps a port for a mutant that changes only what crosses it: the
// requests going in and the replies coming out. Each nil field passes its
// message through unchanged.
type wire struct {
	sim.Port
	load      func(sim.LoadRequest) sim.LoadRequest
	loaded    func(sim.LoadReply) sim.LoadReply // Load and Reload replies
	got       func(sim.GetReply) sim.GetReply
	set       func(sim.SetReply) sim.SetReply
	assembled func(sim.AssembleReply) sim.AssembleReply
	command   func(sim.CommandReply) sim.CommandReply
	preStep   func(sim.PreStepRequest, sim.PreStepReply) sim.PreStepReply
}

// through returns what passes a reply (or request) through f: unchanged
// when f is nil.
func through[T any](f func(T) T) func(T, error) (T, error) {
	return func(v T, err error) (T, error) {
		if f != nil {
			v = f(v)
		}
		return v, err
	}
}

func (w *wire) Load(req sim.LoadRequest) (sim.LoadReply, error) {
	req, _ = through(w.load)(req, nil)
	return through(w.loaded)(w.Port.Load(req))
}

func (w *wire) Reload() (sim.LoadReply, error) { return through(w.loaded)(w.Port.Reload()) }

func (w *wire) Get(c sim.Call) (sim.GetReply, error) { return through(w.got)(w.Port.Get(c)) }

func (w *wire) Set(req sim.SetRequest) (sim.SetReply, error) { return through(w.set)(w.Port.Set(req)) }

func (w *wire) Assemble(req sim.AssembleRequest) (sim.AssembleReply, error) {
	return through(w.assembled)(w.Port.Assemble(req))
}

// PreTool passes a host tool call to the wrapped port's gate, if it has one.
func (w *wire) PreTool(req sim.PreToolRequest) (sim.PreToolReply, error) {
	return preTool(w.Port, req)
}

// preTool asks p's tool gate; a port without one allows every call.
func preTool(p sim.Port, req sim.PreToolRequest) (sim.PreToolReply, error) {
	if g, ok := p.(sim.ToolGate); ok {
		return g.PreTool(req)
	}
	return sim.PreToolReply{Decision: sim.ToolAllow}, nil
}

func (w *wire) Command(req sim.CommandRequest) (sim.CommandReply, error) {
	return through(w.command)(w.Port.Command(req))
}

func (w *wire) PreStep(req sim.PreStepRequest) (sim.PreStepReply, error) {
	r, err := w.Port.PreStep(req)
	if w.preStep == nil || err != nil {
		return r, err
	}
	return w.preStep(req, r), nil
}
