// Package properties owns plankit's property and model-based checks: an
// abstract model of SPEC.md written independently of the reference, the
// generators of valid action sequences, the named properties (each citing
// its clauses), shrinking of failures to replayable counterexample traces,
// and the bounded exhaustive exploration behind `plankit explore`.
//
// Everything runs through sim.Runtime around a sim.Port, so the same
// checks run against the reference and against external implementations.
// Under `go test` the sequences are drawn by rapid (a state machine with
// t.Repeat); Run and Explore draw from a seeded PRNG or enumerate, because
// rapid's engine needs a *testing.T.
package properties
