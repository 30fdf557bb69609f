package adapter

import (
	"errors"
	"fmt"
	"time"

	"github.com/plankit/plankit/sim"
)

// Port is sim.Port over the adapter protocol: each Start spawns a new
// process, Stop ends it. A Port is used by one goroutine at a time.
type Port struct {
	pool  *Pool
	proc  *process
	start StartResult
	// started: this port has started a process before, so its next Start
	// is a restart and must get a new process.
	started bool
	// parked is the process this port parked at its last Stop.
	parked *process
	// broken is the failure that ended the current process; every later
	// request returns it until the next Start.
	broken error
	// realRestarts: a restart ends the process and starts a new one;
	// otherwise a process that declared reuse is reset with start.
	realRestarts bool
	// held is the process StopForRestart kept for the next Start to reset.
	held *process
	// check is the ID of the check the port was made for (PortFor).
	check string
	// whenPending: the port's first restart is real, and every later one
	// made while the implementation holds a pending selection (the auto
	// policy for checks about process-local state; see RealRestarts);
	// pending is what its last get() of each agent reported, restarted
	// whether the port restarted before.
	whenPending bool
	pending     map[string]bool
	restarted   bool
}

// restartsReal says whether the next restart ends the process.
func (p *Port) restartsReal() bool {
	if !p.whenPending {
		return p.realRestarts
	}
	if !p.restarted {
		return true
	}
	for _, held := range p.pending {
		if held {
			return true
		}
	}
	return false
}

var (
	_ sim.Port      = (*Port)(nil)
	_ sim.Restarter = (*Port)(nil)
)

// StartResult is what the current process said at start.
func (p *Port) StartResult() StartResult { return p.start }

// PID is the current process's id, 0 when none runs.
func (p *Port) PID() int {
	if p.proc == nil {
		return 0
	}
	return p.proc.pid()
}

// Start implements sim.Port and performs the start handshake. The first
// Start of a port may reuse a process another scenario parked (the start
// request resets it). A restart is real — the process this port ran
// before is ended and a new one starts — unless StopForRestart kept the
// process: then it is sent start again, which resets it.
func (p *Port) Start() (sim.Identity, error) {
	pr, err := p.acquire()
	if err != nil {
		return sim.Identity{}, err
	}
	var res StartResult
	if err := p.call(MethodStart, StartParams{Protocol: ProtocolVersion, Minor: ProtocolMinor}, &res); err != nil {
		return sim.Identity{}, err
	}
	if res.Protocol != ProtocolVersion {
		return sim.Identity{}, p.fail(&RequestError{Method: MethodStart, Seq: pr.seq, Kind: KindProtocol,
			Detail: fmt.Sprintf("the implementation speaks protocol %d; this kit speaks protocol %d", res.Protocol, ProtocolVersion)})
	}
	p.start = res
	pr.reuse = res.Capabilities.Reuse
	return res.Identity(), nil
}

// acquire gets the process for a Start: a parked one on a port's first
// Start (unless reuse is off), else a new one. The caller sends start.
func (p *Port) acquire() (*process, error) {
	p.end()
	restart := p.started
	p.started = true
	p.pending = nil // a new or reset process holds nothing until it says so
	if p.parked != nil {
		if p.pool.unpark(p.parked) {
			p.parked.kill()
			p.pool.reaped(p.parked)
		}
		p.parked = nil
	}
	var pr *process
	if held := p.held; held != nil {
		p.held = nil
		if held.alive() {
			pr = held
		} else {
			held.kill()
			p.pool.reaped(held)
		}
	}
	if restart {
		p.pool.countRestart(p.check, pr != nil)
		p.restarted = true
	}
	if pr == nil && !restart && !p.pool.opts.NoReuse {
		pr = p.pool.takeIdle()
	}
	if pr == nil {
		var err error
		if pr, err = p.pool.spawn(); err != nil {
			return nil, err
		}
	}
	p.proc, p.broken, p.start = pr, nil, StartResult{}
	pr.reuse = false // until this start succeeds
	return pr, nil
}

// Stop implements sim.Port. A process that declared the reuse capability
// is parked for another scenario (if this port starts again, that is a
// restart, and Start ends the parked process); any other is sent stop,
// given the request timeout to exit, killed if it has not, and reaped.
func (p *Port) Stop() error {
	if p.proc == nil {
		return nil
	}
	if p.broken != nil {
		p.end()
		return nil
	}
	if p.proc.reuse && !p.pool.opts.NoReuse && p.pool.park(p.proc) {
		p.parked, p.proc = p.proc, nil
		return nil
	}
	err := p.call(MethodStop, Empty{}, &Empty{})
	if pr := p.proc; err == nil {
		pr.stdin.Close()
		select {
		case <-pr.exited:
		case <-time.After(p.pool.opts.Timeout):
		}
	}
	p.end()
	return err
}

// StopForRestart implements sim.Restarter: when this port's restarts are
// resets and the process declared reuse, the process is kept for the next
// Start, which resets it with a start request; otherwise it is Stop. The
// kept process belongs to this port alone, so which restarts are resets
// does not depend on other ports running at the same time.
func (p *Port) StopForRestart() error {
	if p.proc != nil && p.broken == nil && !p.restartsReal() && p.proc.reuse && !p.pool.opts.NoReuse && p.proc.alive() {
		p.held, p.proc = p.proc, nil
		return nil
	}
	return p.Stop()
}

// end kills and reaps the current process, if any.
func (p *Port) end() {
	if p.proc == nil {
		return
	}
	p.proc.kill()
	p.pool.reaped(p.proc)
	p.proc = nil
}

// fail records a failure that ends the process.
func (p *Port) fail(err error) error {
	if p.proc != nil {
		p.proc.kill()
	}
	p.broken = err
	p.pool.failed(err)
	return err
}

var errNotStarted = errors.New("adapter: no process is running (start was not called or failed)")
