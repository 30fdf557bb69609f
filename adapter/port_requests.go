package adapter

import (
	"encoding/json"

	"github.com/plankit/plankit/sim"
)

// Load implements sim.Port.
func (p *Port) Load(req sim.LoadRequest) (sim.LoadReply, error) {
	if c := p.lacking(req); c != "" {
		return sim.LoadReply{}, p.lacks(MethodLoad, c)
	}
	if len(req.Config) == 0 {
		req.Config = json.RawMessage("null")
	}
	return request[sim.LoadReply](p, MethodLoad, req)
}

// Open implements sim.Port.
func (p *Port) Open(req sim.OpenRequest) error {
	req.Events = nonNil(req.Events)
	return p.call(MethodOpen, req, &Empty{})
}

// Set implements sim.Port.
func (p *Port) Set(req sim.SetRequest) (sim.SetReply, error) {
	return request[sim.SetReply](p, MethodSet, req)
}

// Get implements sim.Port.
func (p *Port) Get(c sim.Call) (sim.GetReply, error) {
	var out sim.GetReply
	err := p.call(MethodGet, c, &out)
	if err == nil {
		p.sawGet(c.Agent, out)
	}
	return out, err
}

// sawGet notes what a get of agent reported, for the auto policy's
// restarts (restartsReal): whether a selection is pending. At the plugin
// level the runtime asks get after every action; at the runtime level only
// a script's get steps ask it.
func (p *Port) sawGet(agent string, out sim.GetReply) {
	if !p.whenPending {
		return
	}
	if p.pending == nil {
		p.pending = map[string]bool{}
	}
	p.pending[agent] = out.Pending != nil
}

// PreStep implements sim.Port.
func (p *Port) PreStep(req sim.PreStepRequest) (sim.PreStepReply, error) {
	if c := p.lacking(req); c != "" {
		return sim.PreStepReply{}, p.lacks(MethodPreStep, c)
	}
	req.Messages = nonNil(req.Messages)
	return request[sim.PreStepReply](p, MethodPreStep, req)
}

// Assemble implements sim.Port. The host's tools are sent only to an
// implementation that declares the hostTools capability; for another the
// request is unsupported, so the check that needs it is skipped.
func (p *Port) Assemble(req sim.AssembleRequest) (sim.AssembleReply, error) {
	if c := p.lacking(req); c != "" {
		return sim.AssembleReply{}, p.lacks(MethodAssemble, c)
	}
	return request[sim.AssembleReply](p, MethodAssemble, req)
}

// PreTool implements sim.ToolGate (capability hostTools).
func (p *Port) PreTool(req sim.PreToolRequest) (sim.PreToolReply, error) {
	if c := p.lacking(req); c != "" {
		return sim.PreToolReply{}, p.lacks(MethodPreTool, c)
	}
	if len(req.Args) == 0 {
		req.Args = json.RawMessage("null")
	}
	return request[sim.PreToolReply](p, MethodPreTool, req)
}

// lacking names the capability req needs that the implementation did not
// declare at start ("" when none; sim.Capabilities.Lacks).
func (p *Port) lacking(req any) string { return p.start.Capabilities.Sim().Lacks(req) }

// lacks is the unsupported error of a request that needs a capability the
// implementation does not declare (an older minor version).
func (p *Port) lacks(method, capability string) error {
	return &UnsupportedError{Method: method, Message: "the implementation does not declare the " + capability + " capability"}
}

// ExitTool implements sim.Port. A review scripted as the seam's reply or
// failure is not sent to an implementation that does not declare the
// reviewReplies capability (an older minor version): the request is
// unsupported, so the check that needs it is skipped.
func (p *Port) ExitTool(req sim.ExitToolRequest) (sim.ToolReply, error) {
	if c := p.lacking(req); c != "" {
		return sim.ToolReply{}, &UnsupportedError{Method: MethodExitTool, Message: "the implementation does not declare the " + c + " capability (" + req.Review.String() + ")"}
	}
	if len(req.Args) == 0 {
		req.Args = json.RawMessage("null")
	}
	return request[sim.ToolReply](p, MethodExitTool, req)
}

// Command implements sim.Port.
func (p *Port) Command(req sim.CommandRequest) (sim.CommandReply, error) {
	reply, err := request[sim.CommandReply](p, MethodCommand, req)
	if err == nil && reply.Exception {
		seq := 0
		if p.proc != nil {
			seq = p.proc.seq
		}
		// Minor 3: the handler threw and the adapter caught it. The
		// implementation could not run the command; its error text is
		// not a reply to judge under CMD-2..4.
		err = &RequestError{Method: MethodCommand, Seq: seq, Kind: KindException,
			Detail: "the adapter caught an exception inside the command's handler: " + reply.Text}
	}
	return reply, err
}

// Fold implements sim.Port.
func (p *Port) Fold(req sim.FoldRequest) (sim.FoldReply, error) {
	req.Events = nonNil(req.Events)
	return request[sim.FoldReply](p, MethodFold, req)
}

// Reload implements sim.Port.
func (p *Port) Reload() (sim.LoadReply, error) {
	return request[sim.LoadReply](p, MethodReload, Empty{})
}

// Unload implements sim.Port. An implementation that does not declare the
// unload capability (an older minor version) is not asked: the request is
// unsupported, so the check that needs it is skipped.
func (p *Port) Unload() (sim.LoadReply, error) {
	if !p.start.Capabilities.Unload {
		return sim.LoadReply{}, &UnsupportedError{Method: MethodUnload, Message: "the implementation does not declare the unload capability"}
	}
	return request[sim.LoadReply](p, MethodUnload, Empty{})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
