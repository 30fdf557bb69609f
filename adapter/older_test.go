package adapter_test

import (
	"context"
	"testing"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/features"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

// TestOlderAdapterSkipsHostToolsAndEmptySteps: an adapter of an older
// minor version (the fake adapter declares neither hostTools nor
// emptySteps) is never sent the host's tools or skipsEmpty; the scenarios
// that need them are skipped, never failed or passed.
func TestOlderAdapterSkipsHostToolsAndEmptySteps(t *testing.T) {
	pool := newPool(t, adapter.Options{Command: []string{fakeBin(t), "ok", "none"}})
	ids := "@id:exit-catalog-host-tools-across-flips,@id:svc-host-tools-run-in-any-mode,@id:pend-notice-never-starts-a-skipped-step,@id:step-continuation-with-nothing-claimed"
	res, err := features.Run(context.Background(), features.Options{NewPort: func() sim.Port { return pool.Port() }, Selection: features.Selection{Tags: ids}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cases) < 4 {
		t.Fatalf("ran %d scenarios, want the 4 tagged (and the outline's rows)", len(res.Cases))
	}
	for _, c := range res.Cases {
		if c.Status != report.Skipped {
			t.Errorf("%s: %s (%s), want skipped", c.ID, c.Status, c.Message)
		}
	}
}
