package shrinker

import (
	"errors"
	"slices"
	"testing"
)

// fails when the sequence holds a 3 and, later, a 7 or more.
func failing(xs []int) bool {
	i := slices.Index(xs, 3)
	return i >= 0 && slices.ContainsFunc(xs[i+1:], func(x int) bool { return x >= 7 })
}

func TestSequenceFindsTheSmallestFailure(t *testing.T) {
	seq := []int{1, 9, 3, 4, 5, 8, 2, 6, 9, 0}
	tries := 0
	got, err := Sequence(seq, 1000, func(c []int) ([]int, bool, error) {
		tries++
		return c, failing(c), nil
	}, func(x int) []int {
		if x > 7 {
			return []int{x - 1}
		}
		return nil
	})
	if err != nil || !slices.Equal(got, []int{3, 7}) {
		t.Fatalf("got %v, %v after %d tries; want [3 7]", got, err, tries)
	}
}

func TestSequenceKeepsToTheBudgetAndStopsAtAnError(t *testing.T) {
	seq := []int{3, 1, 1, 1, 1, 1, 1, 7}
	tries := 0
	got, _ := Sequence(seq, 2, func(c []int) ([]int, bool, error) {
		tries++
		return c, failing(c), nil
	}, func(int) []int { return nil })
	if tries != 2 || !failing(got) {
		t.Fatalf("%d tries, got %v: want 2 tries and a failing sequence", tries, got)
	}
	boom := errors.New("boom")
	got, err := Sequence(seq, 100, func(c []int) ([]int, bool, error) {
		if len(c) < 6 {
			return nil, false, boom
		}
		return c, failing(c), nil
	}, func(int) []int { return nil })
	if !errors.Is(err, boom) || len(got) < 6 || !failing(got) {
		t.Fatalf("got %v, %v: want the last failing sequence and the error", got, err)
	}
}

// A try may answer with a shorter sequence than the candidate (the part a
// run needed to fail); shrinking goes on from it.
func TestSequenceGoesOnFromWhatTryReturns(t *testing.T) {
	got, err := Sequence([]int{0, 3, 0, 7, 0, 0}, 100, func(c []int) ([]int, bool, error) {
		i := slices.Index(c, 3)
		j := slices.Index(c, 7)
		if i < 0 || j < i {
			return nil, false, nil
		}
		return c[:j+1], true, nil
	}, func(int) []int { return nil })
	if err != nil || !slices.Equal(got, []int{3, 7}) {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestGreedyTakesTheFirstSmallerFailure(t *testing.T) {
	// x fails while it is a multiple of 3; smaller proposes x-1 and x/2.
	got, err := Greedy(96, func(x int) []int { return []int{x - 1, x / 2} }, func(x int) (bool, error) {
		return x > 0 && x%3 == 0, nil
	})
	if err != nil || got != 3 {
		t.Fatalf("got %d, %v; want 3", got, err)
	}
	boom := errors.New("boom")
	got, err = Greedy(96, func(x int) []int { return []int{x / 2} }, func(x int) (bool, error) {
		if x < 20 {
			return false, boom
		}
		return true, nil
	})
	if !errors.Is(err, boom) || got != 24 {
		t.Fatalf("got %d, %v; want 24 and the error", got, err)
	}
}
