package adapter

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/plankit/plankit/sim"
)

// Pool runs the processes of one adapter command. It hands out ports,
// counts failed processes against the restart budget and ends every live
// process on Close.
type Pool struct {
	opts    Options
	name    string
	schemas *schemaSet

	mu       sync.Mutex
	failures int
	last     error
	live     map[*process]bool
	closed   bool
	// spare is a process spawned ahead of time and not yet used; the next
	// Start takes it, so process start-up overlaps with the work before.
	spare *process
	// refilling is closed when the spare being spawned is ready.
	refilling chan struct{}
	// idle are processes parked by Stop for reuse by another scenario.
	idle []*process
	// restarts counts the restarts done, by kind.
	restarts RestartCounts
	// byCheck counts the restarts of the ports made by PortFor, by check
	// ID, so that Forget can take back a check's.
	byCheck map[string]RestartCounts
	// ending are processes Close or Abort is ending.
	ending []*process
	// valid remembers replies that passed the schema check.
	valid validReplies
	// guards run the pool's processes (nil where there are none).
	guards *guardSet
}

// NewPool returns a pool for the adapter command in opts. It starts
// nothing: each Port.Start spawns a process.
func NewPool(opts Options) (*Pool, error) {
	return newPool(opts, compiledSchemas)
}

func newPool(opts Options, schemas protocolSchemas) (*Pool, error) {
	opts = opts.withDefaults()
	if len(opts.Command) == 0 || opts.Command[0] == "" {
		return nil, errors.New("adapter: empty command")
	}
	strictSet, lenientSet, err := schemas()
	if err != nil {
		return nil, fmt.Errorf("adapter schemas: %w", err)
	}
	p := &Pool{opts: opts, name: fmt.Sprintf("%q", strings.Join(opts.Command, " ")), schemas: lenientSet, live: map[*process]bool{}, guards: newGuardSet(opts)}
	if opts.Validate {
		p.schemas = strictSet
	}
	return p, nil
}

// Port returns a new port whose Start spawns a process. Its restarts
// follow Options.Restarts; under RestartAuto a port made without knowing
// its check (an exploration's, a lockstep comparison's) is treated as one
// about process-local state: its first restart is real, and every later one
// made while the implementation reports a pending selection.
func (p *Pool) Port() *Port { return p.PortFor(sim.Check{ProcessLocal: true}) }

// PortFor returns a new port for a check: under RestartAuto its restarts
// are real when RealRestarts says so, else resets.
func (p *Pool) PortFor(c sim.Check) *Port {
	real := p.opts.Restarts != RestartReset
	if p.opts.Restarts == RestartAuto {
		real = RealRestarts(c)
	}
	return &Port{pool: p, realRestarts: real, check: c.ID, whenPending: p.opts.Restarts == RestartAuto && c.ProcessLocal}
}

// Restarts counts the restarts done so far, by kind.
func (p *Pool) Restarts() RestartCounts {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.restarts
}

// Failures is how many processes failed so far.
func (p *Pool) Failures() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.failures
}

// Close ends every process still running, the spare and the parked ones
// included: it closes their stdin (which an implementation treats as
// stop), gives them a second to exit, then ends the process groups of the
// rest with SIGTERM and, after KillGrace, SIGKILL.
func (p *Pool) Close() { p.end(time.Second) }

// Abort ends every process at once, for an interrupted run: SIGTERM to
// each process group, SIGKILL after KillGrace. A request waiting for a
// reply fails, and no process is started afterwards. It may be called
// from any goroutine, while ports are in use.
func (p *Pool) Abort() { p.end(0) }

// Kill sends SIGKILL to every process group of the pool, those being
// ended included, without waiting: for a plankit that exits at once.
func (p *Pool) Kill() {
	p.mu.Lock()
	p.closed = true
	procs := slices.Clone(p.ending)
	for pr := range p.live {
		procs = append(procs, pr)
	}
	p.mu.Unlock()
	for _, pr := range procs {
		if pr.alive() {
			pr.signal(syscall.SIGKILL)
		}
	}
	p.guards.kill()
}

func (p *Pool) end(stdinGrace time.Duration) {
	p.mu.Lock()
	p.closed = true
	ready := p.refilling
	p.mu.Unlock()
	if ready != nil {
		<-ready
	}
	p.mu.Lock()
	procs := make([]*process, 0, len(p.live))
	for pr := range p.live {
		procs = append(procs, pr)
	}
	p.live = map[*process]bool{}
	p.spare, p.idle = nil, nil
	p.ending = append(p.ending, procs...)
	p.mu.Unlock()
	if stdinGrace > 0 {
		for _, pr := range procs {
			pr.stdin.Close()
		}
		deadline := time.After(stdinGrace)
	wait:
		for _, pr := range procs {
			select {
			case <-pr.exited:
			case <-deadline:
				break wait
			}
		}
	}
	var wg sync.WaitGroup
	for _, pr := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pr.terminate(p.opts.KillGrace)
		}()
	}
	wg.Wait()
	p.guards.close()
	p.mu.Lock()
	p.ending = slices.DeleteFunc(p.ending, func(pr *process) bool { return slices.Contains(procs, pr) })
	p.mu.Unlock()
}

// spawn returns a fresh process, never used before: the spare when there
// is one, else a new one. Either way it starts spawning the next spare.
func (p *Pool) spawn() (*process, error) {
	p.mu.Lock()
	if p.failures > p.opts.RestartBudget {
		err := &StartError{Command: p.name, Detail: fmt.Sprintf("not restarted: %d processes failed, more than the restart budget of %d; the last failure was: %v", p.failures, p.opts.RestartBudget, p.last)}
		p.mu.Unlock()
		return nil, err
	}
	if p.closed {
		p.mu.Unlock()
		return nil, &StartError{Command: p.name, Detail: "the pool is closed"}
	}
	ready := p.refilling
	p.mu.Unlock()
	if ready != nil {
		<-ready
	}
	p.mu.Lock()
	pr := p.spare
	p.spare = nil
	p.mu.Unlock()
	if pr == nil {
		var err error
		if pr, err = spawn(p.opts, p.guards); err != nil {
			err = &StartError{Command: p.name, Detail: "cannot start: " + err.Error()}
			p.failed(err)
			return nil, err
		}
		p.mu.Lock()
		closed := p.closed
		if !closed {
			p.live[pr] = true
		}
		p.mu.Unlock()
		if closed {
			// Closed while the process was being spawned.
			pr.kill()
			return nil, &StartError{Command: p.name, Detail: "the pool is closed"}
		}
	}
	if !p.opts.NoSpare {
		p.refill()
	}
	return pr, nil
}

// refill spawns the next spare in the background. A spare that cannot be
// spawned is not reported here: the next Start spawns in the foreground
// and reports why.
func (p *Pool) refill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.refilling != nil || p.spare != nil || p.failures > p.opts.RestartBudget {
		return
	}
	done := make(chan struct{})
	p.refilling = done
	go func() {
		pr, err := spawn(p.opts, p.guards)
		p.mu.Lock()
		late := err == nil && p.closed
		if err == nil && !late {
			p.spare = pr
			p.live[pr] = true
		}
		p.refilling = nil
		p.mu.Unlock()
		if late {
			pr.kill()
		}
		close(done)
	}()
}

// park keeps a healthy process for another scenario; false when the pool
// is closed. When the parked processes are at Options.MaxIdle, the oldest
// is ended.
func (p *Pool) park(pr *process) bool {
	p.mu.Lock()
	if p.closed || !pr.alive() {
		p.mu.Unlock()
		return false
	}
	var evicted *process
	if len(p.idle) >= p.opts.MaxIdle {
		evicted = p.idle[0]
		p.idle = append(p.idle[:0], p.idle[1:]...)
	}
	p.idle = append(p.idle, pr)
	p.mu.Unlock()
	if evicted != nil {
		evicted.kill()
		p.reaped(evicted)
	}
	return true
}

// unpark takes pr back from the parked processes; false when another
// port has taken it meanwhile.
func (p *Pool) unpark(pr *process) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, x := range p.idle {
		if x == pr {
			p.idle = append(p.idle[:i], p.idle[i+1:]...)
			return true
		}
	}
	return false
}

// takeIdle returns a parked process that is still alive, or nil.
func (p *Pool) takeIdle() *process {
	for {
		p.mu.Lock()
		if len(p.idle) == 0 {
			p.mu.Unlock()
			return nil
		}
		pr := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		p.mu.Unlock()
		if pr.alive() {
			return pr
		}
		pr.kill()
		p.reaped(pr)
	}
}

func (p *Pool) countRestart(check string, reset bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := RestartCounts{Real: 1}
	if reset {
		n = RestartCounts{Reset: 1}
	}
	p.restarts = p.restarts.Add(n)
	if check != "" {
		if p.byCheck == nil {
			p.byCheck = map[string]RestartCounts{}
		}
		p.byCheck[check] = p.byCheck[check].Add(n)
	}
}

// Forget takes the restarts of the ports made for a check out of the
// counts: a check whose result is not used (a case run ahead by another
// worker, after an earlier case of its property failed) must not change
// the counts a report shows, or they would depend on the number of
// workers.
func (p *Pool) Forget(check string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.byCheck[check]
	p.restarts = RestartCounts{Real: p.restarts.Real - n.Real, Reset: p.restarts.Reset - n.Reset}
	delete(p.byCheck, check)
}

func (p *Pool) failed(err error) {
	p.mu.Lock()
	p.failures++
	p.last = err
	p.mu.Unlock()
}

func (p *Pool) reaped(pr *process) {
	p.mu.Lock()
	delete(p.live, pr)
	p.mu.Unlock()
}
