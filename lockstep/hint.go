package lockstep

import "sync"

// readingHint remembers which reading of a search last agreed with the
// implementation, so that the next sequence tries it first: an
// implementation speaks in one voice, so the reading that explained one
// sequence mostly explains the next. A search's workers and copies share
// one; a nil hint remembers nothing. Which reading is tried first changes
// only what a search costs, never what it finds (the searches look for
// any agreeing reading, and judge ties and errors in the readings' order).
type readingHint[K comparable] struct {
	mu    sync.Mutex
	last  K
	noted bool
}

// first is the indices of keys, the one that agreed last first and the
// others in their order.
func (h *readingHint[K]) first(keys []K) []int {
	order := make([]int, len(keys))
	for j := range order {
		order[j] = j
	}
	if h == nil {
		return order
	}
	h.mu.Lock()
	last, noted := h.last, h.noted
	h.mu.Unlock()
	for i, k := range keys {
		if noted && k == last && i > 0 {
			return append(append([]int{i}, order[:i]...), order[i+1:]...)
		}
	}
	return order
}

// note remembers k as the reading that agreed last.
func (h *readingHint[K]) note(k K) {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.last, h.noted = k, true
	h.mu.Unlock()
}
