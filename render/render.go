// Package render turns a trace run into what people and machines read: the
// text timeline (one block per action), the JSON machine record, the
// session logs as dsh-format JSONL, a Mermaid sequence diagram and a
// self-contained HTML timeline. Every format is a pure function of the
// run, so the same run renders to the same bytes.
package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/trace"
)

// Formats lists the output formats, the default first.
var Formats = []string{"text", "json", "jsonl", "mermaid", "html"}

// Write renders run in format to w.
func Write(w io.Writer, format string, run *trace.Run) error {
	switch format {
	case "", "text":
		return Text(w, run)
	case "json":
		return JSON(w, run)
	case "jsonl":
		return JSONL(w, run)
	case "mermaid":
		return Mermaid(w, run)
	case "html":
		return HTML(w, run)
	}
	return fmt.Errorf("unknown format %q (one of %s)", format, strings.Join(Formats, ", "))
}

// JSON writes the machine record of the run.
func JSON(w io.Writer, run *trace.Run) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(run); err != nil {
		return err
	}
	// JSON's own escapes for what must not reach an output raw: the
	// same data (safetext.Bytes).
	_, err := w.Write(safetext.Bytes(buf.Bytes()))
	return err
}

// logLine is one JSONL row in dsh's field order.
type logLine struct {
	Type string          `json:"type"`
	Seq  int             `json:"seq"`
	Data json.RawMessage `json:"data"`
}

type sessionLine struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
	ID      string `json:"id"`
}

// JSONL writes each agent's session log in dsh's JSONL format: a session
// header line, then one event per line.
func JSONL(w io.Writer, run *trace.Run) error {
	var buf bytes.Buffer
	for _, l := range run.Logs {
		writeLine(&buf, sessionLine{Type: "session", Version: 0, ID: l.Agent})
		for _, e := range l.Events {
			writeLine(&buf, logLine{Type: e.Type, Seq: e.Seq, Data: e.Data})
		}
	}
	_, err := w.Write(safetext.Bytes(buf.Bytes()))
	return err
}

func writeLine(buf *bytes.Buffer, v any) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // plain data
}

// Text writes the readable timeline.
func Text(w io.Writer, run *trace.Run) error {
	var b strings.Builder
	t := run.Trace
	fmt.Fprintf(&b, "trace %s (%s)\n", safetext.Line(t.Name), safetext.Line(t.File))
	if len(t.Clauses) > 0 {
		fmt.Fprintf(&b, "clauses %s\n", strings.Join(t.Clauses, " "))
	}
	id := run.Identity
	if id.Name != "" {
		// The identity comes from the implementation: escaped for the terminal.
		fmt.Fprintf(&b, "implementation %s %s (%s)\n", safetext.Line(id.Name), safetext.Line(id.Version), safetext.Line(id.Language))
	} else {
		b.WriteString("implementation none (session without the plan-mode package)\n")
	}
	b.WriteString("\n")
	block(&b, "0 load", run.Load, nil)
	for _, s := range run.Steps {
		head := fmt.Sprintf("%d %s", s.Index+1, actionLine(s.Entry.Action))
		if s.Entry.Pos.Line > 0 {
			head += fmt.Sprintf("  [line %d]", s.Entry.Pos.Line)
		}
		block(&b, head, s.Result, s.Failures)
	}
	switch {
	case run.Err != nil:
		fmt.Fprintf(&b, "STOPPED %s\n", esc(run.Err.Error()))
	case run.Failed():
		f, _ := run.FirstFailure()
		fmt.Fprintf(&b, "FAIL %s: %s\n", esc(run.Describe(f)), esc(f.Failures[0]))
	default:
		fmt.Fprintf(&b, "PASS %d actions, every expectation held\n", len(run.Steps))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// esc escapes outside text for a line of the timeline: what the trace
// and the implementation said (names, texts, event data, errors) can hold
// line breaks, controls and bidirectional characters (safetext).
func esc(s string) string { return safetext.Line(s) }

// block writes one action's block of the timeline. Every line starts with
// plankit's words; what the trace and the implementation said is escaped.
func block(b *strings.Builder, head string, r sim.Result, failures []string) {
	fmt.Fprintf(b, "#%s\n", esc(head))
	if r.Load != nil {
		if r.Load.Error != "" {
			fmt.Fprintf(b, "  load refused: %s\n", esc(r.Load.Error))
		} else {
			fmt.Fprintf(b, "  registered: listener %s; tools %s; sections %s; commands %s\n",
				esc(r.Load.Listener), esc(toolNames(r.Load.Tools)), esc(list(r.Load.Sections)), esc(list(r.Load.Commands)))
		}
	}
	if r.PreStep != nil {
		p := r.PreStep
		fmt.Fprintf(b, "  pre-step: downstream %s -> plugin %s", decisionText(p.Downstream), decisionText(p.Decision))
		if p.Aborted {
			b.WriteString(" (signal aborted)")
		}
		b.WriteString("\n")
	}
	if r.Decision != "" {
		fmt.Fprintf(b, "  decision: %s\n", esc(r.Decision))
	}
	for _, e := range r.Effects {
		if e.Effect.Kind == sim.EffectAppend && e.Effect.Failed {
			fmt.Fprintf(b, "  ! %s append of %s %s failed\n", esc(e.Agent), esc(e.Effect.Type), esc(string(e.Effect.Data)))
		}
		if e.Effect.Kind == sim.EffectSteer || e.Effect.Kind == sim.EffectInject {
			fmt.Fprintf(b, "  > %s %s %s\n", esc(e.Effect.Kind), esc(e.Agent), esc(strconv.Quote(e.Effect.Message.Text)))
		}
		if e.Effect.Kind == sim.EffectAsk {
			fmt.Fprintf(b, "  ? %s plan review asked\n", esc(e.Agent))
		}
	}
	for _, a := range r.Appended {
		by := ""
		if a.ByPlugin {
			by = "  (plugin)"
		}
		fmt.Fprintf(b, "  + %s#%d %s %s%s\n", esc(a.Agent), a.Event.Seq, esc(a.Event.Type), esc(string(a.Event.Data)), by)
	}
	for _, q := range r.Requests {
		fmt.Fprintf(b, "  request %s turn %d step %d", esc(q.Agent), q.Turn, q.Step)
		if q.Retry > 0 {
			fmt.Fprintf(b, " retry %d", q.Retry)
		}
		b.WriteString("\n")
		for _, s := range q.Sections {
			fmt.Fprintf(b, "    section %s @%d %s\n", esc(s.Name), s.Order, esc(strconv.Quote(s.Text)))
		}
		fmt.Fprintf(b, "    tools %s\n", esc(toolNames(q.Tools)))
		for _, m := range q.Messages {
			fmt.Fprintf(b, "    message %s %s\n", esc(who(m)), esc(strconv.Quote(m.Text)))
		}
	}
	if r.RequestFailed {
		b.WriteString("  request failed; the step awaits a retry\n")
	}
	for _, t := range r.Tools {
		if t.OK {
			fmt.Fprintf(b, "  tool %s ok %s\n", esc(t.Name), esc(string(t.Result)))
		} else {
			fmt.Fprintf(b, "  tool %s failed: %s\n", esc(t.Name), esc(t.Error))
		}
	}
	if c := r.Command; c != nil {
		fmt.Fprintf(b, "  command %s: %s\n", esc(c.Kind), esc(c.Text))
	}
	if r.Outcome != "" {
		fmt.Fprintf(b, "  outcome %s\n", esc(r.Outcome))
	}
	if r.Fold != nil {
		fmt.Fprintf(b, "  fold %v\n", *r.Fold)
	}
	if r.Error != "" && r.Load == nil {
		fmt.Fprintf(b, "  error: %s\n", esc(r.Error))
	}
	for _, s := range r.After {
		fmt.Fprintf(b, "  get(%s) %s\n", esc(s.Agent), stateText(s.Get))
	}
	for _, f := range failures {
		fmt.Fprintf(b, "  FAIL %s\n", esc(f))
	}
	b.WriteString("\n")
}

func actionLine(a sim.Action) string {
	raw, _ := json.Marshal(a)
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	return fmt.Sprintf("%s %s", a.Name(), m[a.Name()])
}

func who(m sim.Message) string {
	if m.Source.Kind == "plugin" {
		return fmt.Sprintf("plugin:%s", m.Source.Plugin)
	}
	return m.Source.Kind
}

func decisionText(d sim.Decision) string {
	if len(d.Messages) == 0 {
		return d.Kind
	}
	return fmt.Sprintf("%s(%d messages)", d.Kind, len(d.Messages))
}

// StateText renders a get() reply as active=X [pending=Y].
func stateText(g sim.GetReply) string {
	if g.Pending == nil {
		return fmt.Sprintf("active=%v", g.Active)
	}
	return fmt.Sprintf("active=%v pending=%v", g.Active, *g.Pending)
}

func toolNames(ts []sim.Tool) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return list(names)
}

func list(xs []string) string {
	if len(xs) == 0 {
		return "-"
	}
	return strings.Join(xs, ",")
}
