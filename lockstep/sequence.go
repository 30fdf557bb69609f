package lockstep

import (
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/sim"
)

// Sequence compares one given action sequence side by side, as Run
// compares each generated one: the implementation (opts.NewImpl) and the
// reference with the implementation's declared choices and opts.Assume.
// When they differ, the divergence is finished as a search's is: shrunk,
// classified by the known variants and written as a trace under opts.Out
// (named lockstep-SEARCH.yaml, SEARCH being search without its spaces,
// which names where the sequence came from, a fuzzer's input say). It
// returns nil when the two agree at every action; an error means the
// implementation could not be run (a *sim.ImplError) or the trace could
// not be written.
func Sequence(opts Options, search string, setup properties.Setup, acts []sim.Action) (*Divergence, error) {
	port := opts.NewImpl()
	id, err := sim.Start(port)
	if err != nil {
		return nil, &sim.ImplError{Op: "start", Err: err}
	}
	if err := port.Stop(); err != nil {
		return nil, &sim.ImplError{Op: "stop", Err: err}
	}
	newRef, err := ReferenceFor(id.Choices, opts.Assume)
	if err != nil {
		return nil, err
	}
	s := &searcher{opts: opts, newRef: newRef, choices: id.Choices, reviewReplies: id.ReviewReplies, id: id}
	if err := s.withReadings(); err != nil {
		return nil, err
	}
	f, _, err := s.run(setup, acts)
	if err != nil || f == nil {
		return nil, err
	}
	if f, err = s.shrink(f, 1000); err != nil {
		return nil, err
	}
	d := s.divergence(f, search, 0)
	return d, s.finish(d)
}
