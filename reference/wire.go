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

// through applies f to v, or returns v when f is nil.
func through[T any](f func(T) T, v T) T {
	if f == nil {
		return v
	}
	return f(v)
}

func (w *wire) Load(req sim.LoadRequest) (sim.LoadReply, error) {
	r, err := w.Port.Load(through(w.load, req))
	return through(w.loaded, r), err
}

func (w *wire) Reload() (sim.LoadReply, error) {
	r, err := w.Port.Reload()
	return through(w.loaded, r), err
}

func (w *wire) Get(c sim.Call) (sim.GetReply, error) {
	r, err := w.Port.Get(c)
	return through(w.got, r), err
}

func (w *wire) Set(req sim.SetRequest) (sim.SetReply, error) {
	r, err := w.Port.Set(req)
	return through(w.set, r), err
}

func (w *wire) Assemble(req sim.AssembleRequest) (sim.AssembleReply, error) {
	r, err := w.Port.Assemble(req)
	return through(w.assembled, r), err
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
	r, err := w.Port.Command(req)
	return through(w.command, r), err
}

func (w *wire) PreStep(req sim.PreStepRequest) (sim.PreStepReply, error) {
	r, err := w.Port.PreStep(req)
	if w.preStep == nil || err != nil {
		return r, err
	}
	return w.preStep(req, r), nil
}
