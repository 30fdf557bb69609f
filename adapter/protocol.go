package adapter

import (
	"encoding/json"

	"github.com/plankit/plankit/sim"
)

// ProtocolVersion is the version of the adapter protocol this package
// speaks. The start handshake carries it both ways.
const ProtocolVersion = 1

// ProtocolMinor is the minor version of protocol 1 this package speaks.
// A minor version only adds optional members and capabilities: an
// implementation that speaks an older one leaves them out and the kit skips
// the checks that need them. Minor 1 added command outcomes and unload;
// minor 2 review replies, the host's own tools and skipped empty steps;
// minor 3 a command reply's exception (a handler that threw).
const ProtocolMinor = 3

// MaxLine is the default limit on one protocol line (a request or a reply,
// without its newline): 4 MiB. A longer reply line is a protocol error; the
// rest of it is discarded and the process is ended.
const MaxLine = 4 << 20

// Method names, one per sim.Port method.
const (
	MethodStart    = "start"
	MethodLoad     = "load"
	MethodOpen     = "open"
	MethodSet      = "set"
	MethodGet      = "get"
	MethodPreStep  = "preStep"
	MethodAssemble = "assemble"
	MethodExitTool = "exitTool"
	MethodPreTool  = "preTool"
	MethodCommand  = "command"
	MethodFold     = "fold"
	MethodReload   = "reload"
	MethodUnload   = "unload"
	MethodStop     = "stop"
)

// Methods lists every method in protocol order.
var Methods = []string{
	MethodStart, MethodLoad, MethodOpen, MethodSet, MethodGet, MethodPreStep,
	MethodAssemble, MethodExitTool, MethodPreTool, MethodCommand, MethodFold, MethodReload, MethodUnload, MethodStop,
}

// Request is one request line: {"seq": N, "method": "...", "params": {...}}.
type Request struct {
	Seq    int             `json:"seq"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// Reply is one reply line. Exactly one of Result, Error and Unsupported is
// set.
type Reply struct {
	Seq         int             `json:"seq"`
	Result      json.RawMessage `json:"result,omitempty"`
	Error       *ReplyMessage   `json:"error,omitempty"`
	Unsupported *ReplyMessage   `json:"unsupported,omitempty"`
}

// ReplyMessage is the body of an error or unsupported reply.
type ReplyMessage struct {
	Message string `json:"message"`
}

// StartParams are the start request's params.
type StartParams struct {
	Protocol int `json:"protocol"`
	Minor    int `json:"minor,omitempty"`
}

// Capabilities are the start reply's capabilities as they travel: the
// members of sim.Capabilities, the one declaration of what an
// implementation can do, one for one and in the same order (a Go
// implementation declares them in its sim.Identity; WireCapabilities and
// Sim convert). The four the protocol has always had are always written;
// the others only when true. What each means: sim.Capabilities and
// docs/adapter-protocol.md#start. An implementation without one of the
// first four answers the corresponding requests with "unsupported"; the
// kit sends none of the members the others stand for unless they are
// declared (sim.Capabilities.Lacks).
type Capabilities struct {
	Commands      bool `json:"commands"`
	UserQuestions bool `json:"userQuestions"`
	Fork          bool `json:"fork"`
	Reload        bool `json:"reload"`
	// Reuse (optional): a start request on a process that has already
	// served a scenario resets it to exactly the state of a new process.
	Reuse bool `json:"reuse,omitempty"`
	// CommandOutcomes (optional, minor 1).
	CommandOutcomes bool `json:"commandOutcomes,omitempty"`
	// Unload (optional, minor 1).
	Unload bool `json:"unload,omitempty"`
	// ReviewReplies (optional, minor 2).
	ReviewReplies bool `json:"reviewReplies,omitempty"`
	// HostTools (optional, minor 2).
	HostTools bool `json:"hostTools,omitempty"`
	// EmptySteps (optional, minor 2).
	EmptySteps bool `json:"emptySteps,omitempty"`
}

// WireCapabilities is a Go implementation's declaration as the start reply
// carries it.
func WireCapabilities(c sim.Capabilities) Capabilities { return Capabilities(c) }

// Sim is the declaration the start reply carries, as a Go implementation
// makes it.
func (c Capabilities) Sim() sim.Capabilities { return sim.Capabilities(c) }

// StartResult is the start reply's result: the implementation's identity,
// the protocol version it speaks and its capabilities.
type StartResult struct {
	Protocol     int               `json:"protocol"`
	Minor        int               `json:"minor,omitempty"`
	Name         string            `json:"name"`
	Version      string            `json:"version"`
	Language     string            `json:"language"`
	Choices      map[string]string `json:"choices,omitempty"`
	Capabilities Capabilities      `json:"capabilities"`
}

// Identity is the start result as a Go implementation's Start returns it.
func (s StartResult) Identity() sim.Identity {
	return sim.Identity{Name: s.Name, Version: s.Version, Language: s.Language, Choices: s.Choices, Capabilities: s.Capabilities.Sim()}
}

// Empty is the params of reload and stop and the result of open and stop.
type Empty struct{}

// shapes are the expected reply result shapes, quoted in protocol errors.
var shapes = map[string]string{
	MethodStart:    `{"protocol": 1, "name": string, "version": string, "language": string, "choices": {name: value}, "capabilities": {"commands": bool, "userQuestions": bool, "fork": bool, "reload": bool}}`,
	MethodLoad:     `{"error"?: string, "listener"?: "prepend"|"append", "tools"?: [{"name": string}], "sections"?: [string], "commands"?: [string]}`,
	MethodOpen:     `{}`,
	MethodSet:      `{"outcome"?: "committed"|"queued"|"cancelled"|"noop", "error"?: string, "effects"?: [Effect]}`,
	MethodGet:      `{"active": bool, "pending"?: bool}`,
	MethodPreStep:  `{"decision": {"kind": "enter"|"reject", "messages"?: [Message]}, "effects"?: [Effect]}`,
	MethodAssemble: `{"sections": [{"name": string, "order": int, "text": string}], "tools": [{"name": string}]}`,
	MethodExitTool: `{"ok": bool, "result"?: json, "error"?: string, "effects"?: [Effect]}`,
	MethodPreTool:  `{"decision": "allow"|"deny", "reason"?: string, "effects"?: [Effect]}`,
	MethodCommand:  `{"kind": "success"|"error", "text": string, "outcome"?: "committed"|"queued"|"cancelled"|"noop", "effects"?: [Effect]}`,
	MethodFold:     `{"active": bool, "error"?: string}`,
	MethodReload:   `{"error"?: string, "listener"?: "prepend"|"append", "tools"?: [{"name": string}], "sections"?: [string], "commands"?: [string]}`,
	MethodUnload:   `{"error"?: string, "listener"?: "prepend"|"append", "tools"?: [{"name": string}], "sections"?: [string], "commands"?: [string]}`,
	MethodStop:     `{}`,
}

// expectedShape is the whole expected reply line for a request.
func (s *schemaSet) expectedShape(seq int, method string) string {
	return `{"seq": ` + itoa(seq) + `, "result": ` + s.proto.shapes[method] + `} or {"seq": ` + itoa(seq) + `, "error"|"unsupported": {"message": string}}`
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
