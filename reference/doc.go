// Package reference is plankit's reference implementation of plan mode,
// exact to the specification (SPEC.md, clauses LOG, PEND, STEP, CFG, EXIT,
// CMD, SVC).
//
// The Controller is the plan-mode service: get and set with their four
// outcomes, the agent/pre-step listener that appends a pending selection only
// after the downstream listeners accept the step, narration exactly when the
// last request header showed the other state, the plan:policy section, the
// always-registered exit_plan_mode tool with its user review, and the /plan
// command. Its state is the session log (folded incrementally, never
// rescanned on the hot path) plus the process-local pending selections.
//
// Port serves the controller to the simulator through sim.Port, in-process
// but without shared memory: it mirrors each log from the requests alone.
// Where the specification is silent, Choices names the pick (documented in
// docs/spec-choices.md); Mutants switches on the deliberate deviations of
// the mutant catalogue that prove the conformance checks can fail. The
// controller names no mutant: a mutant either wraps the port, when it
// changes only what crosses it, or sets the controller's hooks, named
// points where it changes one decision.
package reference
