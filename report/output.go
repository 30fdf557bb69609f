package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/safetext"
)

// Summary writes the console summary of a run: each failing and expected-
// failing check, the manifest findings, one line for the checks that could
// not be judged, the per-clause table, the counts, the run's error if any
// and the verdict. Text from the implementation is escaped.
func Summary(w io.Writer, r Run) error {
	var b strings.Builder
	b.WriteString("\n")
	errored, firstError := 0, ""
	for _, c := range r.Cases {
		switch c.Status {
		case Failed, UnexpectedPass:
			fmt.Fprintf(&b, "FAIL %s [%s] %s\n", c.ID, strings.Join(c.FailedClauses(), " "), safetext.Line(c.Message))
		case ExpectedFailed:
			fmt.Fprintf(&b, "XFAIL %s [%s] %s\n", c.ID, strings.Join(c.FailedClauses(), " "), safetext.Line(c.Message))
		case Errored:
			if errored == 0 {
				firstError = c.ID
			}
			errored++
		}
	}
	if errored > 0 {
		// One line, not one per check: they share the cause, the error below.
		fmt.Fprintf(&b, "ERROR %d checks not judged: the implementation could not be run (first: %s)\n", errored, firstError)
	}
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "MANIFEST %s\n", safetext.Line(f))
	}
	counts := map[string]int{}
	for _, c := range r.Cases {
		counts[c.Status]++
	}
	b.WriteString("\n")
	if err := WriteTable(&b, r.Clauses); err != nil {
		return err
	}
	fmt.Fprintf(&b, "\n%d checks: %d passed, %d failed, %d expected-failed, %d unexpected-pass, %d skipped",
		len(r.Cases), counts[Passed], counts[Failed], counts[ExpectedFailed], counts[UnexpectedPass], counts[Skipped])
	if counts[Errored]+counts[NotRun] > 0 {
		fmt.Fprintf(&b, ", %d error, %d not run", counts[Errored], counts[NotRun])
	}
	b.WriteString("\n")
	if r.Error != "" {
		fmt.Fprintf(&b, "error: %s\n", safetext.Line(r.Error))
	}
	fmt.Fprintf(&b, "verdict: %s (seed %d)\n", r.Verdict, r.Seed)
	_, err := io.WriteString(w, b.String())
	return err
}

// Files names the report files a run writes; an empty path is not written.
// Every file passes through safetext.Bytes on its way out: the JSON and
// cucumber JSON keep their data (the escapes are JSON's own), and no raw
// control, bidirectional or invisible character or CI marker from an
// implementation's text reaches a file a CI job may print.
type Files struct {
	JUnit, Cucumber, JSON string
}

// Write renders the run in each format asked for and writes each file
// atomically. It writes what it can and returns the first error.
func (f Files) Write(r Run) error {
	var first error
	for _, w := range []struct {
		path   string
		render func(Run) ([]byte, error)
	}{{f.JUnit, JUnit}, {f.Cucumber, Cucumber}, {f.JSON, JSON}} {
		if w.path == "" {
			continue
		}
		data, err := w.render(r)
		if err == nil {
			err = atomicfile.Write(w.path, safetext.Bytes(data))
		}
		if first == nil {
			first = err
		}
	}
	return first
}
