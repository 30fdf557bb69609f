package main

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/shlex"
	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/conformance"
	"github.com/plankit/plankit/internal/pathcheck"
	"github.com/plankit/plankit/internal/workers"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/spf13/cobra"
)

// implFlags pick the implementation under test: the built-in reference
// (optionally one of its mutants or alternative choices), or an external
// implementation behind an adapter process (docs/adapter-protocol.md).
type implFlags struct {
	mutant  string
	choices []string

	adapter    string
	adapterDir string
	timeout    time.Duration
	startTO    time.Duration
	validate   bool
	restarts   string
	// jobs is --jobs where the command has it (check, explore): ports used
	// at once, so the pool parks as many processes for reuse.
	jobs int

	// pool runs the adapter's processes once factory made it.
	pool *adapter.Pool
	// cmd is the command the flags belong to: its context carries the
	// invocation's pools (poolsOf).
	cmd *cobra.Command
}

func (f *implFlags) register(cmd *cobra.Command) {
	f.cmd = cmd
	cmd.Flags().StringVar(&f.mutant, "mutant", "", "run against a named mutant of the reference (see docs/mutants.md)")
	cmd.Flags().StringArrayVar(&f.choices, "choice", nil, "reference choice for a silent point of the spec, name=value (repeatable)")
	cmd.Flags().StringVar(&f.adapter, "adapter", "", "run against an implementation behind an adapter process: its command line, split like a shell's (see docs/adapter-protocol.md)")
	cmd.Flags().StringVar(&f.adapterDir, "adapter-dir", "", "working directory of the adapter process (default: the current directory)")
	cmd.Flags().DurationVar(&f.timeout, "timeout", adapter.DefaultTimeout, "per-request timeout of the adapter")
	cmd.Flags().DurationVar(&f.startTO, "start-timeout", adapter.DefaultStartTimeout, "timeout of the adapter's start request, the handshake that waits for its runtime to boot (at least --timeout)")
	cmd.Flags().BoolVar(&f.validate, "validate-protocol", false, "check every adapter request and reply against the protocol's JSON Schemas, unknown fields included")
	cmd.Flags().StringVar(&f.restarts, "restarts", string(adapter.RestartAuto), "how an adapter is restarted within a check: real (a new process), reset (start on the same process, if it declares reuse) or auto (real for checks about what a restart loses and a fixed sample, reset elsewhere; docs/adapter-protocol.md)")
}

// registerJobs adds --jobs to a command that runs checks in parallel.
func (f *implFlags) registerJobs(cmd *cobra.Command) {
	cmd.Flags().IntVar(&f.jobs, "jobs", workers.Default(), "checks run at once, each against its own implementation instance (adapter process); the output is the same for any number")
}

// checkJobs validates --jobs.
func (f *implFlags) checkJobs() error {
	if f.jobs < 1 {
		return usageErr("--jobs %d: want at least 1", f.jobs)
	}
	return nil
}

// factory returns a function that builds a fresh port for each run.
func (f *implFlags) factory() (func() sim.Port, error) {
	if f.adapter != "" {
		return f.adapterFactory()
	}
	if f.adapterDir != "" || f.validate {
		return nil, usageErr("--adapter-dir and --validate-protocol need --adapter")
	}
	if _, err := f.restartMode(); err != nil {
		return nil, err
	}
	opts := reference.Options{}
	if f.mutant != "" {
		m, err := reference.LookupMutant(f.mutant)
		if _, own := loop.LookupMutant(f.mutant); err != nil && own {
			return nil, usageErr("--mutant %s is a mutant of the built-in runtime's loop; it needs --level runtime", f.mutant)
		}
		if err != nil {
			return nil, usageErr("%v", err)
		}
		opts.Mutants = reference.Mutants{m.Name}
	}
	if len(f.choices) > 0 {
		ch, err := parseChoiceFlags(f.choices)
		if err != nil {
			return nil, err
		}
		opts.Choices = ch
	}
	return reference.Factory(opts), nil
}

func parseChoiceFlags(choices []string) (reference.Choices, error) {
	m := map[string]string{}
	for _, c := range choices {
		name, value, ok := strings.Cut(c, "=")
		if !ok {
			return reference.Choices{}, usageErr("--choice %q: want name=value", c)
		}
		m[name] = value
	}
	ch, err := reference.ParseChoices(m)
	if err != nil {
		return reference.Choices{}, usageErr("--choice: %v", err)
	}
	return ch, nil
}

// adapterCommand is --adapter as words, with the --timeout every request
// to it gets checked.
func (f *implFlags) adapterCommand() ([]string, error) {
	words, err := shlex.Split(f.adapter)
	if err != nil {
		return nil, usageErr("--adapter %q: %v", f.adapter, err)
	}
	if len(words) == 0 {
		return nil, usageErr("--adapter: empty command line")
	}
	if f.timeout <= 0 {
		return nil, usageErr("--timeout must be positive, not %v", f.timeout)
	}
	return words, nil
}

func (f *implFlags) adapterFactory() (func() sim.Port, error) {
	pool, err := f.startPool("the adapter", "plankit serve", adapter.NewPool)
	if err != nil {
		return nil, err
	}
	f.pool = pool
	return func() sim.Port { return pool.Port() }, nil
}

// startPool builds the pool of external processes the flags name, a
// plugin adapter's or a runtime's (what and serve word the errors, as
// adapterOptions), and lists it for Main to end.
func (f *implFlags) startPool(what, serve string, newPool func(adapter.Options) (*adapter.Pool, error)) (*adapter.Pool, error) {
	opts, err := f.adapterOptions(what, serve)
	if err != nil {
		return nil, err
	}
	pool, err := newPool(opts)
	if err != nil {
		return nil, usageErr("--adapter: %v", err)
	}
	poolsOf(f.cmd.Context()).add(pool)
	return pool, nil
}

// adapterOptions checks the flags that start an external implementation
// (a plugin adapter or a runtime, which what names; serve is the command
// serving the built-in one) and returns how to run it.
func (f *implFlags) adapterOptions(what, serve string) (adapter.Options, error) {
	if f.mutant != "" || len(f.choices) > 0 {
		return adapter.Options{}, usageErr("--mutant and --choice pick the built-in reference; with --adapter pass them to %s (e.g. --adapter \"%s --mutant NAME\")", what, serve)
	}
	words, err := f.adapterCommand()
	if err != nil {
		return adapter.Options{}, err
	}
	if f.startTO <= 0 {
		return adapter.Options{}, usageErr("--start-timeout must be positive, not %v", f.startTO)
	}
	if f.adapterDir != "" {
		// Checked here so that a missing directory is blamed on itself,
		// not on the adapter program that could not be started in it.
		if err := pathcheck.Dir("--adapter-dir", f.adapterDir); err != nil {
			return adapter.Options{}, usageErr("%v", err)
		}
	}
	mode, err := f.restartMode()
	if err != nil {
		return adapter.Options{}, err
	}
	return adapter.Options{Command: words, Dir: f.adapterDir, Timeout: f.timeout, StartTimeout: f.startTO, Validate: f.validate, Restarts: mode, MaxIdle: f.jobs}, nil
}

// restartMode is --restarts (auto when unset).
func (f *implFlags) restartMode() (adapter.RestartMode, error) {
	if f.restarts == "" {
		return adapter.RestartAuto, nil
	}
	m, err := adapter.ParseRestartMode(f.restarts)
	if err != nil {
		return "", usageErr("--restarts %v", err)
	}
	return m, nil
}

// plugIn gives a conformance run the implementation the flags name: at
// the runtime level a runtime (runtimeFactory), otherwise a plugin built
// by factory. An adapter's pool also builds ports that know their check,
// for the restart policy, and forgets the cases the run discards; the
// in-process reference's restarts are always fresh instances.
func (f *implFlags) plugIn(opts *conformance.Options, l *levelFlags, factory func(*implFlags) (func() sim.Port, error)) error {
	if l.runtime() {
		var err error
		opts.NewRuntime, err = runtimeFactory(f, l)
		if err == nil {
			opts.RuntimeFor = f.runtimeFor()
		}
		return err
	}
	newPort, err := factory(f)
	if err != nil {
		return err
	}
	opts.NewPort = newPort
	opts.PortFor = f.portFor()
	if pool := f.pool; pool != nil {
		opts.Discard = func(c sim.Check) { pool.Forget(c.ID) }
	}
	return nil
}

// portFor builds a port that knows its check, so an adapter's pool
// restarts it by the restart policy; nil without an adapter (the
// in-process reference's restarts are always fresh instances).
func (f *implFlags) portFor() func(sim.Check) sim.Port {
	if pool := f.pool; pool != nil {
		return func(c sim.Check) sim.Port { return pool.PortFor(c) }
	}
	return nil
}

// runtimeFor is portFor at the runtime level.
func (f *implFlags) runtimeFor() func(sim.Check) loop.Runtime {
	if pool := f.pool; pool != nil {
		return func(c sim.Check) loop.Runtime { return pool.RuntimeFor(c) }
	}
	return nil
}

// restartReport is the JSON report's account of restarts, at either
// level; nil without an adapter.
func (f *implFlags) restartReport() *report.Restarts {
	if f.pool == nil {
		return nil
	}
	n := f.pool.Restarts()
	mode, _ := f.restartMode()
	return &report.Restarts{Policy: string(mode), Real: n.Real, Reset: n.Reset}
}

// poolSet holds the adapter pools of one invocation of Main, which ends
// their processes when the command returns, whatever path it took. Each
// invocation has its own (carried by the command's context), so
// invocations running at once in one process (tests) do not end each
// other's adapters.
type poolSet struct {
	mu   sync.Mutex
	list []*adapter.Pool
}

type poolsKey struct{}

// withPools is ctx carrying the invocation's pools.
func withPools(ctx context.Context, s *poolSet) context.Context {
	return context.WithValue(ctx, poolsKey{}, s)
}

// poolsOf is the invocation's pools that ctx carries. A command run
// outside Main (without them) gets a set of its own that nothing ends,
// so callers always list a pool somewhere.
func poolsOf(ctx context.Context) *poolSet {
	if ctx != nil {
		if s, ok := ctx.Value(poolsKey{}).(*poolSet); ok {
			return s
		}
	}
	return &poolSet{}
}

func (s *poolSet) add(p *adapter.Pool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = append(s.list, p)
}

// abortAll ends every adapter process now (SIGTERM, then SIGKILL after
// the grace period), for an interrupted run; pools stay listed so that
// closeAll still waits for them.
func (s *poolSet) abortAll() { s.each(func(p *adapter.Pool) { p.Abort() }) }

// killAll kills every adapter process group at once, before plankit exits
// without waiting.
func (s *poolSet) killAll() { s.each(func(p *adapter.Pool) { p.Kill() }) }

func (s *poolSet) each(f func(*adapter.Pool)) {
	s.mu.Lock()
	list := slices.Clone(s.list)
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range list {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(p)
		}()
	}
	wg.Wait()
}

func (s *poolSet) closeAll() {
	s.mu.Lock()
	list := s.list
	s.list = nil
	s.mu.Unlock()
	for _, p := range list {
		p.Close()
	}
}
