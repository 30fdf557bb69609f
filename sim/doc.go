// Package sim is plankit's deterministic simulator of an agent runtime
// around a plan-mode implementation. It decides nothing about plan mode:
// every plan-mode decision is the implementation's, reached through Port.
// It uses the specification's names (package spec) to draw actions and to
// read results, and how a plan/mode event's data folds is spec's rule
// (spec.PlanModeRead, LOG-1/LOG-2 under choice plan-mode-data), shared with
// the reference, the model, lint and the runtime-level checks.
//
// It owns the durable session logs (append-only events in dsh's shape),
// agents and their status, prompt admission, turns and steps, the
// agent/pre-step listener chain with next() semantics (the implementation's
// listener placed where its registration puts it, among scripted listeners
// registered before and after it), request derivation after acceptance
// (decision messages, then the request header with the rendered sections and
// tool catalog), scripted model output and tool calls, steer and inject
// queues, request-recovery retries (through the pre-step as the
// specification says, or inside the same step as the shipped dsh loop does),
// post-turn checkpointing, append faults, process restart, service reload,
// fork and compaction.
//
// The implementation under test is reached only through Port. Every action
// (Action) yields a Result: the events appended, the implementation's
// effects, outcomes, the requests the model saw and get() afterwards. The
// runtime uses no clock and no randomness: the same options and actions
// give the same results byte for byte.
package sim
