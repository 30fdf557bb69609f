// Package properties owns plankit's property and model-based checks: an
// abstract model of SPEC.md written independently of the reference, the
// generators of valid action sequences, the named properties (each citing
// its clauses), shrinking of failures to replayable counterexample traces,
// and the bounded exhaustive exploration behind `plankit explore`.
//
// Everything runs through sim.Runtime around a sim.Port, so the same
// checks run against the reference and against external implementations.
// Under `go test` the sequences are drawn by rapid (a state machine with
// t.Repeat); Run draws with the same generators from a seeded PRNG (both
// are a Chooser), and Explore enumerates a fixed alphabet. rapid.Check
// would take any rapid.TB, not only a *testing.T, but its engine does not
// fit a command whose output must be the same bytes for a seed: it reads
// its settings from -rapid.* flags of the process's global flag set, calls
// testing.Short (which panics unless the testing flags were registered
// and parsed, as only a test binary does), bounds its search and its
// shrinking by wall-clock time, and writes fail files under
// testdata/rapid.
package properties
