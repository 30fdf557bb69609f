package sim

import "encoding/json"

// Port is the one seam between the simulator and a plan-mode implementation
// under test. The reference implements it in-process (package reference); the
// process adapter implements it over the wire protocol for implementations in
// any language.
//
// The port assumes no shared memory. The simulator owns the durable session
// logs; every agent-scoped request carries the host events the implementation
// has not yet seen (Call.Sync), and every reply lists, in order, the effects the
// implementation performed on its host (appends, steer, inject, questions, the
// call of the downstream listeners). Faults the implementation must observe
// synchronously, such as a failing append, are armed in the request.
//
// A Go error returned by a Port method means the implementation could not be
// run (it crashed, hung, or broke the protocol). Everything the implementation
// itself reports, such as a rejected config or a failing tool call, travels in
// the reply.
type Port interface {
	// Start brings up a fresh implementation process (or instance) and
	// returns who it is. Nothing is loaded yet.
	Start() (Identity, error)
	// Load composes the plan-mode plugin with the given config and host
	// services. A config the implementation rejects is a reply with Error set.
	Load(LoadRequest) (LoadReply, error)
	// Open introduces an agent and its session, whose durable log starts as
	// Events (empty for a new session; a copy for a fork; the whole log after a
	// restart).
	Open(OpenRequest) error
	// Set is the service's set(agent, active).
	Set(SetRequest) (SetReply, error)
	// Get is the service's get(agent).
	Get(Call) (GetReply, error)
	// PreStep runs the plugin's agent/pre-step listener for one proposed step.
	PreStep(PreStepRequest) (PreStepReply, error)
	// Assemble renders what the plugin contributes to a request: its system
	// prompt sections and the tool catalog. The request carries the host's
	// tools; the reply's tools are the whole catalog the plugin leaves.
	Assemble(AssembleRequest) (AssembleReply, error)
	// ExitTool executes exit_plan_mode with a scripted user review.
	ExitTool(ExitToolRequest) (ToolReply, error)
	// Command runs a registered command handler.
	Command(CommandRequest) (CommandReply, error)
	// Fold is foldPlanMode(events, end).
	Fold(FoldRequest) (FoldReply, error)
	// Reload disposes the plugin and loads it again in the same process.
	Reload() (LoadReply, error)
	// Unload disposes the plugin without loading it again; the sessions
	// stay. The reply lists what the plugin still has registered afterwards:
	// nothing, when it lets go of everything (SVC-1, SVC-2).
	Unload() (LoadReply, error)
	// Stop ends the implementation process; all process-local state is lost.
	Stop() error
}

// Restarter is a Port that can be told a stop is a restart: Start follows
// at once, with the whole durable logs. The runtime calls StopForRestart
// instead of Stop for the restart and load actions. A port may then keep
// its process and reset it at Start, when the implementation promises that
// a reset leaves nothing a new process would not have (the adapter's reuse
// capability and restart policy); otherwise it behaves as Stop.
type Restarter interface {
	StopForRestart() error
}

// Check names the check a port is built for, so that a port factory can
// treat checks differently: the adapter restarts a process for real only
// for checks about process-local state and a fixed sample of the others.
type Check struct {
	// ID is stable across runs and worker counts: a scenario's id, a
	// property case's label.
	ID string
	// ProcessLocal marks a check about what a restart loses (PEND-8).
	ProcessLocal bool
}

// Identity is what an implementation says about itself at start.
type Identity struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Language string `json:"language"`
	// Components are the parts the implementation is made of, each with
	// its version, when it lists them (a runtime: its loop and its
	// plan-mode package); reports show them.
	Components []Component `json:"components,omitempty"`
	// Choices are the implementation's picks for the silent points of the
	// specification, by choice name (see spec.Choices).
	Choices map[string]string `json:"choices,omitempty"`
	// CommandOutcomes says that a successful command reply carries the
	// selection outcome it announces (CommandReply.Outcome), so plankit can
	// check what the reply means against what happened.
	CommandOutcomes bool `json:"commandOutcomes,omitempty"`
	// ReviewReplies says that the implementation takes a review scripted as
	// the seam's structured reply or as the seam failing (Review.Reply,
	// Review.Fail), so checks may script them.
	ReviewReplies bool `json:"reviewReplies,omitempty"`
	// HostTools says the implementation can be shown the host's own tools
	// (LoadRequest.HostTools, AssembleRequest.Tools) and gates their calls
	// (ToolGate); EmptySteps that it reads PreStepRequest.SkipsEmpty.
	// Generators draw either only when it is declared.
	HostTools  bool `json:"hostTools,omitempty"`
	EmptySteps bool `json:"emptySteps,omitempty"`
}

// Component is a named, versioned part of an implementation.
type Component struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Services says which optional host services are composed.
type Services struct {
	Commands      bool `json:"commands"`
	UserQuestions bool `json:"userQuestions"`
}

// LoadRequest composes the plugin.
type LoadRequest struct {
	// Config is the raw plugin config, passed through untouched so invalid
	// configs reach the implementation as written.
	Config   json.RawMessage `json:"config"`
	Services Services        `json:"services"`
	// HostTools are the tools the host registered with its tools service
	// before loading the plugin, in registration order (SVC-3, EXIT-1).
	HostTools []Tool `json:"hostTools,omitempty"`
}

// LoadReply says what the plugin registered, or why it refused to load.
type LoadReply struct {
	Error    string   `json:"error,omitempty"`
	Listener string   `json:"listener,omitempty"` // "prepend" or "append"
	Tools    []Tool   `json:"tools,omitempty"`
	Sections []string `json:"sections,omitempty"`
	Commands []string `json:"commands,omitempty"`
}

// Listener registration positions.
const (
	Prepend = "prepend"
	Append  = "append"
)

// OpenRequest introduces an agent.
type OpenRequest struct {
	Agent  string  `json:"agent"`
	Events []Event `json:"events"`
}

// Call is the part every agent-scoped request shares.
type Call struct {
	Agent string `json:"agent"`
	// Sync holds the events the host appended to this agent's log since the
	// implementation last saw it, in log order.
	Sync []Event `json:"sync,omitempty"`
	// FailAppends arms a fault: the next FailAppends appends the
	// implementation attempts during this call fail.
	FailAppends int `json:"failAppends,omitempty"`
}

// SetRequest is set(agent, active).
type SetRequest struct {
	Call
	Active bool `json:"active"`
}

// SetReply is what set returned, or the error it threw.
type SetReply struct {
	Outcome string   `json:"outcome,omitempty"`
	Error   string   `json:"error,omitempty"`
	Effects []Effect `json:"effects,omitempty"`
}

// GetReply is get(agent).
type GetReply struct {
	Active  bool  `json:"active"`
	Pending *bool `json:"pending,omitempty"`
}

// PreStepRequest proposes one step to the plugin's listener.
type PreStepRequest struct {
	Call
	Turn     int       `json:"turn"`
	Step     int       `json:"step"`
	Retry    int       `json:"retry,omitempty"` // >0 for a request-recovery retry
	Messages []Message `json:"messages"`
	// Downstream is the decision next() returns: the result of the listeners
	// that run after the plugin's.
	Downstream Decision `json:"downstream"`
	// AbortedBefore: the step's signal had fired before the plugin ran.
	AbortedBefore bool `json:"abortedBefore,omitempty"`
	// AbortDuring: the signal fires while the downstream listeners run.
	AbortDuring bool `json:"abortDuring,omitempty"`
	// SkipsEmpty: the runtime skips this step, starting no request and
	// ending the turn, if the accepted decision carries no messages (the
	// step does not continue after tool results, and the runtime's empty
	// steps are skipped). A notice added to an empty decision would then
	// start a step the selection alone caused (PEND-2).
	SkipsEmpty bool `json:"skipsEmpty,omitempty"`
}

// Decision kinds.
const (
	Enter  = "enter"
	Reject = "reject"
)

// Decision is a pre-step chain result.
type Decision struct {
	Kind     string    `json:"kind"`
	Messages []Message `json:"messages,omitempty"`
}

// PreStepReply is what the plugin's listener returned.
type PreStepReply struct {
	Decision Decision `json:"decision"`
	Effects  []Effect `json:"effects,omitempty"`
}

// Section is one rendered system-prompt section.
type Section struct {
	Name  string `json:"name"`
	Order int    `json:"order"`
	Text  string `json:"text"`
}

// Tool is one entry of the request tool catalog.
type Tool struct {
	Name string `json:"name"`
}

// AssembleRequest asks for the plugin's part of one request.
type AssembleRequest struct {
	Call
	// Tools is the tool catalog as the host and the other prompt-assembly
	// listeners leave it for this request, in order, before plan mode's
	// contribution: the host's registered tools and the tools assembly
	// listeners after plan mode's add (what plan mode's listener gets from
	// next()). Omitted when the host has no tools of its own.
	Tools []Tool `json:"tools,omitempty"`
}

// AssembleReply is what the plugin contributes to one request.
type AssembleReply struct {
	// Sections lists the plugin's sections with non-empty text.
	Sections []Section `json:"sections"`
	// Tools is the request's tool catalog as the plugin leaves it: the
	// host's tools it was given (AssembleRequest.Tools) and its own.
	Tools []Tool `json:"tools"`
}

// ToolGate is a Port whose plugin may gate the host's own tool calls, as
// a tools/pre-execute listener does: before a host tool runs, the runtime
// asks it. A port that is not a ToolGate never gates. Plan mode is soft
// guidance (SVC-3): a conforming plugin allows every host tool call.
type ToolGate interface {
	PreTool(PreToolRequest) (PreToolReply, error)
}

// PreToolRequest proposes one call of a host tool to the plugin's gate.
type PreToolRequest struct {
	Call
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// Tool gate decisions.
const (
	ToolAllow = "allow"
	ToolDeny  = "deny"
)

// PreToolReply is the gate's decision: allow, or deny with a reason.
type PreToolReply struct {
	Decision string   `json:"decision"`
	Reason   string   `json:"reason,omitempty"`
	Effects  []Effect `json:"effects,omitempty"`
}

// Review answers scripted for the user-questions seam.
const (
	Approve      = "approve"
	KeepPlanning = "keep-planning"
	Dismiss      = "dismiss"
)

// Review scripts the user's answer to a plan review.
type Review struct {
	Answer   string `json:"answer,omitempty"`
	Feedback string `json:"feedback,omitempty"`
	// Reload reloads the plan-mode service while the review is open.
	Reload bool `json:"reload,omitempty"`
	// Reply is the structured reply the user-questions seam returns, given
	// as it is instead of Answer and Feedback (see review.go).
	Reply *ReviewReply `json:"reply,omitempty"`
	// Fail makes the seam fail instead of answering (see review.go).
	Fail string `json:"fail,omitempty"`
}

// ExitToolRequest executes exit_plan_mode.
type ExitToolRequest struct {
	Call
	Args   json.RawMessage `json:"args"`
	Review Review          `json:"review"`
}

// ToolReply is a tool call's result or failure.
type ToolReply struct {
	OK      bool            `json:"ok"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   string          `json:"error,omitempty"`
	Effects []Effect        `json:"effects,omitempty"`
}

// CommandRequest runs /name rawInput.
type CommandRequest struct {
	Call
	Name  string `json:"name"`
	Input string `json:"input"`
}

// CommandReply is a command handler's result.
type CommandReply struct {
	Kind string `json:"kind"` // "success" or "error"
	Text string `json:"text"`
	// Outcome is the selection outcome the reply announces to the user
	// (committed, queued, cancelled or noop): what its text means, whatever
	// its wording. Empty for an error, or when the implementation does not
	// report it (Identity.CommandOutcomes false).
	Outcome string   `json:"outcome,omitempty"`
	Effects []Effect `json:"effects,omitempty"`
	// Exception says the error is an exception thrown inside the command's
	// handler that the adapter caught (Text is its message): over the
	// adapter protocol (minor 3) it becomes an implementation error, never
	// a reply the checks judge.
	Exception bool `json:"exception,omitempty"`
}

// FoldRequest is foldPlanMode(events, end); End nil means the default.
type FoldRequest struct {
	Events []Event `json:"events"`
	End    *int    `json:"end,omitempty"`
}

// FoldReply is the folded state.
type FoldReply struct {
	Active bool   `json:"active"`
	Error  string `json:"error,omitempty"`
}

// Effect kinds.
const (
	EffectAppend     = "append"
	EffectSteer      = "steer"
	EffectInject     = "inject"
	EffectAsk        = "ask"
	EffectDownstream = "downstream"
)

// Effect is one thing the implementation did to its host during a call.
type Effect struct {
	Kind string `json:"kind"`
	// Append: the event type and data, and whether the host failed it.
	Type   string          `json:"type,omitempty"`
	Data   json.RawMessage `json:"data,omitempty"`
	Failed bool            `json:"failed,omitempty"`
	// Steer, inject: the message.
	Message *Message `json:"message,omitempty"`
	// Ask: the question presented for review.
	Question json.RawMessage `json:"question,omitempty"`
}
