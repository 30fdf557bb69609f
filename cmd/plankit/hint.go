package main

import (
	"fmt"
	"io"

	"github.com/plankit/plankit/features"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/report"
)

// printAdapterHint tells the author of an adapter, as its check starts, how
// much work the run is and how to make it shorter. It depends only on the
// options, so the output stays deterministic.
func printAdapterHint(w io.Writer, o *checkOptions) {
	if o.impl.adapter == "" {
		return
	}
	// The level's suites: the plugin level's features and properties, or
	// the runtime level's scenarios and properties.
	listScenarios := features.Scenarios
	props := len(properties.Catalog())
	if o.level.runtime() {
		listScenarios = func(tags string) ([]report.Case, error) { return suite.Scenarios(tags) }
		props = len(suite.PropertyCases())
	}
	scenarios := 0
	if o.only != "properties" {
		if cases, err := listScenarios(o.tags); err == nil {
			scenarios = len(cases)
		}
	}
	if o.only == "features" || o.tags != "" {
		props = 0
	}
	starts := scenarios + props*o.checks
	fmt.Fprintf(w, "plankit check: this run starts the adapter about %d times (%d scenarios, %d properties × %d cases, plus restarts); "+
		"a full check with --checks 100 takes about a minute through a Go adapter and up to ten through a Node or Python one "+
		"(docs/performance.md). --checks 25 runs a quarter of the property cases; --only features or --tags select less.\n",
		starts, scenarios, props, o.checks)
}
