package main

import (
	"fmt"
	"io"

	"github.com/plankit/plankit/conformance"
)

// printAdapterHint tells the author of an adapter, as its check starts, how
// much work the run is and how to make it shorter. It depends only on the
// options, so the output stays deterministic.
func printAdapterHint(w io.Writer, o *checkOptions, opts conformance.Options) {
	if o.impl.adapter == "" {
		return
	}
	scenarios, props, _ := conformance.Size(opts)
	fmt.Fprintf(w, "plankit check: this run starts the adapter about %d times (%d scenarios, %d properties × %d cases, plus restarts); "+
		"a full check with --checks 100 takes about a minute through a Go adapter and up to ten through a Node or Python one "+
		"(docs/performance.md). --checks 25 runs a quarter of the property cases; --only features or --tags select less.\n",
		scenarios+props*o.checks, scenarios, props, o.checks)
}
