// Package lint checks recorded session logs for the log-level rules of plan
// mode. It owns reading dsh's JSONL session logs (and the logs `plankit sim
// --format jsonl` writes, which may hold several sessions) and the rules
// that SPEC.md makes observable in a log.
//
// # Input
//
// A log is JSONL. A line {"type":"session",...} starts a session; every
// other line is one event {"type","data"} with optional "seq" and "time"
// (checked-in snapshots drop them). When seq is present it is 0-based and
// contiguous within a session. Runs of streaming chunks may be packed into
// one row (text-chunks, reasoning-chunks, tool-call-chunks) with "seq0" and
// "time0"; such a row stands for as many events as it holds texts, so the
// next row's seq is seq0 plus that count. Snapshot placeholders such as
// "{{system}}" stand for values the snapshot dropped; a request header whose
// system prompt is a placeholder is read as "not shown".
//
// # Rules
//
// Every finding names the SPEC.md clause it breaks:
//
//   - LOG-1: plan/mode data is exactly {active: boolean}; a plan/mode never
//     appears inside a transcript message (user/message, assistant/message,
//     tool/result).
//   - LOG-4: every committed change is exactly one plan/mode, so a plan/mode
//     that does not change the folded state (a repeat, or an initial
//     {active:false}) is not a committed change.
//   - STEP-1: inside an open turn a plan/mode is appended only by the
//     pre-step listener, before the step starts: never between step/start
//     and that step's request/header.
//   - STEP-3: a plan/mode appended at a pre-step is followed by that step's
//     request; a turn that ends instead (blocked, aborted) shows an append
//     for a rejected or aborted step.
//   - STEP-7: never after a step's request header (the request would not
//     reflect it), except at a request-recovery retry (llm/retry), which the
//     pre-step observes (STEP-2) and which must then send a new header; a
//     header of the step that applied a change shows the new state.
//   - STEP-6: a plan-mode notice (a user/message with source kind plugin,
//     plugin plan-mode) appears only for a user's change appended since the
//     last request header, when that header showed the other state; at most
//     one notice per change.
//   - EXIT-5: the change that applies an approved exit_plan_mode (a
//     successful exit_plan_mode result while active, then plan/mode false)
//     is never narrated.
//   - EXIT-1, EXIT-2, EXIT-3, CFG-2: when a request header carries its
//     system sections and tools (the simulator's logs), the plan:policy
//     section is rendered at order 50 exactly while the log says active,
//     exit_plan_mode does not come and go with the state, exit_plan_mode
//     succeeds only in plan mode and only for a plan opening with a level-1
//     "#" heading.
//
// The plan state at each request header is the fold of the log (LOG-2) and
// is reported as an info line, not a finding.
//
// # What a log cannot show
//
// A missing notice is not a finding: the idle path's notice waits in a
// process-local queue and is lost when the process exits (PEND-8), which the
// log does not record. set() calls are not logged, so a user's change made
// after an approved exit in the same turn is read as the exit's (the linter
// forgets the approval at any /plan command, which is logged).
package lint
