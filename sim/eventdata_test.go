package sim

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// texts exercise every branch of appendJSONString: plain ASCII, characters
// encoding/json escapes, HTML characters it leaves alone, multi-byte runes,
// the two line separators and invalid UTF-8.
var texts = []string{
	"", "OK.", "go on", `say "hi"`, `back\slash`, "line\nbreak\ttab", "ctl \x01\x1f",
	"<b>&amp;</b>", "café ☕ 😀", "sep \u2028 and \u2029", "bad \xff byte", "# Plan\n\n1. Read.",
}

func sources() []Source {
	return []Source{
		{Kind: "user"},
		{Kind: "plugin", Plugin: "plan-mode"},
		{Kind: "plugin", Plugin: "plan-mode", Form: "notice", Summary: "entered"},
		{Kind: "command", Form: "f\"q"},
		{Kind: "x", Summary: "s"},
	}
}

func equalJSON(t *testing.T, what string, got []byte, want any) {
	t.Helper()
	if w := JSON(want); string(got) != string(w) {
		t.Errorf("%s:\n typed      %s\n reflection %s", what, got, w)
	}
	if c := Canonical(got); string(c) != string(got) {
		t.Errorf("%s: typed output %s is not canonical (%s)", what, got, c)
	}
}

// Every typed encoder writes what encoding/json and Canonical make of the
// same value, byte for byte: the log's bytes did not change when the
// runtime stopped encoding its events by reflection.
func TestTypedEventsMatchReflection(t *testing.T) {
	for _, turn := range []int{0, 1, 12, -3, 1 << 40} {
		equalJSON(t, "step", appendStepJSON(nil, turn, turn+1), map[string]any{"turn": turn, "step": turn + 1})
		equalJSON(t, "turn/start", appendTurnStartJSON(nil, turn), map[string]any{"turn": turn})
		for _, reason := range []string{"completed", "blocked", "aborted", `we"ird`} {
			equalJSON(t, "turn/end", appendTurnEndJSON(nil, turn, reason), map[string]any{"turn": turn, "reason": map[string]any{"kind": reason}})
		}
	}
	for _, text := range texts {
		for _, src := range sources() {
			for _, role := range []string{"", "user", "assistant"} {
				m := Message{Role: role, Text: text, Source: src}
				equalJSON(t, "user/message", appendMessageJSON(nil, m), MessageData(m))
			}
		}
		sections := []Section{BaseSection, {Name: "plan:policy", Order: 50, Text: text}, {Name: text, Order: -1}}
		for _, tools := range [][]Tool{{}, {{Name: "exit_plan_mode"}}, {{Name: text}, {Name: "b"}}} {
			header := map[string]any{"system": sections, "tools": tools}
			equalJSON(t, "header", appendHeaderJSON(nil, sections, tools), header)
		}
		calls := []ToolCall{
			{Name: "exit_plan_mode", Args: json.RawMessage(`{ "plan" : "# P" }`)},
			{Name: text},
			{Name: "x", Args: json.RawMessage(`{"b":[1,2],"a":"` + "\\u00e9" + `"}`)},
		}
		for n := 0; n <= len(calls); n++ {
			ids := []string{"call_1_2_1", "call_1_2_2", "call_\"3"}[:n]
			content := []any{}
			if text != "" {
				content = append(content, map[string]any{"type": "text", "text": text})
			}
			for i, c := range calls[:n] {
				content = append(content, map[string]any{"type": "tool-call", "id": ids[i], "name": c.Name, "arguments": string(argsOf(c))})
			}
			want := map[string]any{"turn": 3, "step": 2, "message": map[string]any{"role": "assistant", "content": content}}
			equalJSON(t, "assistant", appendAssistantJSON(nil, 3, 2, text, calls[:n], ids), want)
		}
		for _, c := range calls {
			want := map[string]any{"turn": 1, "step": 2, "callId": "call_1_2_1", "name": c.Name, "arguments": string(argsOf(c))}
			equalJSON(t, "tool/call", appendToolCallJSON(nil, 1, 2, "call_1_2_1", c), want)
		}
		for _, isError := range []bool{false, true} {
			id := "call_1_2_" + text
			want := map[string]any{"turn": 1, "step": 2, "message": map[string]any{
				"role": "user", "source": map[string]any{"kind": "tool", "callId": id},
				"content": []map[string]any{{"type": "tool-result", "toolCallId": id, "isError": isError, "content": []map[string]any{{"type": "text", "text": text}}}},
			}}
			equalJSON(t, "tool/result", appendToolResultJSON(nil, 1, 2, id, text, isError), want)
		}
	}
}

// The typed encoders name each field of the types whose every field the
// log holds. A field added to one of them must be added to its encoder too
// (and here).
func TestTypedEventShapes(t *testing.T) {
	for _, c := range []struct {
		v      any
		fields []string
	}{
		{Section{}, []string{"Name", "Order", "Text"}},
		{Tool{}, []string{"Name"}},
		{Source{}, []string{"Kind", "Plugin", "Form", "Summary"}},
	} {
		typ := reflect.TypeOf(c.v)
		var got []string
		for i := range typ.NumField() {
			got = append(got, typ.Field(i).Name)
		}
		if !slices.Equal(got, c.fields) {
			t.Errorf("%s has fields %v; its typed encoder writes %v", typ, got, c.fields)
		}
	}
}

// A log's events keep their bytes when its arena moves to a new chunk, and
// appending to an event's data never writes into the next event's.
func TestLogArena(t *testing.T) {
	l := &Log{}
	var want []string
	for i := range 3000 {
		text := string(make([]byte, i%700))
		e := l.Append("t", JSON(map[string]any{"i": i, "pad": text}))
		want = append(want, string(e.Data))
		if cap(e.Data) != len(e.Data) {
			t.Fatalf("event %d: data capacity %d beyond its length %d", i, cap(e.Data), len(e.Data))
		}
	}
	for i, e := range l.Events() {
		if string(e.Data) != want[i] || e.Seq != i {
			t.Fatalf("event %d changed: %.40s", i, e.Data)
		}
	}
	s := l.Since(10)
	if cap(s) != len(s) {
		t.Errorf("Since: capacity %d beyond its length %d", cap(s), len(s))
	}
}

// Since and Events give the log's events whatever the distance between
// the calls (from the tail, or built from the records), and a slice they
// handed out never changes as the log grows.
func TestLogSince(t *testing.T) {
	l := &Log{}
	type kept struct {
		from   int
		events []Event
	}
	var held []kept
	var want []Event
	seen := 0
	for i := range 5000 {
		want = append(want, l.Append(fmt.Sprintf("t%d", i%40), JSON(map[string]int{"i": i})))
		// Calls at varying distances: every event, every few, after long gaps.
		if i%7 == 0 || i%97 < 3 || i%500 == 0 {
			s := l.Since(seen)
			held = append(held, kept{seen, s})
			seen = l.Len()
		}
		if i%1500 == 0 {
			s := l.Since(i / 2) // far behind the tail
			held = append(held, kept{i / 2, s})
		}
	}
	for _, h := range held {
		for j, e := range h.events {
			w := want[h.from+j]
			if e.Seq != w.Seq || e.Type != w.Type || string(e.Data) != string(w.Data) {
				t.Fatalf("Since(%d)[%d] = %+v, want %+v", h.from, j, e, w)
			}
		}
		if cap(h.events) != len(h.events) {
			t.Fatalf("Since(%d): capacity %d beyond its length %d", h.from, cap(h.events), len(h.events))
		}
	}
	all := l.Events()
	if len(all) != len(want) || cap(all) != len(all) {
		t.Fatalf("Events: %d events (capacity %d), want %d", len(all), cap(all), len(want))
	}
	for i, e := range all {
		if e.Seq != i || e.Type != want[i].Type || string(e.Data) != string(want[i].Data) || l.Type(i) != e.Type {
			t.Fatalf("Events()[%d] = %+v, want %+v", i, e, want[i])
		}
	}
	if c := l.Copy(); len(c) != len(all) || &c[0] == &all[0] {
		t.Fatal("Copy is not a copy of the events")
	}
}
