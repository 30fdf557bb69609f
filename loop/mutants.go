package loop

import (
	"slices"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// Mutant names one deliberate deviation of the built-in runtime's own
// loop from the specification, the way a runtime's loop (not its plan
// mode) might get a clause wrong. Reference mutants (package reference)
// deviate inside plan mode; these deviate in the loop around it. The
// runtime-level suite must kill every one.
type Mutant string

// The built-in runtime's mutants.
const (
	// HeaderOnChange logs request/header only when the header differs from
	// the last one logged, as the shipped dsh loop does.
	HeaderOnChange Mutant = "header-only-on-change"
)

// MutantInfo describes a runtime mutant: the clause it breaks and how.
type MutantInfo struct {
	Name   Mutant
	Clause string
	What   string
}

// Mutants lists every mutant of the built-in runtime, in a fixed order.
var Mutants = []MutantInfo{
	{HeaderOnChange, spec.STEP6, "request/header is logged only when the header changed, not for each request sent (the glossary's request header, which STEP-6 reads)"},
}

// LookupMutant returns the runtime mutant of that name, if there is one.
func LookupMutant(name string) (MutantInfo, bool) {
	i := slices.IndexFunc(Mutants, func(m MutantInfo) bool { return string(m.Name) == name })
	if i < 0 {
		return MutantInfo{}, false
	}
	return Mutants[i], true
}

// simOptions applies the mutants to the simulator's options.
func (ms mutantSet) simOptions(o *sim.Options) {
	if slices.Contains(ms, HeaderOnChange) {
		o.Headers = sim.HeadersOnChange
	}
}

// mutantSet is the runtime mutants a built-in runtime carries.
type mutantSet []Mutant
