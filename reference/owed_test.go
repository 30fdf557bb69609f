package reference

import (
	"encoding/json"
	"testing"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// TestPEND8_OwedNoticeFromTheLog: a log owes a notice exactly when its last
// plan/mode was appended between turns, the last header before it showed
// the other state, and no header or plan-mode notice followed it.
func TestPEND8_OwedNoticeFromTheLog(t *testing.T) {
	on := sim.EventSpec{Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":true}`)}
	off := sim.EventSpec{Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":false}`)}
	malformed := sim.EventSpec{Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":"no"}`)}
	start := sim.EventSpec{Type: spec.TypeTurnStart, Data: json.RawMessage(`{"turn":1}`)}
	end := sim.EventSpec{Type: spec.TypeTurnEnd, Data: json.RawMessage(`{"turn":1}`)}
	header := sim.EventSpec{Type: spec.TypeRequestHeader, Data: json.RawMessage(`{}`)}
	noticeOn := sim.EventSpec{Type: spec.TypeUserMessage, Data: sim.MessageData(notice(true))}
	user := sim.EventSpec{Type: spec.TypeUserMessage, Data: sim.MessageData(sim.UserMessage("Plan it."))}
	other := sim.EventSpec{Type: spec.TypeUserMessage, Data: sim.MessageData(sim.Message{Role: "user", Text: "x", Source: sim.Source{Kind: "plugin", Plugin: "audit"}})}
	cases := []struct {
		name   string
		log    []sim.EventSpec
		owed   bool
		target bool
	}{
		{"empty log", nil, false, false},
		{"idle change with no header yet", []sim.EventSpec{on}, false, false},
		{"idle change after a header that showed the other state", []sim.EventSpec{start, header, end, on}, true, true},
		{"idle change back to what the header showed", []sim.EventSpec{start, header, end, on, off}, false, false},
		{"idle change off after a header that showed on", []sim.EventSpec{on, start, header, end, off}, true, false},
		{"a later header showed it", []sim.EventSpec{start, header, end, on, start, header}, false, true},
		{"a later notice carried it", []sim.EventSpec{start, header, end, on, start, noticeOn}, false, true},
		{"other messages do not carry it", []sim.EventSpec{start, header, end, on, start, user, other, end}, true, true},
		{"appended in a turn (a pre-step's or the exit tool's)", []sim.EventSpec{start, header, on, end}, false, true},
		{"a malformed plan/mode is not a change", []sim.EventSpec{start, header, end, on, malformed}, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := &sim.Log{}
			for _, e := range c.log {
				l.Append(e.Type, e.Data)
			}
			target, owed := OwedNotice(l.Events())
			if owed != c.owed || owed && target != c.target {
				t.Errorf("OwedNotice = (%v, %v), want (%v, %v)", target, owed, c.target, c.owed)
			}
		})
	}
}
