// Package suite is the runtime-level conformance suite: Gherkin scenarios
// tagged @runtime that drive a whole runtime (loop.Runtime) from the
// outside, as a user, a model and host code, and judge what it logs and
// sends; and rapid properties over generated runtime scripts. Every step
// also checks the invariants of package loop (every request agrees with the
// log, lint rules), so a scenario fails on any observation that breaks a
// clause, not only on the ones it names.
package suite

import (
	"context"
	"embed"
	"errors"
	"fmt"

	"github.com/plankit/plankit/features"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

//go:embed *.feature
var files embed.FS

// Options configure a run of the runtime-level suite.
type Options struct {
	// NewRuntime builds a fresh runtime for each scenario.
	NewRuntime func() loop.Runtime
	// RuntimeFor, when set, builds each scenario's runtime instead, told
	// which check it is for: a scenario tagged @PEND-8 is about what a
	// restart loses (sim.Check.ProcessLocal), so an adapter restarts it
	// for real under its auto policy.
	RuntimeFor func(sim.Check) loop.Runtime
	features.Selection
	// CounterexampleDir receives, for each failing scenario, its steps and
	// expectations as a runtime trace (empty: none is written).
	CounterexampleDir string
	// Replay, when set, is the command that replays a counterexample
	// against this runtime, before the trace's path, and each failure's
	// message names it; empty, the message names the trace only.
	Replay string
	// Depart, when set, names a failing scenario's cause: the clauses of
	// the first step of its script that departed from the built-in runtime
	// around the reference (PropertyOptions.Depart).
	Depart func(newRuntime func() loop.Runtime, t loop.Trace) (clauses []string, note string, err error)
}

// Result is a finished run.
type Result struct {
	Identity loop.Identity
	Cases    []report.Case
	// Impl is the first failure of the runtime to run, if any.
	Impl error
}

// Scenarios lists the suite's scenarios without running them.
func Scenarios(tags string) ([]report.Case, error) { return features.SuiteScenarios(files, tags) }

// Run executes the scenarios against fresh runtimes.
func Run(ctx context.Context, o Options) (Result, error) {
	var res Result
	if o.NewRuntime == nil {
		return res, errors.New("suite.Run: NewRuntime is required")
	}
	refused := &writeRefusal{}
	var forCheck func(features.World, sim.Check)
	if o.RuntimeFor != nil {
		forCheck = func(w features.World, c sim.Check) {
			w.(*world).newRuntime = func() loop.Runtime { return o.RuntimeFor(c) }
		}
	}
	cases, implErr, err := features.RunSuite(ctx, features.SuiteOptions{
		FS: files, Selection: o.Selection, NotJudged: "not judged",
		Identify: func() (map[string]string, error) {
			id, op, err := identify(o.NewRuntime)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %v", features.ErrImpl, op, err)
			}
			res.Identity = id
			return id.Choices, nil
		},
		NewWorld: func() features.World { return newWorld(o.NewRuntime, o.CounterexampleDir, o.Replay, refused) },
		ForCheck: forCheck,
		Depart:   departFor(o.Depart),
	})
	res.Cases, res.Impl = cases, implErr
	if err == nil {
		// A failing scenario whose trace could not be written is still
		// reported failed; the run is an input error (exit 2).
		err = refused.first()
	}
	return res, err
}

// departFor replays a failing scenario's script with depart; nil without
// depart.
func departFor(depart func(func() loop.Runtime, loop.Trace) ([]string, string, error)) func(features.World) ([]string, string) {
	if depart == nil {
		return nil
	}
	return func(fw features.World) ([]string, string) {
		w, ok := fw.(*world)
		if !ok || w.session == nil {
			return nil, ""
		}
		cl, note, err := depart(w.newRuntime, w.Trace())
		if err != nil {
			return nil, ""
		}
		return cl, note
	}
}

// identify starts and stops one runtime to learn who it is; op names the
// call that failed.
func identify(newRuntime func() loop.Runtime) (id loop.Identity, op string, err error) {
	rt := newRuntime()
	if id, err = rt.Start(); err != nil {
		return id, "start", err
	}
	if err := rt.Stop(); err != nil {
		return id, "stop", err
	}
	return id, "", nil
}
