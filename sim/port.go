package sim

import "encoding/json"

// Port is the one seam between the simulator and a plan-mode implementation
// under test: the contract an implementation keeps, whether it is written
// in Go (implement Port and check it from go test with package
// conformance: docs/checking-from-go-test.md) or in another language
// behind the adapter protocol (docs/adapter-protocol.md, whose methods map
// one to one to these). The reference implements it in-process (package
// reference); the process adapter (package adapter) implements it over the
// wire.
//
// The port assumes no shared memory. The simulator owns the durable session
// logs; every agent-scoped request carries the host events the implementation
// has not yet seen (Call.Sync), which it adds to its own mirror of the log
// before acting, and every reply lists, in order, the effects the
// implementation performed on its host (appends, steer, inject, questions,
// the call of the downstream listeners: Effect). The simulator applies the
// effects, so the implementation's own successful appends are in its
// mirror already and never come back in Sync. Faults the implementation
// must observe synchronously, such as a failing append, are armed in the
// request (Call.FailAppends).
//
// The kit calls the methods from one goroutine at a time, in this order
// for each instance: Start; Load (unless the run has no plugin); Open for
// each agent; then the requests of the actions (a prompt, a step, a set, a
// command, ...); Stop. After every action it asks Get of each agent the
// action touched, so a Get follows almost every request. A restart is Stop
// (or Restarter.StopForRestart), then Start, Load and Open of every agent
// with its whole durable log, on the same Port value: everything the
// implementation held in memory is gone (PEND-8). Each check (a scenario, a
// generated case, a lockstep sequence) gets its own instance from the
// factory the kit is given.
//
// A Go error returned by a Port method means the implementation could not be
// run (it crashed, hung, or broke the protocol): the check is not judged and
// the run reports an implementation error (exit code 3). Everything the
// implementation itself reports, such as a rejected config or a failing
// tool call, travels in the reply and is judged. An error that matches
// ErrUnsupported (errors.Is) says the implementation does not support the
// request (a capability it lacks): the check that needed it is skipped,
// naming the request.
type Port interface {
	// Start brings up a fresh implementation process (or instance) and
	// returns who it is: its name and version, its picks for the silent
	// points (Identity.Choices) and its capabilities (Identity's
	// Capabilities). Nothing is loaded yet and nothing from an earlier
	// Start survives (PEND-8: a restart loses what was process-local). The
	// kit calls it first on every instance, and again at every restart.
	Start() (Identity, error)
	// Load composes the plan-mode plugin with the given config and host
	// services, and says what the plugin registered: its pre-step
	// listener (prepend, STEP-1), the exit_plan_mode tool (EXIT-1), the
	// plan:policy section (CFG-2) and, only when the commands service is
	// composed, the plan command (CMD-1). A config that is not exactly
	// { section: non-blank string } is refused (CFG-1): a reply with Error
	// set and nothing registered; the kit then opens no agents. The kit
	// calls it after Start, unless the plugin was unloaded (SVC-2) or the
	// run has no plugin.
	Load(LoadRequest) (LoadReply, error)
	// Open introduces an agent and its session, whose durable log starts as
	// Events: empty for a new session, a copy of the parent's for a fork,
	// the whole log after a restart. The state in force is the fold of
	// that log (LOG-3): nothing else carries over. The kit calls it for
	// every agent after a successful Load, and for an agent an open or
	// fork action creates.
	Open(OpenRequest) error
	// Set is the service's set(agent, active) (SVC-1): noop when active
	// is the pending selection or, with none pending, the logged state
	// (PEND-3); during an open turn, queued (PEND-4) or cancelled
	// (PEND-5), appending nothing (PEND-1); with no open turn, an append
	// of plan/mode at once, committed (PEND-6), narrated by STEP-6. The
	// kit calls it for a set action (the user's selection in the UI).
	Set(SetRequest) (SetReply, error)
	// Get is the service's get(agent): the logged state, and the pending
	// selection exactly when one waits (PEND-7). The kit calls it after
	// every action for each agent the action touched, and for a get
	// expectation.
	Get(Call) (GetReply, error)
	// PreStep runs the plugin's agent/pre-step listener for one proposed
	// step (STEP-1..7): it calls the downstream listeners (next(), the
	// Downstream decision, reported as a downstream effect), and only when
	// their decision accepts the step (not rejected, not aborted: STEP-3)
	// appends the pending selection (PEND-1, STEP-4) before the request is
	// derived (STEP-7), adding the notice STEP-6 calls for to the decision's
	// messages. A failed append leaves the decision and the selection
	// pending (STEP-5). The kit calls it for every step and every
	// request-recovery retry (STEP-2) while the listener is registered.
	PreStep(PreStepRequest) (PreStepReply, error)
	// Assemble renders what the plugin contributes to a request: its system
	// prompt sections (plan:policy at order 50, with the config's text,
	// exactly while plan mode is active: CFG-2) and the tool catalog
	// (exit_plan_mode whether or not plan mode is active: EXIT-1). The
	// request carries the host's tools; the reply's tools are the whole
	// catalog the plugin leaves, the host's unchanged and in their order
	// (SVC-3). The kit calls it for every request a step sends, after the
	// pre-step chain accepted it.
	Assemble(AssembleRequest) (AssembleReply, error)
	// ExitTool executes exit_plan_mode with a scripted user review
	// (EXIT-2..7): it fails outside plan mode and for a plan that does not
	// start with a # heading; otherwise it asks the review through the
	// user-questions seam (an ask effect), and only a plain approval
	// succeeds with {"approved": true}, recording a silent pending exit
	// for the next accepted pre-step (EXIT-5). The kit calls it when the
	// model calls the tool in a step.
	ExitTool(ExitToolRequest) (ToolReply, error)
	// Command runs a registered command handler: /plan with its raw,
	// untrimmed argument (CMD-2..4); bare selects plan mode, off selects
	// inactive, anything else selects plan mode and steers the text. The
	// kit calls it when the user types the command.
	Command(CommandRequest) (CommandReply, error)
	// Fold is foldPlanMode(events, end) (LOG-2): the active of the last
	// plan/mode in events[0:end), false when there is none; a pure
	// function of the request. The kit calls it for a fold action.
	Fold(FoldRequest) (FoldReply, error)
	// Reload disposes the plugin and loads it again in the same process,
	// with the same config and services, and says what it registered, as
	// Load. The sessions stay; pending selections go or stay by the choice
	// reload-pending. The kit calls it for a reload action (capability
	// Reload; a review's Reload asks it during ExitTool).
	Reload() (LoadReply, error)
	// Unload disposes the plugin without loading it again; the sessions
	// stay. The reply lists what the plugin still has registered afterwards:
	// nothing, when it lets go of everything (SVC-1, SVC-2); its pending
	// selections go with it (PEND-8). The kit calls it for an unload action,
	// only when the implementation declares the capability Unload.
	Unload() (LoadReply, error)
	// Stop ends the implementation process; all process-local state is
	// lost. The kit calls it at the end of every check and before a
	// restart.
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

// Identity is what an implementation says about itself at start: who it
// is, its picks for the silent points and what it can do.
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
	// Capabilities are the optional parts of the contract the
	// implementation declares: the one declaration, in Go and (package
	// adapter) on the wire.
	Capabilities
}

// Capabilities say which optional parts of the contract an implementation
// has: the one place they are declared, whether the implementation is a Go
// Port (in Identity, at Start) or a process behind the adapter protocol
// (the start reply's capabilities, which package adapter converts to and
// from this type, member for member). A request that needs a capability
// the implementation does not declare is never sent to it (Lacks): the
// kit skips the check that needs it, and generated runs draw only what is
// declared.
type Capabilities struct {
	// Commands, UserQuestions, Fork and Reload: the implementation has
	// the plan command (CMD-1), asks its review through the user-questions
	// seam (EXIT-4), opens a session on a copy of another's log (LOG-3)
	// and answers Reload. They are reported as declared; the kit sends the
	// requests either way, and an implementation without one answers them
	// with an error matching ErrUnsupported (the check is skipped).
	Commands      bool `json:"commands,omitempty"`
	UserQuestions bool `json:"userQuestions,omitempty"`
	Fork          bool `json:"fork,omitempty"`
	Reload        bool `json:"reload,omitempty"`
	// Reuse: a Start on an instance that has already served a check resets
	// it to exactly the state of a new one, so the adapter may reuse a
	// process for another check, and reset it for a restart where the
	// restart policy allows (docs/adapter-protocol.md#lifecycle). An
	// in-process Port is always started afresh; the declaration matters
	// when it is served by adapter.Serve.
	Reuse bool `json:"reuse,omitempty"`
	// CommandOutcomes: a successful command reply carries the selection
	// outcome it announces (CommandReply.Outcome), so plankit can check
	// what the reply means against what happened (SVC-1).
	CommandOutcomes bool `json:"commandOutcomes,omitempty"`
	// Unload: the implementation answers Unload (SVC-2). Without it the
	// kit never calls Unload and skips the checks that need it.
	Unload bool `json:"unload,omitempty"`
	// ReviewReplies: the implementation takes a review scripted as the
	// seam's structured reply or as the seam failing (Review.Reply,
	// Review.Fail), so checks may script them.
	ReviewReplies bool `json:"reviewReplies,omitempty"`
	// HostTools: the implementation can be shown the host's own tools
	// (LoadRequest.HostTools, AssembleRequest.Tools), returns the whole
	// catalog from Assemble and gates their calls (ToolGate).
	HostTools bool `json:"hostTools,omitempty"`
	// EmptySteps: the implementation reads PreStepRequest.SkipsEmpty.
	EmptySteps bool `json:"emptySteps,omitempty"`
}

// Lacks names the capability a request needs that c does not declare, or
// "" when c declares all it needs: the host's tools in a load or an
// assembly (LoadRequest.HostTools, AssembleRequest.Tools) and every
// tool-gate request (PreToolRequest) need HostTools; a pre-step that says
// the runtime skips empty steps (PreStepRequest.SkipsEmpty) needs
// EmptySteps; a review scripted as the seam's reply or failure
// (ExitToolRequest.Review) needs ReviewReplies. (Unload, which carries no
// request, needs Unload.) Over the adapter and in-process alike such a
// request is not sent: it is unsupported (ErrUnsupported), and the check
// that needs it is skipped.
func (c Capabilities) Lacks(req any) string {
	switch r := req.(type) {
	case LoadRequest:
		if len(r.HostTools) > 0 && !c.HostTools {
			return "hostTools"
		}
	case AssembleRequest:
		if len(r.Tools) > 0 && !c.HostTools {
			return "hostTools"
		}
	case PreToolRequest:
		if !c.HostTools {
			return "hostTools"
		}
	case PreStepRequest:
		if r.SkipsEmpty && !c.EmptySteps {
			return "emptySteps"
		}
	case ExitToolRequest:
		if r.Review.Extended() && !c.ReviewReplies {
			return "reviewReplies"
		}
	}
	return ""
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

// LoadReply says what the plugin registered, or why it refused to load:
// Error set (CFG-1) and nothing else. A loaded plugin registers its
// pre-step listener with Prepend (STEP-1), the exit_plan_mode tool (EXIT-1),
// the plan:policy section (CFG-2) and, only with the commands service
// composed, the plan command (CMD-1). After Unload it lists what is still
// registered: nothing (SVC-2).
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

// OpenRequest introduces an agent whose durable log starts as Events (the
// implementation folds it: LOG-3).
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

// SetReply is what set returned: Outcome is committed, queued, cancelled or
// noop (SVC-1, PEND-3..6); or Error, the error set threw (an idle append
// the host failed: PEND-6, STEP-5). Effects lists what set did to the host:
// a committed change's plan/mode append, and the notice STEP-6 calls for,
// injected for the next step.
type SetReply struct {
	Outcome string   `json:"outcome,omitempty"`
	Error   string   `json:"error,omitempty"`
	Effects []Effect `json:"effects,omitempty"`
}

// GetReply is get(agent) (PEND-7): Active is the logged state; Pending is
// present exactly when a selection waits for the next accepted in-turn
// pre-step, and is that selection.
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

// PreStepReply is what the plugin's listener returned: the decision the
// step goes on with (the downstream decision, with the notice STEP-6 calls
// for added to an accepted one's messages: STEP-7), and its effects in the
// order they happened, the call of next() among them as a downstream
// effect (STEP-3: before any append).
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

// ToolReply is a tool call's result or failure: OK with Result (an approved
// exit: {"approved": true}, EXIT-5), or not OK with Error (outside plan
// mode, a plan without a # heading, anything but a plain approval:
// EXIT-2, EXIT-3, EXIT-6, EXIT-7), and the effects (the review asked: an
// ask effect, EXIT-4).
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

// FoldReply is the folded state; Error only under the choice fold-end=error
// for an End outside the log.
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

// Effect is one thing the implementation did to its host during a call,
// listed in the order it happened: an append to the agent's log
// (EffectAppend: Type and Data, Failed when the host failed it, as the
// call's FailAppends armed), a message steered into the running turn
// (EffectSteer, CMD-3) or injected for the next step (EffectInject), the
// plan review asked through the user-questions seam (EffectAsk, EXIT-4),
// and the call of the downstream listeners from the pre-step listener
// (EffectDownstream, STEP-3). The kit applies them: the durable log gains
// the appends that did not fail.
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
