package adapter

import (
	"time"
)

// Defaults of Options.
const (
	DefaultTimeout       = 5 * time.Second
	DefaultStartTimeout  = 30 * time.Second
	DefaultStderrTail    = 4096
	DefaultRestartBudget = 3
	DefaultMaxIdle       = 2
)

// Options configure how adapter processes are run.
type Options struct {
	// Command is the adapter's command line, already split into words.
	Command []string
	// Dir is the working directory of the process; empty means the
	// current directory.
	Dir string
	// Timeout bounds every request, from writing it to reading its reply
	// (DefaultTimeout when zero). A request that times out ends the
	// process.
	Timeout time.Duration
	// StartTimeout bounds a start request instead, the handshake that may
	// wait for an interpreter or runtime to boot (DefaultStartTimeout when
	// zero, and never less than Timeout).
	StartTimeout time.Duration
	// Validate checks every request and reply against the strict JSON
	// Schemas (no unknown fields), for adapter authors. Replies are always
	// checked against the schemas with unknown fields allowed.
	Validate bool
	// MaxLine is the longest reply line accepted, in bytes (MaxLine when
	// zero).
	MaxLine int
	// StderrTail is how many bytes of the end of stderr a crash report
	// quotes (DefaultStderrTail when zero).
	StderrTail int
	// NoSpare turns off spawning the next process ahead of time. By
	// default the pool keeps one spare process spawned but unused, so that
	// a Start (a new scenario, a restart) does not wait for the process to
	// boot; the spare is ended by Close.
	NoSpare bool
	// NoReuse turns off reusing processes across scenarios. By default a
	// process whose implementation declares the "reuse" capability is
	// parked at Stop and handed to the next port's first Start, which
	// resets it with a start request. A restart within a scenario always
	// gets a new process.
	NoReuse bool
	// Restarts is how a restart within a scenario (Stop then Start on
	// the same port) is done: RestartReal (the default) ends the process
	// and starts a new one; RestartReset sends start to the same process,
	// which resets it, when the implementation declares reuse;
	// RestartAuto does a real restart for ports made for a check about
	// process-local state and for a fixed sample of the other checks, and
	// a reset for the rest (see RealRestarts).
	Restarts RestartMode
	// MaxIdle bounds the processes parked for reuse (DefaultMaxIdle when
	// zero); parking one more ends the one parked longest ago. Set it to
	// the number of ports used at once.
	MaxIdle int
	// KillGrace is how long a process group has between SIGTERM and
	// SIGKILL when the pool ends it (DefaultKillGrace when zero).
	KillGrace time.Duration
	// RestartBudget is how many failed processes (crashed, hung, broke the
	// protocol) the pool replaces with new ones; after that, Start fails at
	// once. DefaultRestartBudget when zero; negative means none.
	RestartBudget int
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	o.StartTimeout = max(o.StartTimeout, o.Timeout)
	if o.MaxLine <= 0 {
		o.MaxLine = MaxLine
	}
	if o.StderrTail <= 0 {
		o.StderrTail = DefaultStderrTail
	}
	if o.MaxIdle <= 0 {
		o.MaxIdle = DefaultMaxIdle
	}
	if o.KillGrace <= 0 {
		o.KillGrace = DefaultKillGrace
	}
	if o.RestartBudget == 0 {
		o.RestartBudget = DefaultRestartBudget
	}
	if o.RestartBudget < 0 {
		o.RestartBudget = 0
	}
	return o
}
