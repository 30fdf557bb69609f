package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/plankit/plankit/conformance"
	"github.com/plankit/plankit/report"
)

// Exit codes shared by every command.
const (
	ExitPass  = 0 // everything held
	ExitFail  = 1 // a check or expectation failed
	ExitUsage = 2 // usage or input error
	ExitImpl  = 3 // the implementation or adapter could not be run
	// ExitInterrupted: a SIGINT or SIGTERM stopped the run before its
	// verdict. It is ExitImpl's code: like an implementation that could not
	// be run, an interrupted run says nothing about conformance (1 would
	// claim a failure, 2 would blame the input), and the response is the
	// same: look at the cause, run again. Reports say which it was.
	ExitInterrupted = ExitImpl
)

// exitError carries an exit code out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErr(format string, args ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, args...)}
}

func withCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

func codeOf(err error) int {
	if err == nil {
		return ExitPass
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return ExitUsage // cobra's own flag and argument errors
}

// gateExit gives a conformance run's gate (conformance.Gate) its exit code:
// an input error for a run its input stopped, the interruption (a signal,
// when ctx was cancelled by one) for a run cut short, the implementation
// for one it broke, a failure otherwise.
func gateExit(ctx context.Context, err error) error {
	var f *conformance.Failure
	switch {
	case !errors.As(err, &f):
		return err
	case f.Input:
		return withCode(ExitUsage, err)
	case f.Verdict == report.VerdictInterrupted:
		if ie := interruption(ctx); ie != nil {
			return interrupted(ie, "%d checks not run", f.NotRun)
		}
		return withCode(ExitInterrupted, err)
	case f.Verdict == report.VerdictImpl:
		return withCode(ExitImpl, err)
	}
	return withCode(ExitFail, err)
}
