// Package adapter owns plankit's adapter protocol: the newline-delimited
// JSON conversation between the kit and an implementation of plan mode
// running in its own process, in any language (docs/adapter-protocol.md).
//
// The driver side is Pool and Port: a Pool spawns adapter processes from a
// command line and hands out Ports implementing sim.Port over the
// protocol. Each Port.Start spawns a fresh process and performs the start
// handshake; Stop asks the process to stop and ends it. The driver survives
// bad adapters: every request has a timeout, a process that exits is
// reported with the tail of its stderr, malformed or schema-invalid replies
// and replies with the wrong seq are protocol errors quoting the line, the
// request and the expected shape, lines longer than MaxLine are cut off,
// stderr is drained concurrently so a flood never blocks, and a Pool stops
// spawning processes once its restart budget is spent. Failures are
// *RequestError (Kind says which), *UnsupportedError for an "unsupported"
// reply, and *StartError.
//
// On Linux each adapter process runs under a guard: the program that
// links this package, started again (/proc/self/exe) in a mode this
// package's init recognises, which runs nothing but the adapter command,
// is its child subreaper and ends the adapter's whole tree when the
// adapter exits, when the Pool ends it, or when the program dies
// (guard_linux.go). A guard runs one adapter at a time and then the
// pool's next one, so a Pool starts as many guards as it runs processes
// at once, not one per process.
//
// A Pool keeps one spare process spawned ahead of time, and parks the
// processes of implementations that declare the "reuse" capability at Stop
// for the next scenario; a restart within a scenario always gets a new
// process.
//
//	pool, err := adapter.NewPool(adapter.Options{Command: []string{"python3", "adapter.py"}})
//	if err != nil { ... }
//	defer pool.Close()
//	run := trace.Execute(t, pool.Port())
//
// Every message has a JSON Schema (schema/*.json, embedded by the leaf
// package adapter/schema); with Options.Validate every request and reply
// is checked against it.
//
// The server side is Serve: it answers the protocol on a reader and a
// writer with any sim.Port, which is how `plankit serve` offers the
// reference (and its mutants) to other tools and how the kit tests its own
// driver.
package adapter
