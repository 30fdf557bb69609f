// Package loop is the runtime level of plankit: the seam to an agent
// runtime that owns its loop, with plan mode in it.
//
// At the plugin level (package sim) plankit runs the loop and drives a
// plan-mode plugin through sim.Port. At the runtime level the runtime under
// test runs its own loop behind Runtime, and plankit plays the outside world
// only: the user (prompts, selections, commands, review answers), the model
// (a Script of responses per request), host code inside a turn, faults,
// restarts and reloads. It observes every session-log event, every model
// request as sent, and the results of what it asked for (Observation).
//
// Builtin is plankit's own runtime behind the port: the simulator of
// package sim around any sim.Port (the reference, a mutant, a plugin
// adapter). The adapter package drives external runtimes over the runtime
// protocol (docs/runtime-protocol.md). Session runs a runtime trace and
// keeps the observed logs; the checks in this package judge them.
package loop
