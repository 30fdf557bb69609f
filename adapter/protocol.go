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

// Capabilities say which optional parts of plan mode an implementation
// has. An implementation without one answers the corresponding requests
// with "unsupported".
type Capabilities struct {
	Commands      bool `json:"commands"`
	UserQuestions bool `json:"userQuestions"`
	Fork          bool `json:"fork"`
	Reload        bool `json:"reload"`
	// Reuse (optional): a start request on a process that has already
	// served a scenario resets it to exactly the state of a new process.
	// The kit then reuses the process for another scenario instead of
	// spawning one; a restart within a scenario still gets a new process.
	Reuse bool `json:"reuse,omitempty"`
	// CommandOutcomes (optional, minor 1): every successful command reply
	// carries the selection outcome it announces.
	CommandOutcomes bool `json:"commandOutcomes,omitempty"`
	// Unload (optional, minor 1): the implementation answers unload.
	Unload bool `json:"unload,omitempty"`
	// ReviewReplies (optional, minor 2): exitTool's review may script the
	// seam's structured reply (review.reply) or the seam failing
	// (review.fail).
	ReviewReplies bool `json:"reviewReplies,omitempty"`
	// HostTools (optional, minor 2): the implementation reads the host's
	// tools (load.hostTools, assemble.tools), returns the whole catalog
	// from assemble and answers preTool.
	HostTools bool `json:"hostTools,omitempty"`
	// EmptySteps (optional, minor 2): the implementation reads
	// preStep.skipsEmpty.
	EmptySteps bool `json:"emptySteps,omitempty"`
}

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

// Identity returns the sim.Identity part of the start result.
func (s StartResult) Identity() sim.Identity {
	return sim.Identity{Name: s.Name, Version: s.Version, Language: s.Language, Choices: s.Choices,
		CommandOutcomes: s.Capabilities.CommandOutcomes, ReviewReplies: s.Capabilities.ReviewReplies,
		HostTools: s.Capabilities.HostTools, EmptySteps: s.Capabilities.EmptySteps}
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
