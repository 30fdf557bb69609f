package conformance

import (
	"errors"
	"fmt"
	"os"

	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/report"
)

// ManifestFile reads the expected-failure manifest at path within lim,
// for Options.Manifest. With fix it also returns an
// Options.UpdateManifest that rewrites the file from the run's cases,
// calls wrote, and reads the rewritten file back for the run to apply;
// the file may then not exist yet (it starts empty).
func ManifestFile(path string, fix bool, lim inputlimit.Limits, wrote func()) (*report.Manifest, func([]report.Case) (*report.Manifest, error), error) {
	m, err := report.ReadManifestWithLimits(path, lim)
	if fix && errors.Is(err, os.ErrNotExist) {
		m, err = report.ParseManifest(path, nil)
	}
	if err != nil || !fix {
		return m, nil, err
	}
	return m, func(raw []report.Case) (*report.Manifest, error) {
		if err := atomicfile.Write(path, m.Fix(raw)); err != nil {
			return nil, err
		}
		wrote()
		return report.ReadManifestWithLimits(path, lim)
	}, nil
}

// Failure is why a run's report does not pass the gate.
type Failure struct {
	// Verdict is the report's verdict: fail, implementation error or
	// interrupted.
	Verdict string
	// Input says the run stopped on its input, not on the implementation:
	// a symbolic link planted where a counterexample goes.
	Input bool
	// Failed counts the failing checks; NotRun those an interruption kept
	// from running.
	Failed, NotRun int
	err            error
}

func (f *Failure) Error() string { return f.err.Error() }
func (f *Failure) Unwrap() error { return f.err }

// Gate is the verdict of a run's report as an error: nil when it passes,
// else a *Failure saying why.
func Gate(rep report.Run) error {
	if rep.Verdict == report.VerdictPass {
		return nil
	}
	f := &Failure{Verdict: rep.Verdict, err: errors.New(rep.Error)}
	for _, c := range rep.Cases {
		if c.Failing() {
			f.Failed++
		}
		if c.Status == report.NotRun {
			f.NotRun++
		}
	}
	switch {
	case rep.Verdict == report.VerdictFail && errors.Is(rep.Cause, atomicfile.ErrSymlink):
		f.Input, f.err = true, rep.Cause
	case rep.Verdict == report.VerdictInterrupted:
		f.err = fmt.Errorf("%s; %d checks not run", rep.Error, f.NotRun)
	case rep.Verdict == report.VerdictImpl && f.Failed > 0:
		// Both: the failures are listed in the report.
		f.err = fmt.Errorf("%s (and %d checks failed: see above)", rep.Error, f.Failed)
	}
	return f
}

// Size is how much a run with opts checks: its scenarios, and its
// properties (each run for opts.Checks cases), with the filters applied.
func Size(opts Options) (scenarios, properties int, err error) {
	suites, err := opts.validate()
	if err != nil {
		return 0, 0, err
	}
	for _, s := range suites {
		cases, err := s.List(opts.Tags)
		if err != nil {
			return 0, 0, err
		}
		if s.Name == Features {
			scenarios = len(cases)
		} else {
			properties = len(cases)
		}
	}
	return scenarios, properties, nil
}
