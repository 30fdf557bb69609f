package voice

import (
	"encoding/json"
	"slices"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// Runtime wraps a runtime: its notices have other words (in the log and
// in the requests alike), and it has a tool of its own (first in every
// catalog) and a base section of its own ordered after plan:policy, in
// every request and every request/header it logs. (Around Plugin, its
// notices also come first among their step's messages.)
func Runtime(rt loop.Runtime) loop.Runtime { return runtime{rt} }

// The runtime's own things.
const (
	OwnTool    = "own_tool"
	OwnSection = "runtime:house-rules"
	ownOrder   = 60
)

type runtime struct{ loop.Runtime }

func (r runtime) StopForRestart() error {
	if s, ok := r.Runtime.(interface{ StopForRestart() error }); ok {
		return s.StopForRestart()
	}
	return r.Runtime.Stop()
}

func (r runtime) Open(req loop.OpenRequest) (loop.Observation, error) {
	o, err := r.Runtime.Open(req)
	return observation(o), err
}

func (r runtime) Turn(req loop.TurnRequest) (loop.Observation, error) {
	o, err := r.Runtime.Turn(req)
	return observation(o), err
}

func (r runtime) Set(req loop.SetRequest) (loop.SetReply, error) {
	rep, err := r.Runtime.Set(req)
	rep.Observation = observation(rep.Observation)
	return rep, err
}

func (r runtime) Command(req loop.CommandRequest) (loop.CommandReply, error) {
	rep, err := r.Runtime.Command(req)
	rep.Observation = observation(rep.Observation)
	if rep.Text != "" {
		rep.Text = "(plan) " + rep.Text
	}
	return rep, err
}

func (r runtime) Append(req loop.AppendRequest) (loop.Observation, error) {
	o, err := r.Runtime.Append(req)
	return observation(o), err
}

func (r runtime) Reload() (loop.ReloadReply, error) {
	rep, err := r.Runtime.Reload()
	rep.Observation = observation(rep.Observation)
	return rep, err
}

func observation(o loop.Observation) loop.Observation {
	events := make([]sim.Event, len(o.Events))
	for i, e := range o.Events {
		events[i] = event(e)
	}
	o.Events = events
	reqs := make([]loop.ModelRequest, len(o.Requests))
	for i, q := range o.Requests {
		reqs[i] = request(q)
	}
	o.Requests = reqs
	return o
}

func request(q loop.ModelRequest) loop.ModelRequest {
	q.Tools = append([]string{OwnTool}, q.Tools...)
	order := ownOrder
	q.Sections = append(slices.Clone(q.Sections), loop.Section{Name: OwnSection, Order: &order, Text: "Keep the house tidy."})
	msgs := make([]loop.Message, len(q.Messages))
	for i, m := range q.Messages {
		if m.IsPlanNotice() {
			// the words the log's notice has (event): a runtime sends
			// what it logs
			n := Notice(sim.Message{Role: m.Role, Text: m.Text, Source: *m.Source})
			m.Source, m.Text = &n.Source, n.Text
		}
		msgs[i] = m
	}
	q.Messages = msgs
	return q
}

func event(e sim.Event) sim.Event {
	switch e.Type {
	case spec.TypeUserMessage:
		if m, err := sim.MessageOf(e.Data); err == nil && m.IsPlanNotice() {
			m = Notice(m)
			e.Data = sim.MessageData(m)
		}
	case spec.TypeRequestHeader:
		var v map[string]any
		if json.Unmarshal(e.Data, &v) != nil {
			return e
		}
		if h, ok := v["header"].(map[string]any); ok {
			if tools, ok := h["tools"].([]any); ok {
				h["tools"] = append([]any{map[string]any{"name": OwnTool}}, tools...)
			}
			if sys, ok := h["system"].([]any); ok {
				h["system"] = append(sys, map[string]any{"name": OwnSection, "order": ownOrder, "text": "Keep the house tidy."})
			}
		}
		e.Data = sim.JSON(v)
	}
	return e
}
