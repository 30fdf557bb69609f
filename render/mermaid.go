package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

// mermaidText escapes text for a Mermaid sequence-diagram message: '#' and
// ';' would start an entity or end the statement, angle brackets would be
// read as markup, and a message is one line.
var mermaidText = strings.NewReplacer(
	"#", "#35;", ";", "#59;", "<", "#60;", ">", "#62;",
	"\r\n", " ", "\n", " ", "\r", " ", "\t", " ",
)

// Mermaid writes the run as a Mermaid sequence diagram between the user,
// the runtime, the plan-mode plugin, the session log and the model: one
// note per action, then what the action did, in order. A failed action is
// shaded and its failures noted. The text is a pure function of the run.
func Mermaid(w io.Writer, run *trace.Run) error {
	var b strings.Builder
	m := &mermaid{b: &b}
	t := run.Trace
	b.WriteString("sequenceDiagram\n")
	fmt.Fprintf(&b, "    %%%% plankit sim: %s (%s)\n", safetext.Line(oneLine(t.Name)), safetext.Line(t.File))
	for _, p := range []string{"user", "runtime", "plugin", "log", "model"} {
		fmt.Fprintf(&b, "    participant %s\n", p)
	}
	m.action("0 load", nil, run.Load, nil)
	for _, s := range run.Steps {
		head := fmt.Sprintf("%d %s", s.Index+1, actionLine(s.Entry.Action))
		if s.Entry.Pos.Line > 0 {
			head += fmt.Sprintf(" (line %d)", s.Entry.Pos.Line)
		}
		act := s.Entry.Action
		m.action(head, &act, s.Result, s.Failures)
	}
	switch {
	case run.Err != nil:
		m.note("user,model", "STOPPED "+run.Err.Error())
	case run.Failed():
		f, _ := run.FirstFailure()
		m.note("user,model", fmt.Sprintf("FAIL action %d: %s", f.Index+1, f.Failures[0]))
	default:
		m.note("user,model", fmt.Sprintf("PASS %d actions, every expectation held", len(run.Steps)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type mermaid struct {
	b      *strings.Builder
	indent string
	// The action's requests and tool outcomes, consumed in log order.
	requests  []sim.Request
	tools     []sim.ToolOutcome
	req, tool int
}

// event draws one appended event and what it stands for: a request to the
// model, the model's output, a tool call through the plugin.
func (m *mermaid) event(a sim.Appended) {
	e := a.Event
	ref := fmt.Sprintf("%s[%d] %s", a.Agent, e.Seq, e.Type)
	switch {
	case a.ByPlugin:
		m.line("plugin", "->>", "log", ref+" "+string(e.Data))
	case e.Type == spec.TypeRequestHeader:
		m.line("runtime", "->>", "log", ref)
		if m.req < len(m.requests) {
			q := m.requests[m.req]
			m.req++
			names := make([]string, len(q.Sections))
			for i, s := range q.Sections {
				names[i] = s.Name
			}
			m.line("runtime", "->>", "model", fmt.Sprintf("request %s turn %d step %d: sections %s, tools %s",
				q.Agent, q.Turn, q.Step, strings.Join(names, ", "), toolNames(q.Tools)))
		}
	case e.Type == spec.TypeAssistant:
		m.line("model", "-->>", "runtime", "output "+assistantSummary(e.Data))
		m.line("runtime", "->>", "log", ref)
	case e.Type == spec.TypeToolCall:
		m.line("runtime", "->>", "log", ref)
		if m.tool < len(m.tools) {
			t := m.tools[m.tool]
			m.tool++
			m.line("runtime", "->>", "plugin", t.Name)
			if t.Asked {
				m.line("plugin", "->>", "user", "plan review")
				m.line("user", "-->>", "plugin", "answer")
			}
			if t.OK {
				m.line("plugin", "-->>", "runtime", "ok "+string(t.Result))
			} else {
				m.line("plugin", "--x", "runtime", "failed: "+t.Error)
			}
		}
	case e.Type == spec.TypeUserMessage:
		msg, _ := sim.MessageOf(e.Data)
		m.line("runtime", "->>", "log", fmt.Sprintf("%s %s %q", ref, who(msg), msg.Text))
	default:
		m.line("runtime", "->>", "log", ref+" "+string(e.Data))
	}
}

// line and note are where text enters the diagram: what the trace and the
// implementation said is escaped for one line (safetext) after Mermaid's
// own replacements.
func (m *mermaid) line(from, arrow, to, text string) {
	fmt.Fprintf(m.b, "    %s%s%s%s: %s\n", m.indent, from, arrow, to, safetext.Line(mermaidText.Replace(clip(text, 100))))
}

func (m *mermaid) note(over, text string) {
	fmt.Fprintf(m.b, "    %sNote over %s: %s\n", m.indent, over, safetext.Line(mermaidText.Replace(clip(text, 120))))
}

// action draws one action: a note naming it, the call that starts it, the
// plugin's effects, every appended event, the result and get() after.
func (m *mermaid) action(head string, act *sim.Action, r sim.Result, failures []string) {
	if len(failures) > 0 {
		fmt.Fprintf(m.b, "    rect rgb(255, 221, 221)\n")
		m.indent = "    "
	}
	m.note("user,model", head)
	if act != nil {
		m.start(*act, r)
	} else if r.Load != nil {
		m.line("runtime", "->>", "plugin", "load")
	}
	if r.Load != nil {
		if r.Load.Error != "" {
			m.line("plugin", "--x", "runtime", "load refused: "+r.Load.Error)
		} else {
			m.line("plugin", "-->>", "runtime", fmt.Sprintf("registered listener %s, tools %s, sections %s, commands %s",
				r.Load.Listener, toolNames(r.Load.Tools), list(r.Load.Sections), list(r.Load.Commands)))
		}
	}
	for _, e := range r.Effects {
		switch e.Effect.Kind {
		case sim.EffectAppend:
			if e.Effect.Failed {
				m.line("plugin", "-x", "log", fmt.Sprintf("%s %s %s failed", e.Agent, e.Effect.Type, e.Effect.Data))
			}
		case sim.EffectSteer, sim.EffectInject:
			text := ""
			if e.Effect.Message != nil {
				text = e.Effect.Message.Text
			}
			m.line("plugin", "->>", "runtime", fmt.Sprintf("%s %s %q", e.Effect.Kind, e.Agent, text))
		}
	}
	m.requests, m.tools, m.req, m.tool = r.Requests, r.Tools, 0, 0
	step := act != nil && (act.Step != nil || act.Retry != nil)
	for _, a := range r.Appended {
		if step && (a.ByPlugin || a.Event.Type == spec.TypeRetry) {
			continue // drawn with the pre-step
		}
		m.event(a)
	}
	if r.RequestFailed {
		m.line("model", "--x", "runtime", "request failed; the step awaits a retry")
	}
	if r.Outcome != "" {
		m.line("plugin", "-->>", "user", r.Outcome)
	}
	if c := r.Command; c != nil {
		m.line("runtime", "-->>", "user", fmt.Sprintf("%s: %s", c.Kind, c.Text))
	}
	if r.Fold != nil {
		m.line("plugin", "-->>", "runtime", fmt.Sprintf("fold %v", *r.Fold))
	}
	if r.Error != "" && r.Load == nil {
		m.note("plugin", "error: "+r.Error)
	}
	for _, s := range r.After {
		m.note("plugin", fmt.Sprintf("get(%s) %s", s.Agent, stateText(s.Get)))
	}
	for _, f := range failures {
		m.note("user,model", "FAIL "+f)
	}
	if len(failures) > 0 {
		m.indent = ""
		fmt.Fprintf(m.b, "    end\n")
	}
}

// start draws the call that begins an action.
func (m *mermaid) start(a sim.Action, r sim.Result) {
	switch {
	case a.Prompt != nil:
		m.line("user", "->>", "runtime", fmt.Sprintf("prompt %s %q", a.Prompt.Agent, a.Prompt.Text))
	case a.Steer != nil:
		m.line("user", "->>", "runtime", fmt.Sprintf("steer %s %q", a.Steer.Agent, a.Steer.Text))
	case a.Inject != nil:
		m.line("user", "->>", "runtime", fmt.Sprintf("inject %s %q", a.Inject.Agent, a.Inject.Text))
	case a.Set != nil:
		m.line("user", "->>", "plugin", fmt.Sprintf("set(%s, %v)", a.Set.Agent, a.Set.Active))
	case a.Get != nil:
		m.line("user", "->>", "plugin", fmt.Sprintf("get(%s)", a.Get.Agent))
	case a.Command != nil:
		m.line("user", "->>", "runtime", fmt.Sprintf("%s (%s)", a.Command.Input, a.Command.Agent))
		if r.Command != nil && r.Command.Registered {
			m.line("runtime", "->>", "plugin", "command "+a.Command.Input)
		}
	case a.Step != nil, a.Retry != nil:
		s := a.Step
		what := "step"
		if s == nil {
			s, what = a.Retry, "retry"
		}
		// The runtime's retry marker comes before the pre-step; the
		// plugin's appends happen inside it, before it returns.
		for _, e := range r.Appended {
			if e.Event.Type == spec.TypeRetry {
				m.event(e)
			}
		}
		if p := r.PreStep; p != nil {
			m.line("runtime", "->>", "plugin", fmt.Sprintf("agent/pre-step %s (%s)", s.Agent, what))
			m.line("plugin", "->>", "runtime", "next(): downstream "+decisionText(p.Downstream))
			for _, e := range r.Appended {
				if e.ByPlugin {
					m.event(e)
				}
			}
			m.line("plugin", "-->>", "runtime", decisionText(p.Decision))
		} else {
			m.line("runtime", "->>", "runtime", fmt.Sprintf("%s %s", what, s.Agent))
		}
		if r.Decision != "" {
			m.note("runtime", "decision "+r.Decision)
		}
	case a.Reload != nil:
		m.line("runtime", "->>", "plugin", "reload")
	case a.Unload != nil:
		m.line("runtime", "->>", "plugin", "unload")
	case a.Load != nil:
		m.line("runtime", "->>", "plugin", "load")
	case a.Fold != nil:
		m.line("runtime", "->>", "plugin", "foldPlanMode "+actionArgs(a))
	default:
		m.line("runtime", "->>", "runtime", a.Name()+" "+actionArgs(a))
	}
}

func actionArgs(a sim.Action) string {
	raw, _ := json.Marshal(a)
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(raw, &fields)
	return string(fields[a.Name()])
}

// assistantSummary is the model's text and tool calls from assistant/message.
func assistantSummary(data json.RawMessage) string {
	var d struct {
		Message struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
				Name string `json:"name"`
			} `json:"content"`
		} `json:"message"`
	}
	_ = json.Unmarshal(data, &d)
	var parts []string
	for _, c := range d.Message.Content {
		switch c.Type {
		case "text":
			parts = append(parts, fmt.Sprintf("%q", c.Text))
		case "tool-call":
			parts = append(parts, "call "+c.Name)
		}
	}
	if len(parts) == 0 {
		return "(empty)"
	}
	return strings.Join(parts, ", ")
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// clip shortens s to n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
