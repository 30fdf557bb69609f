package reference

import (
	"fmt"
	"slices"
	"strings"
)

// Mutant names one deliberate deviation from the specification, the way a
// real implementation might get a clause wrong. The conformance suite must
// kill every mutant: some check of the mutant's clause must fail against it.
type Mutant string

// Mutants is a set of enabled deviations; the zero value is the faithful
// reference.
type Mutants []Mutant

// Has reports whether m is enabled.
func (ms Mutants) Has(m Mutant) bool { return slices.Contains(ms, m) }

// The mutant catalogue. Each breaks exactly one clause.
const (
	AppendBeforeDownstream  Mutant = "append-before-downstream"
	AppendOnReject          Mutant = "append-on-reject"
	AppendOnAbort           Mutant = "append-on-abort"
	NarrateAlways           Mutant = "narrate-always"
	NarrateExit             Mutant = "narrate-exit"
	NarrateTwice            Mutant = "narrate-twice"
	IdleSetQueues           Mutant = "idle-set-queues"
	CancelKeepsPending      Mutant = "cancel-keeps-pending"
	FoldFirst               Mutant = "fold-first"
	PendingSurvivesRestart  Mutant = "pending-survives-restart"
	SectionWhileInactive    Mutant = "section-while-inactive"
	SectionWrongOrder       Mutant = "section-wrong-order"
	ToolHiddenInactive      Mutant = "tool-hidden-inactive"
	OffKeepsPending         Mutant = "off-keeps-pending"
	ConfigUnknownKeyIgnored Mutant = "config-unknown-key-ignored"
	ApproveWithFeedback     Mutant = "approve-with-feedback"
	PlanWithoutHeading      Mutant = "plan-without-heading"
	ListenerAppended        Mutant = "listener-appended"
	RetryNotObserved        Mutant = "retry-not-observed"
	FailedAppendBlocks      Mutant = "failed-append-blocks"
	NoopQueues              Mutant = "noop-queues"
	GetHidesPending         Mutant = "get-hides-pending"
	ExitOutsidePlan         Mutant = "exit-outside-plan"
	NoChannelApproves       Mutant = "no-channel-approves"
	ReloadApproves          Mutant = "reload-approves"
	PlanMessageNotSteered   Mutant = "plan-message-not-steered"
	CommandWithoutService   Mutant = "command-without-service"
	PlanModeExtraField      Mutant = "plan-mode-extra-field"
	DoubleAppend            Mutant = "double-append"
	ResumeIgnoresLog        Mutant = "resume-ignores-log"
	SelectionContinues      Mutant = "selection-continues"
	QueuedCommitsNow        Mutant = "queued-commits-now"
	ApproveWithoutReview    Mutant = "approve-without-review"
	BarePlanToggles         Mutant = "bare-plan-toggles"
	PlanModeBlocksSteps     Mutant = "plan-mode-blocks-steps"
	KeepPlanningKeepsExit   Mutant = "keep-planning-keeps-exit"
	ExitGateReadsPending    Mutant = "exit-gate-reads-pending"
	ApprovalKeepsUserExit   Mutant = "approval-keeps-user-exit"
	CancelledNarrated       Mutant = "cancelled-selection-narrated"
	CommandUntrimmed        Mutant = "command-untrimmed"
	ReplyAnnouncesEntering  Mutant = "plan-reply-announces-entering"
	// Host tools (EXIT-1, SVC-3) and empty decisions (PEND-2).
	AssemblyToolsHiddenInPlan Mutant = "assembly-tools-hidden-in-plan"
	HostToolsReorderedInPlan  Mutant = "host-tools-reordered-in-plan"
	HostToolsBlockedInPlan    Mutant = "host-tools-blocked-in-plan"
	NoticeForcesStep          Mutant = "notice-forces-step"
)

// MutantInfo describes a mutant: the clause it breaks and how.
type MutantInfo struct {
	Name   Mutant
	Clause string
	What   string
}

// Catalogue lists every mutant with its clause, in a fixed order.
var Catalogue = []MutantInfo{
	{PlanModeExtraField, "LOG-1", "plan/mode data carries a field besides active"},
	{FoldFirst, "LOG-2", "the fold returns the first plan/mode value instead of the last"},
	{PendingSurvivesRestart, "PEND-8", "pending selections survive a process restart"},
	{DoubleAppend, "LOG-4", "a committed change appends plan/mode twice"},
	{NoopQueues, "PEND-3", "selecting the pending or logged state again during a turn returns queued"},
	{CancelKeepsPending, "PEND-5", "cancelled leaves the opposite selection pending"},
	{IdleSetQueues, "PEND-6", "a set with no open turn queues instead of committing"},
	{GetHidesPending, "PEND-7", "get never reports the pending selection"},
	{ListenerAppended, "STEP-1", "the pre-step listener is registered without prepend"},
	{RetryNotObserved, "STEP-2", "request-recovery retries do not apply pending selections"},
	{AppendBeforeDownstream, "STEP-3", "the selection is appended before the downstream decision"},
	{AppendOnReject, "STEP-3", "a rejected step still appends the selection"},
	{AppendOnAbort, "STEP-3", "an aborted step still appends the selection"},
	{FailedAppendBlocks, "STEP-5", "a failed append rejects the step"},
	{NarrateAlways, "STEP-6", "every user selection is narrated, whatever the last header showed"},
	{NarrateTwice, "STEP-6", "a narrated change gets two notices"},
	{ConfigUnknownKeyIgnored, "CFG-1", "unknown config keys are silently ignored"},
	{SectionWhileInactive, "CFG-2", "the plan:policy section renders while plan mode is inactive"},
	{SectionWrongOrder, "CFG-2", "the plan:policy section renders at order 40"},
	{ToolHiddenInactive, "EXIT-1", "exit_plan_mode leaves the tool catalog while plan mode is inactive"},
	{ExitOutsidePlan, "EXIT-2", "exit_plan_mode runs outside plan mode"},
	{ExitGateReadsPending, "EXIT-2", "exit_plan_mode's plan-mode gate reads the pending selection instead of the logged state"},
	{PlanWithoutHeading, "EXIT-3", "a plan without a # heading is accepted"},
	{NarrateExit, "EXIT-5", "the exit tool's approved exit is narrated"},
	{ApprovalKeepsUserExit, "EXIT-5", "an approval keeps a user's queued exit instead of replacing it, so the exit is narrated"},
	{ApproveWithFeedback, "EXIT-6", "an approval that carries feedback text counts as approval"},
	{KeepPlanningKeepsExit, "EXIT-6", "keep planning leaves an earlier approval's pending exit in force, so plan mode is left at the next accepted step"},
	{NoChannelApproves, "EXIT-7", "with no user-questions channel the exit is approved"},
	{ReloadApproves, "EXIT-7", "a reload during the review does not fail the call"},
	{CommandWithoutService, "CMD-1", "/plan is registered even when the commands service is not composed"},
	{PlanMessageNotSteered, "CMD-3", "/plan <message> does not steer the message"},
	{OffKeepsPending, "CMD-4", "/plan off does not cancel a pending entry"},
	{ResumeIgnoresLog, "LOG-3", "a session opened on an existing log (resume, fork) starts inactive instead of folding it"},
	{SelectionContinues, "PEND-2", "a committed selection steers the agent to continue, starting a turn"},
	{QueuedCommitsNow, "PEND-4", "a selection during an open turn is appended at once instead of queued"},
	{ApproveWithoutReview, "EXIT-4", "a valid plan is approved without being presented for review"},
	{BarePlanToggles, "CMD-2", "bare /plan toggles: it leaves plan mode when plan mode is on"},
	{PlanModeBlocksSteps, "SVC-3", "in plan mode the listener rejects steps instead of only guiding"},
	{CommandUntrimmed, "CMD-4", "the /plan argument is compared with off untrimmed, so \" off \" is taken for a message"},
	{AssemblyToolsHiddenInPlan, "EXIT-1", "in plan mode the catalog keeps only the host tools registered at load, hiding those another assembly listener adds after plan mode's"},
	{HostToolsReorderedInPlan, "EXIT-1", "in plan mode the host's tools are reordered (reversed) in the request's catalog"},
	{HostToolsBlockedInPlan, "SVC-3", "in plan mode the plugin's tool gate denies every call of a host tool"},
	{NoticeForcesStep, "PEND-2", "a pending selection's notice is added to an empty accepted decision the runtime would skip, so the selection starts a step"},
	{ReplyAnnouncesEntering, "SVC-1", "every /plan that does not commit announces entering plan mode from the next step (queued), as does a repeated in-turn /plan off"},
}

// Variants reproduce deviations of published implementations that show
// only under a silent-point choice (Choices says which), so they are not in
// the Catalogue every suite must kill with the default choices. Lockstep
// runs can assume them, like any mutant.
var Variants = []VariantInfo{
	{MutantInfo{CancelledNarrated, "STEP-6", "a selection cancelled within a turn (kept as an entry equal to the log) is narrated at the next accepted pre-step"},
		map[string]string{"cancel-pending": "keep-equal"}},
}

// VariantInfo is a variant: a mutant and the choices it needs to show.
type VariantInfo struct {
	MutantInfo
	Choices map[string]string
}

// LookupMutant returns the catalogue (or variant) entry for name.
func LookupMutant(name string) (MutantInfo, error) {
	for _, v := range Variants {
		if string(v.Name) == name {
			return v.MutantInfo, nil
		}
	}
	for _, m := range Catalogue {
		if string(m.Name) == name {
			return m, nil
		}
	}
	var names []string
	for _, m := range Catalogue {
		names = append(names, string(m.Name))
	}
	for _, v := range Variants {
		names = append(names, string(v.Name))
	}
	return MutantInfo{}, fmt.Errorf("unknown mutant %q (known: %s)", name, strings.Join(names, ", "))
}
