package suite

import "github.com/plankit/plankit/spec"

// Gap is a part of a clause a runtime cannot show through the runtime
// protocol, with why; the plugin level (or another check) covers it. A gap
// with no Part is the whole clause.
type Gap struct {
	Clause string
	Part   string
	Why    string
}

// Gaps lists what the runtime-level suite cannot check, clause by clause,
// so plankit catalog coverage can say it next to the runtime checks.
var Gaps = []Gap{
	{spec.LOG2, "foldPlanMode's `end` argument (inside, beyond or before the log)",
		"a runtime shows the state in force (get, the requests), the fold of its whole log; the fold function and its end are plan mode's API, checked at plugin level (the fold action; choice fold-end)"},
	{spec.LOG3, "compaction, and a fork as a session of its own",
		"protocol v1 opens an agent from a given log (resume; a fork is that with a copy) but scripts no compaction"},
	{spec.PEND6, "a selection during post-turn checkpointing (turn/end logged, status still running)",
		"a protocol turn returns when the agent is idle again; no host code runs between turn/end and idle"},
	{spec.PEND8, "a process exit inside a turn",
		"restarts happen between protocol requests, so between turns; a selection made after the last accepted pre-step is lost at such a restart (rt-pend-lost-at-restart), which is the case PEND-8 names"},
	{spec.STEP1, "the order of messages a host listener adds to the decision against plan mode's notice",
		"protocol v1 host listeners accept, reject, abort or take the step's messages; they add none (the position shows when one takes the notice: rt-step-listener-wraps-host-listeners)"},
	{spec.STEP4, "a selection made between prompt admission and turn/start",
		"the protocol's turn admits the prompt and runs the turn in one request; host code runs inside the turn or between turns (rt-log-plan-mode-after-turn-start checks a selection just after admission)"},
	{spec.SVC3, "sandbox mode and approval policy never reading or writing plan state",
		"protocol v1 scripts no sandbox or approval policy; the runtime level checks that plan mode never blocks steps or host tools (rt-exit-host-tools-in-plan-mode)"},
	{spec.SVC4, "the catalog generated from source, verified fresh and byte-identical in every language version of the page",
		"a property of a package's sources and pages, not of a running runtime (plankit's own catalog is held fresh by its test); the runtime level checks the signatures' outcomes and get's shape (rt-svc-catalog-signatures)"},
}
