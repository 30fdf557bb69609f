package adapter_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/plankit/plankit/adapter"
)

// TestStartTimeout: the handshake has its own, more generous timeout, so an
// adapter whose runtime boots slowly is not taken for a hung one; past it,
// the error names --start-timeout.
func TestStartTimeout(t *testing.T) {
	bin := fakeBin(t)
	slowStart := []string{bin, "slow", adapter.MethodStart}
	pool := newPool(t, adapter.Options{Command: slowStart, Timeout: time.Second, StartTimeout: 30 * time.Second, NoSpare: true})
	p := pool.Port()
	if _, err := p.Start(); err != nil {
		t.Fatalf("a start slower than --timeout but within --start-timeout failed: %v", err)
	}
	p.Stop()

	pool = newPool(t, adapter.Options{Command: slowStart, Timeout: time.Second, StartTimeout: time.Second, NoSpare: true})
	_, err := pool.Port().Start()
	var re *adapter.RequestError
	if !errors.As(err, &re) || re.Kind != adapter.KindTimeout || !strings.Contains(err.Error(), "--start-timeout") {
		t.Fatalf("a start past --start-timeout: %v", err)
	}
}
