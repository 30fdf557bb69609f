// Package shrinker makes a failing input smaller while it still fails: the
// one shrinking loop of plankit's searches (properties, lockstep, the
// runtime-level properties).
package shrinker

// Sequence shrinks seq, a sequence that fails: it removes runs of halving
// length, then replaces single elements by the simpler ones simpler
// proposes, and goes round again while something changed and the budget
// lasts. try runs a candidate, at most budget times in all; when the
// candidate still fails it returns ok and the sequence to go on from (the
// candidate, or the part of it a run needed to fail). An error from try
// ends the shrinking; Sequence returns the smallest failing sequence so
// far with it.
func Sequence[T any](seq []T, budget int, try func([]T) (next []T, ok bool, err error), simpler func(T) []T) ([]T, error) {
	var err error
	changed := true
	// improves runs a candidate while the budget lasts and no run failed,
	// and goes on from it when it still fails.
	improves := func(cand []T) bool {
		if budget <= 0 || err != nil {
			return false
		}
		budget--
		next, ok, e := try(cand)
		if e != nil || !ok {
			err = e
			return false
		}
		seq, changed = next, true
		return true
	}
	for changed && budget > 0 && err == nil {
		changed = false
		for size := max(len(seq)/2, 1); size >= 1; size /= 2 {
			for i := 0; i+size <= len(seq); {
				if !improves(append(append([]T(nil), seq[:i]...), seq[i+size:]...)) {
					i++
				}
			}
			if size == 1 {
				break
			}
		}
		for i := 0; i < len(seq); i++ {
			for _, s := range simpler(seq[i]) {
				cand := append([]T(nil), seq...)
				cand[i] = s
				if improves(cand) {
					break
				}
			}
		}
	}
	return seq, err
}

// Greedy shrinks x, an input that fails: it takes the first of smaller(x)
// that still fails and starts again from it, until none does. fails runs a
// candidate; an error from it ends the shrinking, and Greedy returns the
// smallest failing input so far with it.
func Greedy[T any](x T, smaller func(T) []T, fails func(T) (bool, error)) (T, error) {
	for {
		improved := false
		for _, cand := range smaller(x) {
			ok, err := fails(cand)
			if err != nil {
				return x, err
			}
			if ok {
				x, improved = cand, true
				break
			}
		}
		if !improved {
			return x, nil
		}
	}
}
