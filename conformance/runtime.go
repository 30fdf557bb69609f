package conformance

import (
	"context"
	"fmt"

	"github.com/plankit/plankit/features"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

// runtimeSuites are the suites of the runtime level: the @runtime
// scenarios, then the properties over generated runtime scripts;
// runtimeFor, when not nil, builds each check's runtime.
func runtimeSuites(newRuntime func() loop.Runtime, runtimeFor func(sim.Check) loop.Runtime) []Suite {
	return []Suite{
		{Name: Features, Run: func(ctx context.Context, o Options) ([]report.Case, error) {
			res, err := suite.Run(ctx, suite.Options{NewRuntime: newRuntime, RuntimeFor: runtimeFor, CounterexampleDir: o.CounterexampleDir, Replay: o.Replay, Selection: features.Selection{Tags: o.Tags, Seed: o.Seed, Output: o.Output, Format: o.Format}, Depart: runtimeDepart(o.Assume)})
			if err != nil {
				// The cases judged stay listed (a scenario whose trace could
				// not be written is failed, the run an input error).
				return res.Cases, err
			}
			return res.Cases, res.Impl
		}, List: suite.Scenarios},
		{Name: Properties, Run: func(ctx context.Context, o Options) ([]report.Case, error) {
			return suite.Properties(ctx, suite.PropertyOptions{NewRuntime: newRuntime, RuntimeFor: runtimeFor, Seed: o.Seed, Checks: o.Checks, CounterexampleDir: o.CounterexampleDir, Replay: o.Replay, Output: o.Output, Depart: runtimeDepart(o.Assume)})
		}, List: func(string) ([]report.Case, error) { return suite.PropertyCases(), nil }},
	}
}

// probeRuntime starts and stops one runtime to learn who it is.
func probeRuntime(newRuntime func() loop.Runtime) (sim.Identity, error) {
	rt := newRuntime()
	id, err := rt.Start()
	if err != nil {
		return sim.Identity{}, fmt.Errorf("the runtime could not be started: %w", err)
	}
	if err := rt.Stop(); err != nil {
		return identityOf(id), fmt.Errorf("the runtime could not be stopped: %w", err)
	}
	return identityOf(id), nil
}

// identityOf is a runtime's identity as reports show an implementation.
func identityOf(id loop.Identity) sim.Identity {
	return sim.Identity{Name: id.Name, Version: id.Version, Language: id.Language, Choices: id.Choices, Components: id.Components}
}
