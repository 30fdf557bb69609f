package suite

import (
	"context"
	"fmt"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/sim"
)

// ExploreOptions configure Explore.
type ExploreOptions struct {
	NewRuntime func() loop.Runtime
	// Depth is the longest step sequence explored.
	Depth int
}

// ExploreResult is what Explore checked and the first violation found.
type ExploreResult struct {
	Alphabet, Sequences, Steps int
	// Violation is a shortest failing sequence, as a trace, or nil.
	Violation *loop.Trace
	Findings  []loop.Finding
}

// Explore runs every sequence of up to Depth steps of the step table's
// alphabet (loop.Alphabet), shortest first, each on a fresh runtime, and judges each with the expectations and
// invariants; it stops at the first violation.
func Explore(ctx context.Context, o ExploreOptions) (ExploreResult, error) {
	var res ExploreResult
	id, op, err := identify(o.NewRuntime)
	if err != nil {
		return res, &sim.ImplError{Op: op, Err: err}
	}
	base, alphabet := loop.Alphabet(id.Capabilities)
	res.Alphabet = len(alphabet)
	level := [][]int{{}}
	for d := 1; d <= o.Depth; d++ {
		var next [][]int
		for _, prefix := range level {
			for i := range alphabet {
				if err := ctx.Err(); err != nil {
					return res, err
				}
				seq := append(append([]int(nil), prefix...), i)
				t := base
				t.Name = fmt.Sprintf("explore depth %d: %v", d, seq)
				t.Steps = make([]loop.Step, len(seq))
				for j, k := range seq {
					t.Steps[j] = alphabet[k]
				}
				fs, skip, err := judge(o.NewRuntime, t)
				if err != nil {
					return res, err
				}
				res.Sequences++
				res.Steps += len(seq)
				if !skip && len(fs) > 0 {
					res.Violation, res.Findings = &t, fs
					return res, nil
				}
				next = append(next, seq)
			}
		}
		level = next
	}
	return res, nil
}
