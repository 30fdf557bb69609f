// Command plankit is the plan-mode conformance kit: it simulates turn
// traces, runs the conformance gate, verifies catalogs and lints real
// session logs. Every command exits 0 on pass, 1 when a check or
// expectation failed, 2 on a usage or input error, and 3 when the
// implementation or adapter could not be run.
package main

import "os"

func main() {
	os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
}
