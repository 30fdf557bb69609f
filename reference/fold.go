package reference

import (
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// FoldPlanMode returns the active flag of the last plan/mode event among
// events[0:end) and false when there is none (LOG-2). end is clamped into
// [0, len(events)] (choice fold-end=clamp): beyond the log folds the whole
// log, negative folds nothing. A plan/mode's data is read as choice
// plan-mode-data=fold-active reads it: a boolean active folds, whatever
// other fields the data has; data with no boolean active changes nothing
// (plan-mode-malformed=keep, as the reference reads its default either).
func FoldPlanMode(events []sim.Event, end int) bool {
	return fold(events, end, spec.PlanModeReading{}, nil)
}

// fold is FoldPlanMode with the folds hook: whether a plan/mode event
// replaces the folded value, given whether one was folded before (every
// one does: the last wins).
func fold(events []sim.Event, end int, reading spec.PlanModeReading, folds bend[bool, bool]) bool {
	end = min(max(end, 0), len(events))
	active, seen := false, false
	for _, e := range events[:end] {
		if e.Type != spec.TypePlanMode {
			continue
		}
		if v, ok := reading.Read(e.Data); ok && folds.at(seen, true) {
			active, seen = v, true
		}
	}
	return active
}

// SliceEnd is the end events.slice(0, end) uses (choice fold-end=slice): a
// negative end counts from the log's end, and the result is clamped into
// [0, n].
func SliceEnd(end, n int) int {
	if end < 0 {
		end += n
	}
	return min(max(end, 0), n)
}

// session is one agent's log as this process sees it, kept as the folds
// the hot path needs, maintained as events arrive, so no operation rescans
// the log (LOG-3: the cache is a function of the log and nothing else).
// The events themselves are not kept: nothing reads them again.
type session struct {
	// n is the log's length: the seq the next event must have.
	n int
	// active is fold(log, len(log)) under the session's reading and hook.
	active bool
	// open reports a turn/start with no later turn/end.
	open bool
	// header is the fold at the last request/header; nil before the first.
	header *bool
	// plain is FoldPlanMode(log, len(log)), every plan/mode event folded
	// as the default reading reads it, and plainHeaders its value at the
	// last two request/headers ([1] the last; nil before there is one):
	// the mutant retry-ignores-failed-header takes plainHeaders[0] for the
	// last header the model saw, skipping the failed request's.
	plain        bool
	plainHeaders [2]*bool
	// folds is the fold's hook (see fold); seen says a plan/mode was folded.
	folds bend[bool, bool]
	seen  bool
	// reading is the declared values of choices plan-mode-data and
	// plan-mode-malformed; unloadedHeader the value of unloaded-header.
	reading        spec.PlanModeReading
	unloadedHeader string
}

// add appends e to the log and folds it.
func (s *session) add(e sim.Event) { s.log(e, true) }

// log appends e to the log; fold says whether the session's fold reads a
// plan/mode event (another writer's may be logged but not folded).
func (s *session) log(e sim.Event, fold bool) {
	s.n++
	switch e.Type {
	case spec.TypePlanMode:
		v, ok := s.reading.Read(e.Data)
		if fold && ok && s.folds.at(s.seen, true) {
			s.active, s.seen = v, true
		}
		if s.reading != (spec.PlanModeReading{}) {
			v, ok = spec.PlanModeReading{}.Read(e.Data)
		}
		if ok {
			s.plain = v
		}
	case spec.TypeTurnStart:
		s.open = true
	case spec.TypeTurnEnd:
		s.open = false
	case spec.TypeRequestHeader:
		v, plain := s.active, s.plain
		s.plainHeaders = [2]*bool{s.plainHeaders[1], &plain}
		if s.unloadedHeader == spec.UnloadedHeaderShown || s.unloadedHeader == spec.UnloadedHeaderSkipped {
			if section, tool := sim.HeaderShows(e.Data); !section && !tool {
				// logged while plan mode was not composed (SVC-2): what it
				// described is choice unloaded-header
				if s.unloadedHeader == spec.UnloadedHeaderSkipped {
					return // judge by the last header logged while composed
				}
				v = false // shown: no plan guidance
			}
		}
		s.header = &v
	}
}
