package adapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/plankit/plankit/internal/third_party/jsonschema"
	"github.com/plankit/plankit/sim"
)

// Defaults of Options.
const (
	DefaultTimeout       = 5 * time.Second
	DefaultStartTimeout  = 30 * time.Second
	DefaultStderrTail    = 4096
	DefaultRestartBudget = 3
	DefaultMaxIdle       = 2
)

// Options configure how adapter processes are run.
type Options struct {
	// Command is the adapter's command line, already split into words.
	Command []string
	// Dir is the working directory of the process; empty means the
	// current directory.
	Dir string
	// Timeout bounds every request, from writing it to reading its reply
	// (DefaultTimeout when zero). A request that times out ends the
	// process.
	Timeout time.Duration
	// StartTimeout bounds a start request instead, the handshake that may
	// wait for an interpreter or runtime to boot (DefaultStartTimeout when
	// zero, and never less than Timeout).
	StartTimeout time.Duration
	// Validate checks every request and reply against the strict JSON
	// Schemas (no unknown fields), for adapter authors. Replies are always
	// checked against the schemas with unknown fields allowed.
	Validate bool
	// MaxLine is the longest reply line accepted, in bytes (MaxLine when
	// zero).
	MaxLine int
	// StderrTail is how many bytes of the end of stderr a crash report
	// quotes (DefaultStderrTail when zero).
	StderrTail int
	// NoSpare turns off spawning the next process ahead of time. By
	// default the pool keeps one spare process spawned but unused, so that
	// a Start (a new scenario, a restart) does not wait for the process to
	// boot; the spare is ended by Close.
	NoSpare bool
	// NoReuse turns off reusing processes across scenarios. By default a
	// process whose implementation declares the "reuse" capability is
	// parked at Stop and handed to the next port's first Start, which
	// resets it with a start request. A restart within a scenario always
	// gets a new process.
	NoReuse bool
	// Restarts is how a restart within a scenario (Stop then Start on
	// the same port) is done: RestartReal (the default) ends the process
	// and starts a new one; RestartReset sends start to the same process,
	// which resets it, when the implementation declares reuse;
	// RestartAuto does a real restart for ports made for a check about
	// process-local state and for a fixed sample of the other checks, and
	// a reset for the rest (see RealRestarts).
	Restarts RestartMode
	// MaxIdle bounds the processes parked for reuse (DefaultMaxIdle when
	// zero); parking one more ends the one parked longest ago. Set it to
	// the number of ports used at once.
	MaxIdle int
	// KillGrace is how long a process group has between SIGTERM and
	// SIGKILL when the pool ends it (DefaultKillGrace when zero).
	KillGrace time.Duration
	// RestartBudget is how many failed processes (crashed, hung, broke the
	// protocol) the pool replaces with new ones; after that, Start fails at
	// once. DefaultRestartBudget when zero; negative means none.
	RestartBudget int
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	o.StartTimeout = max(o.StartTimeout, o.Timeout)
	if o.MaxLine <= 0 {
		o.MaxLine = MaxLine
	}
	if o.StderrTail <= 0 {
		o.StderrTail = DefaultStderrTail
	}
	if o.MaxIdle <= 0 {
		o.MaxIdle = DefaultMaxIdle
	}
	if o.KillGrace <= 0 {
		o.KillGrace = DefaultKillGrace
	}
	if o.RestartBudget == 0 {
		o.RestartBudget = DefaultRestartBudget
	}
	if o.RestartBudget < 0 {
		o.RestartBudget = 0
	}
	return o
}

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
	p := &Pool{opts: opts, name: fmt.Sprintf("%q", strings.Join(opts.Command, " ")), schemas: lenientSet, live: map[*process]bool{}}
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
func (p *Pool) Port() *Port {
	return &Port{pool: p, realRestarts: p.opts.Restarts != RestartReset, whenPending: p.opts.Restarts == RestartAuto}
}

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
		if pr, err = spawn(p.opts); err != nil {
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
		pr, err := spawn(p.opts)
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

// request sends one request of method with params and returns its result
// decoded as R.
func request[R any](p *Port, method string, params any) (R, error) {
	var out R
	err := p.call(method, params, &out)
	return out, err
}

// call sends one request and decodes its result into out.
func (p *Port) call(method string, params, out any) error {
	if p.broken != nil {
		return p.broken
	}
	if p.proc == nil {
		return errNotStarted
	}
	pr := p.proc
	pr.seq++
	seq := pr.seq
	// One encoding per request: the params are encoded into the line,
	// which is framed by hand ({"seq":N,"method":"M","params":P}, the
	// bytes json.Marshal of a Request gives).
	var head [64]byte
	prefix := append(head[:0], `{"seq":`...)
	prefix = strconv.AppendInt(prefix, int64(seq), 10)
	prefix = append(prefix, `,"method":"`...)
	prefix = append(prefix, method...)
	prefix = append(prefix, `","params":`...)
	pr.enc.Reset(prefix)
	if err := pr.enc.Encode(params); err != nil {
		return fmt.Errorf("adapter: encoding %s params: %w", method, err)
	}
	buf := pr.enc.Finish('}')
	line := buf[:len(buf)-1]
	if p.pool.opts.Validate {
		if err := checkRequest(p.pool.schemas, line); err != nil {
			return fmt.Errorf("adapter: the kit's own request seq %d %q fails the protocol schema (a kit bug): %v\n  request: %s", seq, method, err, quote(line))
		}
	}
	timeout, flag := p.pool.opts.Timeout, "--timeout"
	if method == MethodStart {
		timeout, flag = p.pool.opts.StartTimeout, "--start-timeout"
	}
	deadline := time.Now().Add(timeout)
	pr.stdin.SetWriteDeadline(deadline)
	if _, err := pr.stdin.Write(buf); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			pr.kill()
			return p.fail(&RequestError{Method: method, Seq: seq, Kind: KindTimeout,
				Detail: fmt.Sprintf("the request could not be written within %v (%s): the adapter does not read its stdin; the process was killed\n  request: %s\n  %s", timeout, flag, quote(line), pr.stderr)})
		}
		// Most likely the process has exited; report that if it has.
		select {
		case <-pr.exited:
		case <-time.After(time.Until(deadline)):
		}
		if !pr.alive() {
			return p.fail(p.exitedError(method, seq, line))
		}
		return p.fail(&RequestError{Method: method, Seq: seq, Kind: KindIO, Detail: "cannot write the request: " + err.Error()})
	}
	ev, err := pr.out.next(deadline)
	switch {
	case err == nil:
		return p.reply(method, seq, line, ev, out)
	case errors.Is(err, os.ErrDeadlineExceeded):
		pr.kill()
		return p.fail(&RequestError{Method: method, Seq: seq, Kind: KindTimeout,
			Detail: fmt.Sprintf("no reply within %v (%s); the process was killed\n  request: %s\n  %s", timeout, flag, quote(line), pr.stderr)})
	}
	// End of stdout: the process is exiting; give it until the deadline.
	select {
	case <-pr.exited:
		return p.fail(p.exitedError(method, seq, line))
	case <-time.After(time.Until(deadline)):
		pr.kill()
		return p.fail(&RequestError{Method: method, Seq: seq, Kind: KindExited,
			Detail: fmt.Sprintf("the adapter closed its stdout (%v) without replying; the process was killed\n  request: %s\n  %s", err, quote(line), pr.stderr)})
	}
}

func (p *Port) exitedError(method string, seq int, line []byte) error {
	pr := p.proc
	return &RequestError{Method: method, Seq: seq, Kind: KindExited,
		Detail: fmt.Sprintf("the adapter process exited (%s) before replying\n  request: %s\n  %s", pr.exitStatus(), quote(line), pr.stderr)}
}

// reply interprets one reply line.
func (p *Port) reply(method string, seq int, request []byte, ev lineEvent, out any) error {
	protocol := func(what string) error {
		return p.fail(&RequestError{Method: method, Seq: seq, Kind: KindProtocol, Detail: fmt.Sprintf(
			"protocol error: %s\n  request:  %s\n  reply:    %s\n  expected: %s", what, quote(request), quote(ev.data), p.pool.schemas.expectedShape(seq, method))})
	}
	if ev.oversize {
		return protocol(fmt.Sprintf("reply line longer than the limit of %d bytes (cut off; see docs/adapter-protocol.md#limits)", p.pool.opts.MaxLine))
	}
	rest, fast := p.pool.valid.lookup(method, seq, ev.data)
	if !fast {
		if err := p.checkReply(method, seq, ev.data, protocol); err != nil {
			return err
		}
		p.pool.valid.add(method, rest)
	}
	// One typed decoding, straight into out.
	r := replyInto{Result: out}
	if err := json.Unmarshal(ev.data, &r); err != nil {
		return protocol("the reply does not decode: " + err.Error())
	}
	switch {
	case r.Error != nil:
		return &RequestError{Method: method, Seq: seq, Kind: KindReported, Detail: "the implementation failed to handle the request: " + r.Error.Message}
	case r.Unsupported != nil:
		return &UnsupportedError{Method: method, Seq: seq, Message: r.Unsupported.Message}
	}
	return nil
}

// checkReply checks a reply's seq and its shape against the protocol's
// schemas, from one generic parse.
func (p *Port) checkReply(method string, seq int, data []byte, protocol func(string) error) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return protocol("the reply is not valid JSON: " + err.Error())
	}
	m, ok := v.(map[string]any)
	if !ok {
		return protocol("the reply is not a JSON object")
	}
	if got, ok := m["seq"].(json.Number); !ok || got.String() != strconv.Itoa(seq) {
		return protocol(fmt.Sprintf("the reply has seq %s, want seq %d (replies echo the request's seq, one reply per request, in order)", quote(rawSeq(m["seq"])), seq))
	}
	if err := checkReplyValue(p.pool.schemas, method, v); err != nil {
		return protocol("the reply does not match the protocol schema: " + err.Error())
	}
	return nil
}

// replyInto decodes a reply whose result goes straight into the value
// Result points to.
type replyInto struct {
	Result      any           `json:"result"`
	Error       *ReplyMessage `json:"error"`
	Unsupported *ReplyMessage `json:"unsupported"`
}

// Load implements sim.Port.
func (p *Port) Load(req sim.LoadRequest) (sim.LoadReply, error) {
	if len(req.HostTools) > 0 && !p.start.Capabilities.HostTools {
		return sim.LoadReply{}, p.lacks(MethodLoad, "hostTools")
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
	if p.whenPending && err == nil {
		if p.pending == nil {
			p.pending = map[string]bool{}
		}
		p.pending[c.Agent] = out.Pending != nil
	}
	return out, err
}

// PreStep implements sim.Port.
func (p *Port) PreStep(req sim.PreStepRequest) (sim.PreStepReply, error) {
	if req.SkipsEmpty && !p.start.Capabilities.EmptySteps {
		return sim.PreStepReply{}, p.lacks(MethodPreStep, "emptySteps")
	}
	req.Messages = nonNil(req.Messages)
	return request[sim.PreStepReply](p, MethodPreStep, req)
}

// Assemble implements sim.Port. The host's tools are sent only to an
// implementation that declares the hostTools capability; for another the
// request is unsupported, so the check that needs it is skipped.
func (p *Port) Assemble(req sim.AssembleRequest) (sim.AssembleReply, error) {
	if len(req.Tools) > 0 && !p.start.Capabilities.HostTools {
		return sim.AssembleReply{}, p.lacks(MethodAssemble, "hostTools")
	}
	return request[sim.AssembleReply](p, MethodAssemble, req)
}

// PreTool implements sim.ToolGate (capability hostTools).
func (p *Port) PreTool(req sim.PreToolRequest) (sim.PreToolReply, error) {
	if !p.start.Capabilities.HostTools {
		return sim.PreToolReply{}, p.lacks(MethodPreTool, "hostTools")
	}
	if len(req.Args) == 0 {
		req.Args = json.RawMessage("null")
	}
	return request[sim.PreToolReply](p, MethodPreTool, req)
}

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
	if req.Review.Extended() && !p.start.Capabilities.ReviewReplies {
		return sim.ToolReply{}, &UnsupportedError{Method: MethodExitTool, Message: "the implementation does not declare the reviewReplies capability (" + req.Review.String() + ")"}
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

// rawSeq renders a reply's seq member for a message.
func rawSeq(v any) []byte {
	if v == nil {
		return []byte("(missing)")
	}
	b, _ := json.Marshal(v)
	return b
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
