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
	attempt := func(cand []T) (bool, error) {
		if budget <= 0 {
			return false, nil
		}
		budget--
		next, ok, err := try(cand)
		if err != nil || !ok {
			return false, err
		}
		seq = next
		return true, nil
	}
	for changed := true; changed && budget > 0; {
		changed = false
		for size := max(len(seq)/2, 1); size >= 1; size /= 2 {
			for i := 0; i+size <= len(seq); {
				cand := append(append([]T(nil), seq[:i]...), seq[i+size:]...)
				ok, err := attempt(cand)
				if err != nil {
					return seq, err
				}
				if ok {
					changed = true
					continue
				}
				i++
			}
			if size == 1 {
				break
			}
		}
		for i := 0; i < len(seq); i++ {
			for _, s := range simpler(seq[i]) {
				cand := append([]T(nil), seq...)
				cand[i] = s
				ok, err := attempt(cand)
				if err != nil {
					return seq, err
				}
				if ok {
					changed = true
					break
				}
			}
		}
	}
	return seq, nil
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
