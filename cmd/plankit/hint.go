package main

import (
	"fmt"
	"io"

	"github.com/plankit/plankit/conformance"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// announce has check say, once the implementation has started, who it is
// checking against which suite, and for an adapter how long the run is.
// The flag it returns is set then: a run whose implementation never
// started prints no summary.
func announce(w io.Writer, o *checkOptions, opts *conformance.Options) *bool {
	started := new(bool)
	opts.Started = func(id sim.Identity) {
		*started = true
		fmt.Fprintf(w, "plankit check: %s %s (%s), suite %s, seed %d\n", safetext.Line(id.Name), safetext.Line(id.Version), safetext.Line(id.Language), spec.SuiteVersion, o.seed)
		printAdapterHint(w, o, *opts)
	}
	return started
}

// printAdapterHint tells the author of an adapter, as its check starts, how
// much work the run is and how to make it shorter. It depends only on the
// options, so the output stays deterministic.
func printAdapterHint(w io.Writer, o *checkOptions, opts conformance.Options) {
	if o.impl.adapter == "" {
		return
	}
	scenarios, props, _ := conformance.Size(opts)
	cases, each := props*o.checks, fmt.Sprintf("%d properties × %d cases", props, o.checks)
	if o.level.runtime() && props > 0 {
		// the focused runtime properties run a share of --checks
		cases = suite.PropertyScripts(o.checks)
		each = fmt.Sprintf("%d properties, %d cases in all", props, cases)
	}
	fmt.Fprintf(w, "plankit check: this run starts the adapter about %d times (%d scenarios, %s, plus restarts); "+
		"a full check with --checks 100 takes about a minute through a Go adapter and up to ten through a Node or Python one "+
		"(docs/performance.md). --checks 25 runs a quarter of the property cases; --only features or --tags select less.\n",
		scenarios+cases, scenarios, each)
}
