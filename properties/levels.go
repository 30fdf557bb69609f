package properties

import (
	"context"
	"slices"

	"github.com/plankit/plankit/internal/workers"
	"github.com/plankit/plankit/sim"
)

// Levels walks, breadth first up to depth, the abstract states the model
// reaches from start by the alphabet's valid actions, merging sequences
// that reach the same state (Model.Key). Every (state, action) pair of a
// level is run by run, told the state's prefix and the action, on jobs
// workers; judge then takes the outcomes in order and returns the model
// the pair reached (nil: none, as for an action the implementation does not
// support, which is not explored further), or false to stop the walk. The walk, the states
// counted and where it stops are therefore the same for any number of
// workers. It returns the number of distinct states seen, start
// included. A prefix is shared by the pairs of its state and their
// workers: run and judge read it and must not change it (it is clipped, so
// an append copies).
func Levels[O any](ctx context.Context, jobs, depth int, start *Model, alphabet []sim.Action,
	run func(prefix []sim.Action, act sim.Action) O,
	judge func(prefix []sim.Action, act sim.Action, o O) (*Model, bool)) (int, error) {
	type node struct {
		prefix []sim.Action
		model  *Model
	}
	type pair struct {
		from *node
		act  sim.Action
	}
	seen := map[string]bool{start.Key(): true}
	frontier := []node{{model: start}}
	for d := 0; d < depth && len(frontier) > 0; d++ {
		var pairs []pair
		for i := range frontier {
			n := &frontier[i]
			for _, act := range alphabet {
				if n.model.Valid(act) {
					pairs = append(pairs, pair{n, act})
				}
			}
		}
		outs := make([]O, len(pairs))
		var next []node
		stopped := false
		err := workers.Run(ctx, jobs, len(pairs), func(i int) {
			outs[i] = run(slices.Clip(pairs[i].from.prefix), pairs[i].act)
		}, func(i int) bool {
			p, o := pairs[i], outs[i]
			var none O
			outs[i] = none // what a pair found is not kept past its judgement
			m, more := judge(slices.Clip(p.from.prefix), p.act, o)
			if !more {
				stopped = true
				return false
			}
			if m == nil {
				return true
			}
			if key := m.Key(); !seen[key] {
				seen[key] = true
				next = append(next, node{prefix: append(slices.Clone(p.from.prefix), p.act), model: m})
			}
			return true
		})
		if err != nil || stopped {
			return len(seen), err
		}
		frontier = next
	}
	return len(seen), nil
}
