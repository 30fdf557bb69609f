package loop

import (
	"encoding/json"

	"github.com/plankit/plankit/sim"
)

// Runtime is an agent runtime with plan mode, under test. Every method is
// called between turns; one that makes the agent run returns when it is
// idle again. A Go error means the runtime could not be run (it crashed,
// hung, broke the protocol) or, matching sim.ErrUnsupported, lacks the
// feature; everything the runtime itself reports travels in the reply.
type Runtime interface {
	// Start brings up a fresh runtime process (or instance).
	Start() (Identity, error)
	// Load composes the runtime with plan mode, host tools and listeners.
	Load(LoadRequest) (LoadReply, error)
	// Open introduces an agent whose log starts as the given events.
	Open(OpenRequest) (Observation, error)
	// Turn admits a prompt and runs the whole turn with a script.
	Turn(TurnRequest) (Observation, error)
	// Set is a selection between turns.
	Set(SetRequest) (SetReply, error)
	// Get is ctx.planMode.get(agent).
	Get(AgentRequest) (sim.GetReply, error)
	// Command types a command between turns.
	Command(CommandRequest) (CommandReply, error)
	// Append is an outside writer appending an event between turns.
	Append(AppendRequest) (Observation, error)
	// Fault fails the next Count plan/mode appends of an agent.
	Fault(FaultRequest) error
	// Reload disposes plan mode and loads it again in the same process.
	Reload() (ReloadReply, error)
	// Unload disposes plan mode without loading it again; a later reload
	// or restart loads it afresh from the logs.
	Unload() error
	// Stop ends the runtime; everything process-local is lost.
	Stop() error
}

// Retry behaviours of a runtime's request recovery: the plugin level's
// runtime options (sim.RetriesPreStep, sim.RetriesSameStep), or none.
const (
	RetryPreStep  = sim.RetriesPreStep
	RetrySameStep = sim.RetriesSameStep
	RetryNone     = "none"
)

// Capabilities say which parts of the script language a runtime supports.
type Capabilities struct {
	Retry         string `json:"retry"`
	Commands      bool   `json:"commands,omitempty"`
	UserQuestions bool   `json:"userQuestions,omitempty"`
	HostTools     bool   `json:"hostTools,omitempty"`
	HostListeners bool   `json:"hostListeners,omitempty"`
	DuringStream  bool   `json:"duringStream,omitempty"`
	OutsideAppend bool   `json:"outsideAppend,omitempty"`
	FailAppend    bool   `json:"failAppend,omitempty"`
	Resume        bool   `json:"resume,omitempty"`
	Reload        bool   `json:"reload,omitempty"`
	Reuse         bool   `json:"reuse,omitempty"`
	// ReviewReplies: a call's review may be the seam's structured reply
	// or the seam failing (sim.Review Reply and Fail).
	ReviewReplies bool `json:"reviewReplies,omitempty"`
	// EmptySteps: host listeners may take a step's messages (behaviour
	// drop), and the runtime skips an accepted step whose decision carries
	// no messages unless it continues after tool results (the shipped dsh
	// loop does).
	EmptySteps bool `json:"emptySteps,omitempty"`
	// Unload (minor 3): the unload method disposes plan mode without
	// loading it again.
	Unload bool `json:"unload,omitempty"`
	// CommandOutcomes (minor 5): every successful command result says
	// which selection outcome its reply announces (CommandResult.Outcome),
	// as the plugin protocol's capability of the same name.
	CommandOutcomes bool `json:"commandOutcomes,omitempty"`
	// AssemblyTools (minor 5): load.hostTools may name tools that another
	// prompt-assembly listener, registered after plan mode's, adds to
	// every request (HostTool.Assembly), as the plugin protocol's hostTools
	// with assembly: true.
	AssemblyTools bool `json:"assemblyTools,omitempty"`
}

// Has reports whether the capability of that name (as in the protocol) is
// declared; "retry" means a retrying recovery (not none).
func (c Capabilities) Has(name string) bool {
	switch name {
	case "retry":
		return c.Retry == RetryPreStep || c.Retry == RetrySameStep
	case "retry:pre-step":
		return c.Retry == RetryPreStep
	case "commands":
		return c.Commands
	case "userQuestions":
		return c.UserQuestions
	case "hostTools":
		return c.HostTools
	case "hostListeners":
		return c.HostListeners
	case "duringStream":
		return c.DuringStream
	case "outsideAppend":
		return c.OutsideAppend
	case "failAppend":
		return c.FailAppend
	case "resume":
		return c.Resume
	case "reload":
		return c.Reload
	case "reviewReplies":
		return c.ReviewReplies
	case "emptySteps":
		return c.EmptySteps
	case "unload":
		return c.Unload
	case "commandOutcomes":
		return c.CommandOutcomes
	case "assemblyTools":
		return c.AssemblyTools
	}
	return false
}

// Identity is what a runtime says about itself at start.
type Identity struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Language string `json:"language"`
	// Components (minor 4) are the runtime's parts with their versions:
	// its loop, its plan-mode package.
	Components   []sim.Component   `json:"components,omitempty"`
	Choices      map[string]string `json:"choices,omitempty"`
	Capabilities Capabilities      `json:"capabilities"`
}

// HostTool is a tool of the host's own the model may call.
type HostTool struct {
	Name string `json:"name"`
	// Assembly: the tool is not registered with the host's tools before
	// plan mode loads; another prompt-assembly listener, registered after
	// plan mode's, adds it to every request (capability assemblyTools).
	Assembly bool `json:"assembly,omitempty"`
}

// Listener is a host agent/pre-step listener registered before or after
// plan mode is loaded.
type Listener struct {
	Name     string `json:"name"`
	Position string `json:"position"` // "before" or "after"
}

// LoadRequest composes the runtime.
type LoadRequest struct {
	Config    json.RawMessage `json:"config"`
	Services  sim.Services    `json:"services"`
	HostTools []HostTool      `json:"hostTools,omitempty"`
	Listeners []Listener      `json:"listeners,omitempty"`
}

// LoadReply is Error when plan mode refused the config.
type LoadReply struct {
	Error string `json:"error,omitempty"`
}

// OpenRequest introduces an agent with its log.
type OpenRequest struct {
	Agent  string      `json:"agent"`
	Events []sim.Event `json:"events"`
}

// SetReply is set's outcome or error and what it appended.
type SetReply struct {
	SetResult
	Observation
}

// CommandReply is the command's result and what it caused.
type CommandReply struct {
	CommandResult
	Observation
}

// ReloadReply is the reload's error, if any, and what it caused.
type ReloadReply struct {
	Error string `json:"error,omitempty"`
	Observation
}

// Script is what the model and the host code do during one turn.
type Script struct {
	Responses []Response `json:"responses,omitempty"`
	PreSteps  []PreStep  `json:"preSteps,omitempty"`
}

// Response is the model's output for one request of the turn.
type Response struct {
	Text   string       `json:"text,omitempty"`
	Calls  []Call       `json:"calls,omitempty"`
	Fail   bool         `json:"fail,omitempty"`
	During []HostAction `json:"during,omitempty"`
}

// Call is one tool call of a response.
type Call struct {
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	Review *sim.Review     `json:"review,omitempty"`
	During []HostAction    `json:"during,omitempty"`
}

// PreStep is what a host listener does at the Dispatch-th agent/pre-step
// dispatch of the turn. Its behaviour is one of the plugin level's
// listener behaviours, as the built-in runtime plays it: sim.Accept,
// sim.Reject, sim.Abort or sim.Drop (veto is the plugin level's only).
type PreStep struct {
	Dispatch  int          `json:"dispatch"`
	Listener  string       `json:"listener"`
	Behaviour string       `json:"behaviour"`
	During    []HostAction `json:"during,omitempty"`
}

// HostAction is host code; exactly one of the pointers is set.
type HostAction struct {
	ID      string     `json:"id"`
	Set     *ActiveArg `json:"set,omitempty"`
	Get     *struct{}  `json:"get,omitempty"`
	Command *InputArg  `json:"command,omitempty"`
	Append  *AppendArg `json:"append,omitempty"`
	Fault   *CountArg  `json:"fault,omitempty"`
}

// ActiveArg is set's argument.
type ActiveArg struct {
	Active bool `json:"active"`
}

// InputArg is a command line.
type InputArg struct {
	Input string `json:"input"`
}

// AppendArg is an event to append.
type AppendArg struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// CountArg is a fault count.
type CountArg struct {
	Count int `json:"count"`
}

// Observation is what a request caused, in order.
type Observation struct {
	Events   []sim.Event    `json:"events,omitempty"`
	Requests []ModelRequest `json:"requests,omitempty"`
	Results  []ActionResult `json:"results,omitempty"`
}

// ModelRequest is a model request exactly as sent. At is the log length
// when it was sent.
type ModelRequest struct {
	At       int       `json:"at"`
	Sections []Section `json:"sections"`
	Tools    []string  `json:"tools"`
	Messages []Message `json:"messages"`
}

// Section is a rendered system-prompt section; Order is optional.
type Section struct {
	Name  string `json:"name"`
	Order *int   `json:"order,omitempty"`
	Text  string `json:"text"`
}

// Message is one message of a request's transcript.
type Message struct {
	Role   string      `json:"role"`
	Text   string      `json:"text"`
	Source *sim.Source `json:"source,omitempty"`
}

// IsPlanNotice reports whether m is a plan-mode notice (sim.Source's test).
func (m Message) IsPlanNotice() bool { return m.Source != nil && m.Source.IsPlanNotice() }

// Section returns the named section of the request.
func (q ModelRequest) Section(name string) (Section, bool) {
	for _, s := range q.Sections {
		if s.Name == name {
			return s, true
		}
	}
	return Section{}, false
}

// ActionResult is the result of one host action or tool call.
type ActionResult struct {
	ID      string         `json:"id"`
	Set     *SetResult     `json:"set,omitempty"`
	Get     *sim.GetReply  `json:"get,omitempty"`
	Command *CommandResult `json:"command,omitempty"`
	Append  *struct{}      `json:"append,omitempty"`
	Fault   *struct{}      `json:"fault,omitempty"`
	Tool    *ToolResult    `json:"tool,omitempty"`
}

// SetResult is set's outcome or error.
type SetResult struct {
	Outcome string `json:"outcome,omitempty"`
	Error   string `json:"error,omitempty"`
}

// CommandResult is a command's reply.
type CommandResult struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
	// Outcome (minor 5, capability commandOutcomes) is the selection
	// outcome the reply announces to the user (committed, queued,
	// cancelled or noop): what its text means, whatever its wording. Empty
	// for an error, or when the runtime does not report it.
	Outcome string `json:"outcome,omitempty"`
	// Exception (minor 4): the error is an exception thrown inside the
	// command's handler that the host caught — an implementation error,
	// never a clause's deviation.
	Exception bool `json:"exception,omitempty"`
}

// ToolResult is a tool call's result.
type ToolResult struct {
	Name  string          `json:"name"`
	OK    bool            `json:"ok"`
	Value json.RawMessage `json:"value,omitempty"`
	Error string          `json:"error,omitempty"`
	Asked bool            `json:"asked,omitempty"`
	// Exception (minor 4): the error is an exception thrown inside the
	// tool's handler that the host caught — an implementation error.
	Exception bool `json:"exception,omitempty"`
}
