// Package workers runs numbered tasks on a fixed number of goroutines and
// hands their completions back in number order, so that a caller merging
// results produces the same output for any number of workers.
package workers

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Default is the number of workers when none is asked for: the number of
// CPUs.
func Default() int { return runtime.NumCPU() }

// Run calls task(i) for every i in [0, n), starting them in increasing
// order on up to jobs goroutines, and calls done(i) on the calling
// goroutine, in increasing order, as soon as tasks 0..i have all returned.
// When done returns false, or ctx is cancelled, no further task starts;
// Run waits for the tasks already running and returns. It returns ctx's
// error if ctx was cancelled before every done(i) ran.
//
// With jobs <= 1 everything runs on the calling goroutine: task(0),
// done(0), task(1), done(1), … A task must not depend on another task's
// side effects; done may read what task i wrote (Run orders them).
func Run(ctx context.Context, jobs, n int, task func(i int), done func(i int) bool) error {
	if jobs <= 1 {
		for i := 0; i < n; i++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			task(i)
			if !done(i) {
				return nil
			}
		}
		return ctx.Err()
	}
	var (
		next     atomic.Int64
		stop     atomic.Bool
		wg       sync.WaitGroup
		finished = make(chan int, jobs)
	)
	for range min(jobs, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() && ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				task(i)
				finished <- i
			}
		}()
	}
	go func() {
		wg.Wait()
		close(finished)
	}()
	complete := make([]bool, n)
	cursor := 0
	for i := range finished {
		complete[i] = true
		for !stop.Load() && cursor < n && complete[cursor] {
			if ctx.Err() != nil {
				break
			}
			if !done(cursor) {
				stop.Store(true)
			}
			cursor++
		}
	}
	if cursor < n && !stop.Load() {
		return ctx.Err()
	}
	return nil
}
