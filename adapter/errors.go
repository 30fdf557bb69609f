package adapter

import (
	"fmt"

	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/sim"
)

// quoteLimit is how much of an offending line an error quotes.
const quoteLimit = 240

// RequestError is a failure of one request: the adapter hung, exited,
// broke the protocol or reported an error. It names the request; Kind says
// which failure it was.
type RequestError struct {
	Method string
	Seq    int
	Kind   string // one of the Kind* constants
	Detail string
}

// Kinds of request failures.
const (
	KindTimeout  = "timeout"  // no reply within the request timeout
	KindExited   = "exited"   // the process ended before replying
	KindProtocol = "protocol" // the reply broke the protocol
	KindReported = "reported" // the implementation replied with an error
	// KindException: a reply says the implementation threw inside a
	// handler and the host caught it (plugin protocol minor 3, runtime
	// protocol minor 4).
	KindException = "exception"
	KindIO        = "io" // the request could not be written
)

func (e *RequestError) Error() string {
	return safetext.Line(fmt.Sprintf("adapter request seq %d %q: %s", e.Seq, e.Method, e.Detail))
}

// UnsupportedError is an "unsupported" reply: the implementation does not
// support the request's method or feature. Suites report it as skipped.
type UnsupportedError struct {
	Method  string
	Seq     int
	Message string
}

// Is makes an unsupported reply match sim.ErrUnsupported.
func (e *UnsupportedError) Is(target error) bool { return target == sim.ErrUnsupported }

func (e *UnsupportedError) Error() string {
	return safetext.Line(fmt.Sprintf("adapter request seq %d %q: unsupported by the implementation: %s", e.Seq, e.Method, e.Message))
}

// StartError is an adapter that could not be started or whose restart
// budget is spent.
type StartError struct {
	Command string
	Detail  string
}

func (e *StartError) Error() string {
	return safetext.Line(fmt.Sprintf("adapter %s: %s", e.Command, e.Detail))
}

// Error messages carry text from the adapter (its replies, its stderr,
// its own error messages); every one is escaped with package safetext so
// that it is safe on a terminal and in a report.

// quote returns a line for an error message, cut at quoteLimit bytes and
// escaped.
func quote(line []byte) string {
	if len(line) <= quoteLimit {
		return safetext.Line(string(line))
	}
	return fmt.Sprintf("%s... (%d bytes)", safetext.Line(string(line[:quoteLimit])), len(line))
}
