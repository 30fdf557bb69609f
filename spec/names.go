package spec

// Names the specification fixes. Checks compare these exactly; everything
// else an implementation says (errors, notices, command replies) is judged
// by meaning, not wording.
const (
	// SectionName is the system-prompt section plan mode renders (CFG-2).
	SectionName = "plan:policy"
	// SectionOrder is the order the section renders at (CFG-2).
	SectionOrder = 50
	// ExitTool is the exit tool, registered whatever the state (EXIT-1).
	ExitTool = "exit_plan_mode"
	// Command is the /plan command's name, without the slash (CMD-1).
	Command = "plan"
	// CommandOff is the argument of /plan that selects inactive (CMD-4).
	CommandOff = "off"
	// PluginName is the plugin's name: the source of its notices and its
	// place in the pre-step listener chain (STEP-1, STEP-6).
	PluginName = "plan-mode"
)

// The four outcomes of set(agent, active) (PEND-3..6, SVC-1).
const (
	Committed = "committed"
	Queued    = "queued"
	Cancelled = "cancelled"
	Noop      = "noop"
)

// Notice texts of a user's selection (STEP-6), in the published package's
// words. The specification fixes what a notice is (one plugin-sourced
// user/message), not its wording, so checks never compare these texts.
const (
	NoticeOn  = "The user switched this session to plan mode."
	NoticeOff = "The user switched this session back to the default mode."
)

// The plan review exit_plan_mode presents through the user-questions seam
// (EXIT-4): its question id and its two options (EXIT-5, EXIT-6).
const (
	ReviewQuestionID   = "plan-review"
	ReviewApprove      = "Approve"
	ReviewKeepPlanning = "Keep planning"
)

// Event types of the session logs, in the shape of dsh's JSONL logs. The
// catalog of their data shapes is catalog/events.
const (
	TypeTurnStart      = "turn/start"
	TypeTurnEnd        = "turn/end"
	TypeStepStart      = "step/start"
	TypeStepEnd        = "step/end"
	TypeRequestHeader  = "request/header"
	TypeRetry          = "llm/retry"
	TypeUserMessage    = "user/message"
	TypeAssistant      = "assistant/message"
	TypeToolCall       = "tool/call"
	TypeToolResult     = "tool/result"
	TypePlanMode       = "plan/mode"
	TypeCommandRun     = "command/run"
	TypeCommandDone    = "command/done"
	TypeCompactStart   = "compaction/start"
	TypeCompactSummary = "compaction/summary"
	TypeCompactEnd     = "compaction/end"
)
