package adapter_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/features"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

// An implementation of minor 1 declares no reviewReplies: the scenarios
// that script the seam's reply or failure are skipped, naming the
// capability, never failed; the rest of the EXIT scenarios run.
func TestOlderMinorSkipsReviewReplies(t *testing.T) {
	pool := newPool(t, adapter.Options{Command: []string{fakeBin(t), "minor1", "start"}, Timeout: 10 * time.Second})
	res, err := features.Run(context.Background(), features.Options{NewPort: func() sim.Port { return pool.Port() }, Selection: features.Selection{Tags: "@EXIT-6,@EXIT-7"}})
	if err != nil {
		t.Fatal(err)
	}
	skipped, passed := 0, 0
	for _, c := range res.Cases {
		switch {
		case c.Status == report.Skipped && strings.Contains(c.Message, "reviewReplies"):
			skipped++
			if !strings.HasPrefix(c.ID, "exit-reply-") && !strings.HasPrefix(c.ID, "exit-seam-fails") && c.ID != "exit-review-aborted" {
				t.Errorf("%s skipped for reviewReplies: %s", c.ID, c.Message)
			}
		case c.Status == report.Passed:
			passed++
		default:
			t.Errorf("%s: %s: %s", c.ID, c.Status, c.Message)
		}
	}
	if skipped < 8 || passed < 10 {
		t.Errorf("%d skipped for reviewReplies, %d passed; want the reply scenarios skipped and the others passed", skipped, passed)
	}
}
