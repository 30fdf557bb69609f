package adapter

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/sim"
)

// RuntimeProtocolMinor is the minor version of runtime protocol 1 this
// package speaks: 2 added review replies (numbered as the plugin
// protocol's), 3 the unload method, 4 the components a runtime lists at
// start and the exceptions its replies report, 5 the selection outcome a
// command result announces (capability commandOutcomes) and host tools a
// later prompt-assembly listener adds (capability assemblyTools).
const RuntimeProtocolMinor = 5

// RuntimeLevel is the level a runtime-protocol start carries both ways.
const RuntimeLevel = "runtime"

// Runtime-protocol method names (docs/runtime-protocol.md), one per
// loop.Runtime method: those the adapter protocol has too are its names,
// and a server finds each method by its name (dispatcher).
const (
	RuntimeStart   = MethodStart
	RuntimeLoad    = MethodLoad
	RuntimeOpen    = MethodOpen
	RuntimeTurn    = "turn"
	RuntimeSet     = MethodSet
	RuntimeGet     = MethodGet
	RuntimeCommand = MethodCommand
	RuntimeAppend  = "append"
	RuntimeFault   = "fault"
	RuntimeReload  = MethodReload
	RuntimeUnload  = MethodUnload
	RuntimeStop    = MethodStop
)

// RuntimeMethods lists every runtime-protocol method.
var RuntimeMethods = []string{
	RuntimeStart, RuntimeLoad, RuntimeOpen, RuntimeTurn, RuntimeSet, RuntimeGet,
	RuntimeCommand, RuntimeAppend, RuntimeFault, RuntimeReload, RuntimeUnload, RuntimeStop,
}

const observationShape = `"events"?: [Event], "requests"?: [Request], "results"?: [Result]`

var runtimeShapes = map[string]string{
	RuntimeStart:   `{"protocol": 1, "level": "runtime", "name": string, "version": string, "language": string, "choices"?: {name: value}, "components"?: [{"name": string, "version": string}], "capabilities": {"retry": "pre-step"|"same-step"|"none", ...}}`,
	RuntimeLoad:    `{"error"?: string}`,
	RuntimeOpen:    `{` + observationShape + `}`,
	RuntimeTurn:    `{` + observationShape + `}`,
	RuntimeSet:     `{"outcome"?: "committed"|"queued"|"cancelled"|"noop", "error"?: string, ` + observationShape + `}`,
	RuntimeGet:     `{"active": bool, "pending"?: bool}`,
	RuntimeCommand: `{"kind": "success"|"error", "text": string, "outcome"?: "committed"|"queued"|"cancelled"|"noop", ` + observationShape + `}`,
	RuntimeAppend:  `{` + observationShape + `}`,
	RuntimeFault:   `{}`,
	RuntimeReload:  `{"error"?: string, ` + observationShape + `}`,
	RuntimeUnload:  `{}`,
	RuntimeStop:    `{}`,
}

// RuntimeStartParams are the params of a runtime-protocol start.
type RuntimeStartParams struct {
	Protocol int    `json:"protocol"`
	Level    string `json:"level"`
	Minor    int    `json:"minor,omitempty"`
}

// RuntimeStartResult is a runtime's start result.
type RuntimeStartResult struct {
	Protocol     int               `json:"protocol"`
	Level        string            `json:"level"`
	Minor        int               `json:"minor,omitempty"`
	Name         string            `json:"name"`
	Version      string            `json:"version"`
	Language     string            `json:"language"`
	Choices      map[string]string `json:"choices,omitempty"`
	Components   []sim.Component   `json:"components,omitempty"`
	Capabilities loop.Capabilities `json:"capabilities"`
}

// NewRuntimePool returns a pool of runtime processes speaking the runtime
// protocol, with the same process handling as NewPool: timeouts, crash
// reports, the restart budget, a spare process and reuse.
func NewRuntimePool(opts Options) (*Pool, error) {
	return newPool(opts, compiledRuntimeSchemas)
}

// Runtime returns a new loop.Runtime over the pool's processes: each Start
// spawns (or reuses) a process, Stop ends it. Its restarts follow
// Options.Restarts as a Port's do (Pool.Port: under RestartAuto, a runtime
// made without knowing its check is treated as one about what a restart
// loses).
func (p *Pool) Runtime() *RuntimePort { return &RuntimePort{port: p.Port()} }

// RuntimeFor returns a new loop.Runtime for a check: its restarts are real
// or resets as Pool.PortFor says for the same check, by one rule
// (RealRestarts) at both levels.
func (p *Pool) RuntimeFor(c sim.Check) *RuntimePort { return &RuntimePort{port: p.PortFor(c)} }

// RuntimePort is loop.Runtime over the runtime protocol. A RuntimePort is
// used by one goroutine at a time.
type RuntimePort struct {
	port  *Port
	start RuntimeStartResult
}

var (
	_ loop.Runtime  = (*RuntimePort)(nil)
	_ sim.Restarter = (*RuntimePort)(nil)
)

// StartResult is what the current process said at start.
func (r *RuntimePort) StartResult() RuntimeStartResult { return r.start }

// Start implements loop.Runtime: it gets a process and performs the start
// handshake, refusing a process that does not speak the runtime level.
func (r *RuntimePort) Start() (loop.Identity, error) {
	pr, err := r.port.acquire()
	if err != nil {
		return loop.Identity{}, err
	}
	var res RuntimeStartResult
	if err := r.port.call(RuntimeStart, RuntimeStartParams{Protocol: ProtocolVersion, Level: RuntimeLevel, Minor: RuntimeProtocolMinor}, &res); err != nil {
		return loop.Identity{}, err
	}
	if res.Level != RuntimeLevel {
		return loop.Identity{}, r.port.fail(&RequestError{Method: RuntimeStart, Seq: pr.seq, Kind: KindProtocol,
			Detail: fmt.Sprintf("the adapter answered start without \"level\": %q: it speaks the plugin protocol, not the runtime protocol (use --level plugin, or see docs/runtime-protocol.md)", RuntimeLevel)})
	}
	if res.Protocol != ProtocolVersion {
		return loop.Identity{}, r.port.fail(&RequestError{Method: RuntimeStart, Seq: pr.seq, Kind: KindProtocol,
			Detail: fmt.Sprintf("the runtime speaks protocol %d; this kit speaks protocol %d", res.Protocol, ProtocolVersion)})
	}
	r.start = res
	pr.reuse = res.Capabilities.Reuse
	return loop.Identity{Name: res.Name, Version: res.Version, Language: res.Language, Choices: res.Choices, Components: res.Components, Capabilities: res.Capabilities}, nil
}

// Stop implements loop.Runtime.
func (r *RuntimePort) Stop() error { return r.port.Stop() }

// StopForRestart implements sim.Restarter, which the runtime level's
// restart step uses as the plugin level's runtime does: when this
// runtime's restarts are resets and the process declared reuse, the
// process is kept and the next Start sends it start, which resets it to the
// state of a new process (the reuse capability's contract); the session
// then loads it and opens every agent with its whole observed log, as after
// a real restart. Otherwise it is Stop, and the next Start a new process.
func (r *RuntimePort) StopForRestart() error { return r.port.StopForRestart() }

// Load implements loop.Runtime.
func (r *RuntimePort) Load(req loop.LoadRequest) (loop.LoadReply, error) {
	if slices.ContainsFunc(req.HostTools, func(h loop.HostTool) bool { return h.Assembly }) && !r.start.Capabilities.AssemblyTools {
		// an older minor version: the load is not sent
		return loop.LoadReply{}, &UnsupportedError{Method: RuntimeLoad, Message: "the runtime does not declare the assemblyTools capability"}
	}
	if len(req.Config) == 0 {
		req.Config = json.RawMessage("null")
	}
	return request[loop.LoadReply](r.port, RuntimeLoad, req)
}

// Open implements loop.Runtime.
func (r *RuntimePort) Open(req loop.OpenRequest) (loop.Observation, error) {
	req.Events = nonNil(req.Events)
	return request[loop.Observation](r.port, RuntimeOpen, req)
}

// Turn implements loop.Runtime.
func (r *RuntimePort) Turn(req loop.TurnRequest) (loop.Observation, error) {
	obs, err := request[loop.Observation](r.port, RuntimeTurn, req)
	if err == nil {
		err = r.exception(RuntimeTurn, nil, obs)
	}
	if err == nil {
		err = r.announced(RuntimeTurn, nil, obs)
	}
	return obs, err
}

// Set implements loop.Runtime.
func (r *RuntimePort) Set(req loop.SetRequest) (loop.SetReply, error) {
	reply, err := request[loop.SetReply](r.port, RuntimeSet, req)
	if err == nil {
		err = r.exception(RuntimeSet, nil, reply.Observation)
	}
	if err == nil {
		err = r.announced(RuntimeSet, nil, reply.Observation)
	}
	return reply, err
}

// exception is the error of a reply whose command or a result inside it
// says the implementation threw inside a handler and the host caught it
// (minor 4): an implementation error, so the check that met it is not
// judged, rather than the error text being judged as the command's or the
// tool's reply. Nil when none says so.
func (r *RuntimePort) exception(method string, cmd *loop.CommandResult, obs loop.Observation) error {
	text, found := "", false
	if cmd != nil && cmd.Exception {
		text, found = cmd.Text, true
	}
	for _, res := range obs.Results {
		switch {
		case found:
		case res.Command != nil && res.Command.Exception:
			text, found = res.Command.Text, true
		case res.Tool != nil && res.Tool.Exception:
			text, found = fmt.Sprintf("tool %s: %s", res.Tool.Name, res.Tool.Error), true
		}
	}
	if !found {
		return nil
	}
	seq := 0
	if r.port.proc != nil {
		seq = r.port.proc.seq
	}
	return &RequestError{Method: method, Seq: seq, Kind: KindException,
		Detail: "the runtime caught an exception inside the implementation's handler: " + text}
}

// announced holds the command results of a reply (the command's own and
// its host actions') to the runtime's declaration (minor 5): one that
// declares commandOutcomes gives a known outcome with every success and
// none with an error; one that does not gives none. A result that breaks
// it is a protocol error. Nil when all hold.
func (r *RuntimePort) announced(method string, cmd *loop.CommandResult, obs loop.Observation) error {
	check := func(c *loop.CommandResult, what string) string {
		switch {
		case c == nil:
			return ""
		case !r.start.Capabilities.CommandOutcomes && c.Outcome != "":
			return fmt.Sprintf("%s announces outcome %q, though the runtime does not declare the commandOutcomes capability", what, c.Outcome)
		case r.start.Capabilities.CommandOutcomes && c.Kind == "success" && c.Outcome == "":
			return what + " succeeded without saying which outcome it announces, though the runtime declares the commandOutcomes capability"
		case c.Kind != "success" && c.Outcome != "":
			return fmt.Sprintf("%s failed (%s) yet announces outcome %q", what, c.Kind, c.Outcome)
		}
		return ""
	}
	detail := check(cmd, "the command")
	for _, res := range obs.Results {
		if detail == "" {
			detail = check(res.Command, "host action "+res.ID+"'s command")
		}
	}
	if detail == "" {
		return nil
	}
	seq := 0
	if r.port.proc != nil {
		seq = r.port.proc.seq
	}
	return &RequestError{Method: method, Seq: seq, Kind: KindProtocol, Detail: detail}
}

// Get implements loop.Runtime.
func (r *RuntimePort) Get(req loop.AgentRequest) (sim.GetReply, error) {
	reply, err := request[sim.GetReply](r.port, RuntimeGet, req)
	if err == nil {
		r.port.sawGet(req.Agent, reply)
	}
	return reply, err
}

// Command implements loop.Runtime.
func (r *RuntimePort) Command(req loop.CommandRequest) (loop.CommandReply, error) {
	reply, err := request[loop.CommandReply](r.port, RuntimeCommand, req)
	if err == nil {
		err = r.exception(RuntimeCommand, &reply.CommandResult, reply.Observation)
	}
	if err == nil {
		err = r.announced(RuntimeCommand, &reply.CommandResult, reply.Observation)
	}
	return reply, err
}

// Append implements loop.Runtime.
func (r *RuntimePort) Append(req loop.AppendRequest) (loop.Observation, error) {
	return request[loop.Observation](r.port, RuntimeAppend, req)
}

// Fault implements loop.Runtime.
func (r *RuntimePort) Fault(req loop.FaultRequest) error {
	return r.port.call(RuntimeFault, req, &Empty{})
}

// Unload implements loop.Runtime.
// A runtime that does not declare the unload capability (an older minor
// version) is not asked: the request is unsupported, so the check that
// needs it is skipped.
func (r *RuntimePort) Unload() error {
	if !r.start.Capabilities.Unload {
		return &UnsupportedError{Method: RuntimeUnload, Message: "the runtime does not declare the unload capability"}
	}
	return r.port.call(RuntimeUnload, Empty{}, &Empty{})
}

// Reload implements loop.Runtime.
func (r *RuntimePort) Reload() (loop.ReloadReply, error) {
	return request[loop.ReloadReply](r.port, RuntimeReload, Empty{})
}
