// Package spec is the vocabulary of the plan-mode specification (SPEC.md):
// its numbered clauses and their groups, the pattern of a clause ID, the
// suite version, the names the specification fixes (the plan/mode event,
// the plan:policy section, the exit tool, the /plan command, the four set
// outcomes), how a typed /plan line is read, how a plan/mode event's data folds
// (choice plan-mode-data), the event types of the session
// logs, and the silent points an implementation answers with a named choice.
//
// Every other package of plankit takes these names from here; spec imports
// nothing of plankit's.
package spec
