package adapter

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/plankit/plankit/sim"
)

// Defaults of Options.
const (
	DefaultTimeout       = 5 * time.Second
	DefaultStderrTail    = 4096
	DefaultRestartBudget = 3
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
	// RestartBudget is how many failed processes (crashed, hung, broke the
	// protocol) the pool replaces with new ones; after that, Start fails at
	// once. DefaultRestartBudget when zero; negative means none.
	RestartBudget int
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxLine <= 0 {
		o.MaxLine = MaxLine
	}
	if o.StderrTail <= 0 {
		o.StderrTail = DefaultStderrTail
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
}

// NewPool returns a pool for the adapter command in opts. It starts
// nothing: each Port.Start spawns a process.
func NewPool(opts Options) (*Pool, error) {
	opts = opts.withDefaults()
	if len(opts.Command) == 0 || opts.Command[0] == "" {
		return nil, errors.New("adapter: empty command")
	}
	strictSet, lenientSet, err := compiledSchemas()
	if err != nil {
		return nil, fmt.Errorf("adapter schemas: %w", err)
	}
	p := &Pool{opts: opts, name: fmt.Sprintf("%q", strings.Join(opts.Command, " ")), schemas: lenientSet, live: map[*process]bool{}}
	if opts.Validate {
		p.schemas = strictSet
	}
	return p, nil
}

// Port returns a new port whose Start spawns a process.
func (p *Pool) Port() *Port { return &Port{pool: p} }

// Failures is how many processes failed so far.
func (p *Pool) Failures() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.failures
}

// Close ends every process still running.
func (p *Pool) Close() {
	p.mu.Lock()
	procs := make([]*process, 0, len(p.live))
	for pr := range p.live {
		procs = append(procs, pr)
	}
	p.live = map[*process]bool{}
	p.mu.Unlock()
	for _, pr := range procs {
		pr.kill()
	}
}

func (p *Pool) spawn() (*process, error) {
	p.mu.Lock()
	if p.failures > p.opts.RestartBudget {
		err := &StartError{Command: p.name, Detail: fmt.Sprintf("not restarted: %d processes failed, more than the restart budget of %d; the last failure was: %v", p.failures, p.opts.RestartBudget, p.last)}
		p.mu.Unlock()
		return nil, err
	}
	p.mu.Unlock()
	pr, err := spawn(p.opts)
	if err != nil {
		err = &StartError{Command: p.name, Detail: "cannot start: " + err.Error()}
		p.failed(err)
		return nil, err
	}
	p.mu.Lock()
	p.live[pr] = true
	p.mu.Unlock()
	return pr, nil
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
	seq   int
	start StartResult
	// broken is the failure that ended the current process; every later
	// request returns it until the next Start.
	broken error
}

var _ sim.Port = (*Port)(nil)

// StartResult is what the current process said at start.
func (p *Port) StartResult() StartResult { return p.start }

// PID is the current process's id, 0 when none runs.
func (p *Port) PID() int {
	if p.proc == nil || p.proc.cmd.Process == nil {
		return 0
	}
	return p.proc.cmd.Process.Pid
}

// Start implements sim.Port: it ends any process this port still runs,
// spawns a new one and performs the start handshake.
func (p *Port) Start() (sim.Identity, error) {
	p.end()
	pr, err := p.pool.spawn()
	if err != nil {
		return sim.Identity{}, err
	}
	p.proc, p.seq, p.broken, p.start = pr, 0, nil, StartResult{}
	var res StartResult
	if err := p.call(MethodStart, StartParams{Protocol: ProtocolVersion}, &res); err != nil {
		return sim.Identity{}, err
	}
	if res.Protocol != ProtocolVersion {
		return sim.Identity{}, p.fail(&RequestError{Method: MethodStart, Seq: p.seq, Kind: KindProtocol,
			Detail: fmt.Sprintf("the implementation speaks protocol %d; this kit speaks protocol %d", res.Protocol, ProtocolVersion)})
	}
	p.start = res
	return res.Identity(), nil
}

// Stop implements sim.Port: it sends stop, waits for the process to exit
// (ending it when it does not within the timeout) and reaps it.
func (p *Port) Stop() error {
	if p.proc == nil {
		return nil
	}
	if p.broken != nil {
		p.end()
		return nil
	}
	err := p.call(MethodStop, Empty{}, &Empty{})
	pr := p.proc
	if err == nil {
		pr.stdin.Close()
		select {
		case <-pr.exited:
		case <-time.After(p.pool.opts.Timeout):
			err = p.fail(&RequestError{Method: MethodStop, Seq: p.seq, Kind: KindTimeout,
				Detail: fmt.Sprintf("the process did not exit within %v after replying to stop; it was killed", p.pool.opts.Timeout)})
		}
	}
	p.end()
	return err
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

// call sends one request and decodes its result into out.
func (p *Port) call(method string, params, out any) error {
	if p.broken != nil {
		return p.broken
	}
	if p.proc == nil {
		return errNotStarted
	}
	p.seq++
	seq := p.seq
	rawParams, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("adapter: encoding %s params: %w", method, err)
	}
	line, err := json.Marshal(Request{Seq: seq, Method: method, Params: rawParams})
	if err != nil {
		return fmt.Errorf("adapter: encoding %s request: %w", method, err)
	}
	if p.pool.opts.Validate {
		if err := checkRequest(p.pool.schemas, line); err != nil {
			return fmt.Errorf("adapter: the kit's own request seq %d %q fails the protocol schema (a kit bug): %v\n  request: %s", seq, method, err, quote(line))
		}
	}
	pr := p.proc
	written := make(chan error, 1)
	go func() {
		_, err := pr.stdin.Write(append(line, '\n'))
		written <- err
	}()
	timer := time.NewTimer(p.pool.opts.Timeout)
	defer timer.Stop()
	for {
		if ev, ok := pr.out.next(); ok {
			return p.reply(method, seq, line, ev, out)
		}
		select {
		case <-pr.out.ready:
		case err := <-written:
			if err != nil && pr.alive() {
				return p.fail(&RequestError{Method: method, Seq: seq, Kind: KindIO, Detail: "cannot write the request: " + err.Error()})
			}
			written = nil // an exited process is reported below
		case <-pr.exited:
			if ev, ok := pr.out.next(); ok {
				return p.reply(method, seq, line, ev, out)
			}
			return p.fail(&RequestError{Method: method, Seq: seq, Kind: KindExited,
				Detail: fmt.Sprintf("the adapter process exited (%s) before replying\n  request: %s\n  %s", pr.exitStatus(), quote(line), pr.stderr)})
		case <-timer.C:
			pr.kill()
			return p.fail(&RequestError{Method: method, Seq: seq, Kind: KindTimeout,
				Detail: fmt.Sprintf("no reply within %v (--timeout); the process was killed\n  request: %s\n  %s", p.pool.opts.Timeout, quote(line), pr.stderr)})
		}
	}
}

// reply interprets one reply line.
func (p *Port) reply(method string, seq int, request []byte, ev lineEvent, out any) error {
	protocol := func(what string) error {
		return p.fail(&RequestError{Method: method, Seq: seq, Kind: KindProtocol, Detail: fmt.Sprintf(
			"protocol error: %s\n  request:  %s\n  reply:    %s\n  expected: %s", what, quote(request), quote(ev.data), expectedShape(seq, method))})
	}
	if p.proc.out.overflow {
		return protocol(fmt.Sprintf("the adapter wrote more than %d lines nobody asked for", maxQueued))
	}
	if ev.oversize {
		return protocol(fmt.Sprintf("reply line longer than the limit of %d bytes (cut off; see docs/adapter-protocol.md#limits)", p.pool.opts.MaxLine))
	}
	var r Reply
	if err := json.Unmarshal(ev.data, &r); err != nil {
		return protocol("the reply is not a JSON object: " + err.Error())
	}
	if r.Seq != seq {
		return protocol(fmt.Sprintf("the reply has seq %d, want seq %d (replies echo the request's seq, one reply per request, in order)", r.Seq, seq))
	}
	if err := checkReply(p.pool.schemas, method, ev.data); err != nil {
		return protocol("the reply does not match the protocol schema: " + err.Error())
	}
	switch {
	case r.Error != nil:
		return &RequestError{Method: method, Seq: seq, Kind: KindReported, Detail: "the implementation failed to handle the request: " + r.Error.Message}
	case r.Unsupported != nil:
		return &UnsupportedError{Method: method, Seq: seq, Message: r.Unsupported.Message}
	}
	if err := json.Unmarshal(r.Result, out); err != nil {
		return protocol("the result does not decode: " + err.Error())
	}
	return nil
}

// Load implements sim.Port.
func (p *Port) Load(req sim.LoadRequest) (sim.LoadReply, error) {
	var out sim.LoadReply
	if len(req.Config) == 0 {
		req.Config = json.RawMessage("null")
	}
	return out, p.call(MethodLoad, req, &out)
}

// Open implements sim.Port.
func (p *Port) Open(req sim.OpenRequest) error {
	req.Events = nonNil(req.Events)
	return p.call(MethodOpen, req, &Empty{})
}

// Set implements sim.Port.
func (p *Port) Set(req sim.SetRequest) (sim.SetReply, error) {
	var out sim.SetReply
	return out, p.call(MethodSet, req, &out)
}

// Get implements sim.Port.
func (p *Port) Get(c sim.Call) (sim.GetReply, error) {
	var out sim.GetReply
	return out, p.call(MethodGet, c, &out)
}

// PreStep implements sim.Port.
func (p *Port) PreStep(req sim.PreStepRequest) (sim.PreStepReply, error) {
	var out sim.PreStepReply
	req.Messages = nonNil(req.Messages)
	return out, p.call(MethodPreStep, req, &out)
}

// Assemble implements sim.Port.
func (p *Port) Assemble(c sim.Call) (sim.AssembleReply, error) {
	var out sim.AssembleReply
	return out, p.call(MethodAssemble, c, &out)
}

// ExitTool implements sim.Port.
func (p *Port) ExitTool(req sim.ExitToolRequest) (sim.ToolReply, error) {
	var out sim.ToolReply
	if len(req.Args) == 0 {
		req.Args = json.RawMessage("null")
	}
	return out, p.call(MethodExitTool, req, &out)
}

// Command implements sim.Port.
func (p *Port) Command(req sim.CommandRequest) (sim.CommandReply, error) {
	var out sim.CommandReply
	return out, p.call(MethodCommand, req, &out)
}

// Fold implements sim.Port.
func (p *Port) Fold(req sim.FoldRequest) (sim.FoldReply, error) {
	var out sim.FoldReply
	req.Events = nonNil(req.Events)
	return out, p.call(MethodFold, req, &out)
}

// Reload implements sim.Port.
func (p *Port) Reload() (sim.LoadReply, error) {
	var out sim.LoadReply
	return out, p.call(MethodReload, Empty{}, &out)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
