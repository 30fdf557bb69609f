// Package lockstep runs an implementation of plan mode and the reference
// side by side, each behind sim.Port in its own sim.Runtime, on the same
// generated action sequences (random, and every sequence up to a depth),
// and finds the first observation on which they differ.
//
// After every action it compares what sim.Result holds, in a fixed order
// (Table): errors, set outcomes, command results, pre-step decisions, tool
// results, appended plan/mode events, notices, the other appended events,
// requests' sections, tools and messages, steered and injected text, get()
// and folds. The first difference is the divergence; Table names its
// clauses. The divergence is shrunk, written as a trace whose diverging
// action carries the reference's observation as its expectation, and
// classified: the smallest set of known variants (reference mutants and
// variants of published deviations) under which the reference does what
// the implementation did, or new when none does.
//
// The reference runs with the implementation's declared choices and with
// the assumed variants (known deviations), so a search goes on past them.
package lockstep
