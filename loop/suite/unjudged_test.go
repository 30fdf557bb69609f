package suite_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/plankit/plankit/features"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
)

// breaking is a runtime that works until its turns counter reaches
// after (shared by every instance, as a crashing runtime's requests),
// then fails every turn; failStart fails its start instead. onBreak, when
// set, is called at the first failure (a test cancels its run there).
type breaking struct {
	loop.Runtime
	turns     *atomic.Int64
	after     int64
	failStart bool
	onBreak   func()
}

var errCrashed = errors.New("the runtime process exited (exit status 7)")

func (b *breaking) Start() (loop.Identity, error) {
	if b.failStart {
		return loop.Identity{}, errCrashed
	}
	return b.Runtime.Start()
}

func (b *breaking) Turn(req loop.TurnRequest) (loop.Observation, error) {
	if n := b.turns.Add(1); n > b.after {
		if n == b.after+1 && b.onBreak != nil {
			b.onBreak()
		}
		return loop.Observation{}, errCrashed
	}
	return b.Runtime.Turn(req)
}

func breakingAfter(after int64, failStart bool, onBreak func()) func() loop.Runtime {
	var turns atomic.Int64
	return func() loop.Runtime {
		return &breaking{Runtime: builtin(loop.RetryPreStep)(), turns: &turns, after: after, failStart: failStart, onBreak: onBreak}
	}
}

// A property the runtime's failure kept from being judged is listed as an
// error, and the error is the implementation's (exit 3), never missing
// and never a failure; one an interruption kept from being judged is
// not-run, with no error.
func TestPropertiesNotJudgedAreListed(t *testing.T) {
	one := func(t *testing.T, cases []report.Case, status string) {
		t.Helper()
		if len(cases) != len(suite.PropertyCases()) || len(cases) == 0 {
			t.Fatalf("%d cases, want every property (%d)", len(cases), len(suite.PropertyCases()))
		}
		for _, c := range cases {
			if c.Status != status {
				t.Errorf("%s: %s (%s), want %s", c.ID, c.Status, c.Message, status)
			}
		}
	}
	var ie *sim.ImplError
	t.Run("the runtime crashes midway", func(t *testing.T) {
		cases, err := suite.Properties(context.Background(), suite.PropertyOptions{NewRuntime: breakingAfter(4, false, nil), Seed: 1, Checks: 50})
		if !errors.As(err, &ie) || !errors.Is(err, errCrashed) {
			t.Fatalf("error %v, want an implementation error wrapping the crash", err)
		}
		one(t, cases, report.Errored)
	})
	t.Run("the runtime cannot be started", func(t *testing.T) {
		cases, err := suite.Properties(context.Background(), suite.PropertyOptions{NewRuntime: breakingAfter(0, true, nil), Seed: 1, Checks: 5})
		if !errors.As(err, &ie) {
			t.Fatalf("error %v, want an implementation error", err)
		}
		one(t, cases, report.Errored)
	})
	t.Run("interrupted midway", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cases, err := suite.Properties(ctx, suite.PropertyOptions{NewRuntime: breakingAfter(4, false, cancel), Seed: 1, Checks: 50})
		if err != nil {
			t.Fatalf("error %v, want none: the run was interrupted", err)
		}
		one(t, cases, report.NotRun)
	})
	t.Run("interrupted before the runtime started", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		cases, err := suite.Properties(ctx, suite.PropertyOptions{NewRuntime: breakingAfter(0, true, nil), Seed: 1, Checks: 5})
		if err != nil {
			t.Fatalf("error %v, want none: the run was interrupted", err)
		}
		one(t, cases, report.NotRun)
	})
	t.Run("the scenarios are listed when the runtime cannot be started", func(t *testing.T) {
		res, err := suite.Run(context.Background(), suite.Options{NewRuntime: breakingAfter(0, true, nil), Selection: features.Selection{Tags: "@PEND-8"}})
		if err != nil || res.Impl == nil {
			t.Fatalf("error %v, implementation error %v: want the latter", err, res.Impl)
		}
		want, _ := suite.Scenarios("@PEND-8")
		if len(res.Cases) != len(want) || len(want) == 0 {
			t.Fatalf("%d cases, want the %d scenarios", len(res.Cases), len(want))
		}
		for _, c := range res.Cases {
			if c.Status != report.Errored {
				t.Errorf("%s: %s, want %s", c.ID, c.Status, report.Errored)
			}
		}
	})
}
