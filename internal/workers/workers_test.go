package workers

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
)

// done sees every index in order, after its task, for any number of
// workers.
func TestRunOrder(t *testing.T) {
	for _, jobs := range []int{1, 2, 4, 16} {
		n := 200
		ran := make([]bool, n)
		var order []int
		err := Run(context.Background(), jobs, n, func(i int) { ran[i] = true }, func(i int) bool {
			if !ran[i] {
				t.Errorf("jobs %d: done(%d) before its task", jobs, i)
			}
			order = append(order, i)
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		if !slices.Equal(order, want) {
			t.Errorf("jobs %d: done order %v", jobs, order)
		}
	}
}

// When done returns false no later done runs and no new task starts
// (beyond those already running).
func TestRunStop(t *testing.T) {
	for _, jobs := range []int{1, 4} {
		var started atomic.Int64
		var dones []int
		var atStop int64
		err := Run(context.Background(), jobs, 1000, func(int) { started.Add(1) }, func(i int) bool {
			dones = append(dones, i)
			if i == 10 {
				atStop = started.Load()
			}
			return i < 10
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(dones) != 11 || dones[10] != 10 {
			t.Errorf("jobs %d: dones %v, want 0..10", jobs, dones)
		}
		// Workers may run ahead of done while it waits for a slow task;
		// once done says stop, each worker starts at most the task it had
		// already taken.
		if s := started.Load(); s > atStop+int64(jobs) {
			t.Errorf("jobs %d: %d tasks started after the stop at 10 (%d before it)", jobs, s-atStop, atStop)
		}
	}
}

// A cancelled context stops the run with its error.
func TestRunCancel(t *testing.T) {
	for _, jobs := range []int{1, 4} {
		ctx, cancel := context.WithCancel(context.Background())
		var dones int
		err := Run(ctx, jobs, 1000, func(i int) {
			if i == 5 {
				cancel()
			}
		}, func(int) bool { dones++; return true })
		if err == nil {
			t.Errorf("jobs %d: no error after cancel", jobs)
		}
		if dones >= 1000 {
			t.Errorf("jobs %d: every done ran after cancel", jobs)
		}
	}
}
