package conformance

import (
	"fmt"
	"maps"
	"slices"

	"github.com/plankit/plankit/sim"
)

// declared wraps newPort as the kit runs every Go implementation: Start
// declares the given picks for the silent points the implementation
// leaves undeclared, and a request that needs a capability the
// implementation does not declare is not sent (sim.Capabilities.Lacks),
// as the adapter does not send it over the wire: it is unsupported, and
// the check that needs it is skipped. The port's other interfaces
// (sim.Restarter, sim.ToolGate) are kept.
func declared(newPort func() sim.Port, choices map[string]string) func() sim.Port {
	return func() sim.Port {
		p := newPort()
		d := &declaredPort{Port: p, choices: choices}
		if g, ok := p.(sim.ToolGate); ok {
			return gatedPort{d, g}
		}
		return d
	}
}

// declaredPort is a port as declared: the options' choices filled in, the
// requests its capabilities do not cover refused.
type declaredPort struct {
	sim.Port
	choices map[string]string
	caps    sim.Capabilities
}

// gatedPort is a declaredPort whose implementation gates host tool calls.
type gatedPort struct {
	*declaredPort
	gate sim.ToolGate
}

// PreTool implements sim.ToolGate.
func (p gatedPort) PreTool(req sim.PreToolRequest) (sim.PreToolReply, error) {
	if err := p.lacks("preTool", req); err != nil {
		return sim.PreToolReply{}, err
	}
	return p.gate.PreTool(req)
}

func (p *declaredPort) Start() (sim.Identity, error) {
	id, err := p.Port.Start()
	id = fill(id, p.choices)
	p.caps = id.Capabilities
	return id, err
}

// StopForRestart passes the restart on, so the port underneath can keep
// its process (sim.Restarter).
func (p *declaredPort) StopForRestart() error {
	if rs, ok := p.Port.(sim.Restarter); ok {
		return rs.StopForRestart()
	}
	return p.Port.Stop()
}

// lacks is the unsupported error of a request the declaration does not
// cover, or nil.
func (p *declaredPort) lacks(method string, req any) error {
	if c := p.caps.Lacks(req); c != "" {
		return fmt.Errorf("%w: %s: the implementation does not declare the %s capability", sim.ErrUnsupported, method, c)
	}
	return nil
}

func (p *declaredPort) Load(req sim.LoadRequest) (sim.LoadReply, error) {
	if err := p.lacks("load", req); err != nil {
		return sim.LoadReply{}, err
	}
	return p.Port.Load(req)
}

func (p *declaredPort) PreStep(req sim.PreStepRequest) (sim.PreStepReply, error) {
	if err := p.lacks("preStep", req); err != nil {
		return sim.PreStepReply{}, err
	}
	return p.Port.PreStep(req)
}

func (p *declaredPort) Assemble(req sim.AssembleRequest) (sim.AssembleReply, error) {
	if err := p.lacks("assemble", req); err != nil {
		return sim.AssembleReply{}, err
	}
	return p.Port.Assemble(req)
}

func (p *declaredPort) ExitTool(req sim.ExitToolRequest) (sim.ToolReply, error) {
	if err := p.lacks("exitTool", req); err != nil {
		return sim.ToolReply{}, err
	}
	return p.Port.ExitTool(req)
}

func (p *declaredPort) Unload() (sim.LoadReply, error) {
	if !p.caps.Unload {
		return sim.LoadReply{}, fmt.Errorf("%w: unload: the implementation does not declare the unload capability", sim.ErrUnsupported)
	}
	return p.Port.Unload()
}

// fill adds to id the picks it does not declare.
func fill(id sim.Identity, choices map[string]string) sim.Identity {
	if len(choices) == 0 {
		return id
	}
	declared := maps.Clone(id.Choices)
	if declared == nil {
		declared = map[string]string{}
	}
	for name, v := range choices {
		if _, ok := declared[name]; !ok {
			declared[name] = v
		}
	}
	id.Choices = declared
	return id
}

// conflicts reports a pick given in Options.Choices that the
// implementation declares otherwise.
func conflicts(declared sim.Identity, choices map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(choices)) {
		if v, ok := declared.Choices[name]; ok && v != choices[name] {
			return fmt.Errorf("choice %s: the implementation declares %q, the options say %q", name, v, choices[name])
		}
	}
	return nil
}
