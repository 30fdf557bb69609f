package sim

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/plankit/plankit/spec"
)

// What every check compares of what an implementation says, written once
// for both levels. SPEC.md fixes meaning, not wording: a plan-mode notice
// is a plugin-sourced user/message (STEP-6) among its step's messages
// (STEP-7) — its words, summary and form are the implementation's, and so
// is its place among the other messages of the step; a failed tool call
// fails, an approval returns approved: true (EXIT-5), a command reply is a
// success or an error (their texts are the implementation's); the tool
// catalog holds exit_plan_mode once beside the host's tools in the host's
// order (EXIT-1), at no fixed place among them.

// NoticeKey is how a plan-mode notice is compared: that it is one.
const NoticeKey = "notice"

// Notice is a plan-mode notice without words: what a check expects where
// only that a notice is there counts (its data compares equal, by
// EventKey, to every notice's).
var Notice = Message{Role: "user", Source: Source{Kind: "plugin", Plugin: spec.PluginName}}

// TextKey stands for a text the implementation words as it likes.
const TextKey = "(text)"

// EventKey is an appended event as the checks compare it: its type and
// data, except what the implementation words as it likes — a plan-mode
// notice is NoticeKey, and the texts of a tool result and of a command's
// reply are TextKey.
func EventKey(e Event) string {
	switch e.Type {
	case spec.TypeUserMessage:
		if m, err := MessageOf(e.Data); err == nil && m.IsPlanNotice() {
			return e.Type + " " + NoticeKey
		}
	case spec.TypeToolResult, spec.TypeCommandDone:
		return e.Type + " " + string(blankTexts(e.Data))
	case spec.TypeRequestHeader:
		return e.Type + " " + string(headerKey(e.Data))
	}
	return e.Type + " " + string(Canonical(e.Data))
}

// EventKeys is EventKey of each event, in log order, except that the
// plan-mode notices of each run of consecutive user/message events (a
// step's messages) come last in it: where a notice sits among its step's
// messages is the implementation's.
func EventKeys(es []Event) []string {
	keys := make([]string, len(es))
	runs := make([]bool, len(es))
	for i, e := range es {
		keys[i] = EventKey(e)
		runs[i] = e.Type == spec.TypeUserMessage
	}
	return noticesLast(keys, runs, spec.TypeUserMessage+" "+NoticeKey)
}

// MessageKey is a request's message as compared: NoticeKey for a
// plan-mode notice, else its role, source and text.
func MessageKey(m Message) string {
	if m.IsPlanNotice() {
		return NoticeKey
	}
	return string(JSON(m))
}

// MessageKeys is MessageKey of each message of one step, the notices last.
func MessageKeys(ms []Message) []string {
	keys := make([]string, len(ms))
	runs := make([]bool, len(ms))
	for i, m := range ms {
		keys[i], runs[i] = MessageKey(m), true
	}
	return noticesLast(keys, runs, NoticeKey)
}

// noticesLast moves the keys equal to notice to the end of each run of
// consecutive keys marked in runs, keeping the order of the others.
func noticesLast(keys []string, runs []bool, notice string) []string {
	for i := 0; i < len(keys); {
		if !runs[i] {
			i++
			continue
		}
		j := i
		for j < len(keys) && runs[j] {
			j++
		}
		run := keys[i:j]
		others := slices.DeleteFunc(slices.Clone(run), func(k string) bool { return k == notice })
		for k := range run {
			if k < len(others) {
				run[k] = others[k]
			} else {
				run[k] = notice
			}
		}
		i = j
	}
	return keys
}

// CatalogKey is a request's tool catalog as compared: the tools other than
// exit_plan_mode in order, then how many times exit_plan_mode is offered.
func CatalogKey(names []string) []string {
	out := make([]string, 0, len(names)+1)
	exits := 0
	for _, n := range names {
		if n == spec.ExitTool {
			exits++
		} else {
			out = append(out, n)
		}
	}
	return append(out, spec.ExitTool+" x"+strconv.Itoa(exits))
}

// Approved reports whether a tool call's result is an approval: a JSON
// object whose approved is true (EXIT-5), whatever else it carries.
func Approved(result json.RawMessage) bool {
	var v struct {
		Approved *bool `json:"approved"`
	}
	return json.Unmarshal(result, &v) == nil && v.Approved != nil && *v.Approved
}

// HeaderShows reports what a request/header's data shows of plan mode:
// the plan:policy section, and exit_plan_mode in the tool catalog. A
// header that shows neither was logged while plan mode was not composed
// (SVC-2: unloaded, or never loaded), since a composed plan mode offers its
// tool whatever the state (EXIT-1).
func HeaderShows(data json.RawMessage) (section, tool bool) {
	var d struct {
		Header struct {
			System []struct {
				Name string `json:"name"`
			} `json:"system"`
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"header"`
	}
	if json.Unmarshal(data, &d) != nil {
		return false, false
	}
	for _, s := range d.Header.System {
		section = section || s.Name == spec.SectionName
	}
	for _, t := range d.Header.Tools {
		tool = tool || t.Name == spec.ExitTool
	}
	return section, tool
}

// headerKey is a request/header's data with its tool catalog as
// CatalogKey compares it.
func headerKey(data json.RawMessage) json.RawMessage {
	var v map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return Canonical(data)
	}
	if h, ok := v["header"].(map[string]any); ok {
		if tools, ok := h["tools"].([]any); ok {
			var names []string
			for _, t := range tools {
				if m, ok := t.(map[string]any); ok {
					n, _ := m["name"].(string)
					names = append(names, n)
				}
			}
			h["tools"] = CatalogKey(names)
		}
	}
	return JSON(v)
}

// blankTexts is data, canonical, with the value of every "text" key
// replaced by TextKey.
func blankTexts(data json.RawMessage) json.RawMessage {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return Canonical(data)
	}
	return JSON(blank(v))
}

func blank(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if _, isText := e.(string); isText && k == "text" {
				x[k] = TextKey
			} else {
				x[k] = blank(e)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = blank(e)
		}
	}
	return v
}
