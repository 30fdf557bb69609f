package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// Interruption. Every command runs under a context that the first SIGINT
// or SIGTERM cancels, with an *interruptError as its cause. Then, at once:
// every adapter process group is ended (SIGTERM, SIGKILL after the grace
// period), so a request waiting on an adapter fails immediately; the
// command sees the cancelled context, stops, writes what it computed
// (reports say the run was interrupted) and returns. A command that has
// not returned windDown after the signal, or a second signal, ends
// plankit at once. Whatever the command returns, an interrupted run exits
// with ExitInterrupted.

// interruptSignals interrupt a run.
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// windDown is how long a command has, after the signal, to write its
// reports and return.
const windDown = 10 * time.Second

// interruptError is the cause of an interrupted command's context.
type interruptError struct{ sig os.Signal }

func (e *interruptError) Error() string {
	return "the run was interrupted by " + signalName(e.sig)
}

func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// interruption returns the interruption that cancelled ctx, or nil.
func interruption(ctx context.Context) *interruptError {
	var ie *interruptError
	if ctx != nil && errors.As(context.Cause(ctx), &ie) {
		return ie
	}
	return nil
}

// interrupted wraps an interruption for a command to return, with what
// the command managed to do first.
func interrupted(ie *interruptError, format string, args ...any) error {
	err := error(ie)
	if format != "" {
		err = fmt.Errorf("%w; %s", ie, fmt.Sprintf(format, args...))
	}
	return &exitError{code: ExitInterrupted, err: err}
}

// catchSignals returns the context commands run under and a function
// that stops catching signals, waiting for adapters being ended; a signal
// ends the pools' processes.
func catchSignals(stderr io.Writer, pools *poolSet) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, interruptSignals...)
	done := make(chan struct{})
	var aborting sync.WaitGroup
	var watcher sync.WaitGroup
	watcher.Add(1)
	go func() {
		defer watcher.Done()
		var sig os.Signal
		select {
		case sig = <-ch:
		case <-done:
			return
		}
		cancel(&interruptError{sig: sig})
		fmt.Fprintf(stderr, "plankit: %s: stopping (ending adapter processes, writing reports)\n", signalName(sig))
		aborting.Add(1)
		go func() {
			defer aborting.Done()
			pools.abortAll()
		}()
		select {
		case <-done:
			return
		case sig = <-ch:
			fmt.Fprintf(stderr, "plankit: second signal (%s): exiting at once\n", signalName(sig))
		case <-time.After(windDown):
			fmt.Fprintf(stderr, "plankit: still running %v after %s: exiting at once\n", windDown, signalName(sig))
		}
		pools.killAll()
		os.Exit(ExitInterrupted)
	}()
	return ctx, func() {
		close(done)
		watcher.Wait()
		signal.Stop(ch)
		aborting.Wait()
		cancel(nil)
	}
}
