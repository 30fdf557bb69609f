package adapter

import (
	"fmt"
	"hash/fnv"

	"github.com/plankit/plankit/sim"
)

// RestartMode is how the driver restarts an implementation within a
// scenario (the trace action restart, and every load).
type RestartMode string

// Restart modes.
const (
	// RestartReal ends the process and starts a new one: nothing
	// process-local can survive.
	RestartReal RestartMode = "real"
	// RestartReset sends start to the same process, which resets it,
	// when the implementation declares the reuse capability (otherwise the
	// restart is real). Much cheaper for implementations slow to start;
	// it trusts the implementation's reset.
	RestartReset RestartMode = "reset"
	// RestartAuto restarts for real where a check is about what a restart
	// loses (its first restart, and each made while a selection is
	// pending) and in a fixed sample of the other checks, and resets
	// elsewhere (see RealRestarts).
	RestartAuto RestartMode = "auto"
)

// ParseRestartMode reads a --restarts value.
func ParseRestartMode(s string) (RestartMode, error) {
	switch m := RestartMode(s); m {
	case RestartReal, RestartReset, RestartAuto:
		return m, nil
	}
	return "", fmt.Errorf("%q: want real, reset or auto", s)
}

// RealSampleEvery is the size of the fixed sample of real restarts under
// RestartAuto: one check in RealSampleEvery, chosen by a hash of its ID.
const RealSampleEvery = 8

// RealRestarts is the auto policy's choice of checks that restart for
// real: a check about process-local state (PEND-8: what a restart loses),
// and the checks whose ID falls in the fixed sample, so an implementation
// whose reset keeps state a new process would not have is still caught;
// the rest reset. The sample depends only on the ID, so it is the same in
// every run and for any number of workers.
//
// In a process-local check not every restart needs a new process: the
// port makes its first restart real, and each later one made while the
// implementation reports a pending selection for some agent (its last
// get() of the agent; at the plugin level the runtime asks get() after
// every action, at the runtime level only a script's own get steps ask
// it, so there a later restart is real only after such a step) — the
// restarts at which PEND-8 says something is lost. The others check what
// a reset checks as well: that the state is the fold of the log. In the
// property recovery-LOG-3-PEND-8 this makes about one restart in eight
// real instead of all of them (docs/performance.md), and it depends only
// on the replies, so it too is the same in every run.
func RealRestarts(c sim.Check) bool {
	if c.ProcessLocal {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(c.ID))
	return h.Sum32()%RealSampleEvery == 0
}

// RestartCounts counts the restarts of a run by how they were done.
type RestartCounts struct {
	// Real restarts ended the process and started a new one.
	Real int `json:"real"`
	// Reset restarts sent start to the same process.
	Reset int `json:"reset"`
}

// Add returns the sum of two counts.
func (c RestartCounts) Add(o RestartCounts) RestartCounts {
	return RestartCounts{Real: c.Real + o.Real, Reset: c.Reset + o.Reset}
}
