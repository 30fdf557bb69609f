package render

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"

	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

// HTML writes the run as a self-contained timeline page: one row per
// action, one lane per agent holding the events appended to that agent's
// log, the requests it sent and get() before and after the action. The
// action whose expectation failed first is highlighted and linked from the
// verdict. The page has inline CSS only: no script, no external resource.
// It is a pure function of the run.
func HTML(w io.Writer, run *trace.Run) error {
	page := buildPage(run)
	page.escape()
	var b bytes.Buffer
	if err := pageTemplate().Execute(&b, page); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

type htmlPage struct {
	Name, File, Description string
	Clauses                 string
	Implementation          string
	Verdict                 string
	VerdictClass            string
	FailedAnchor            string
	Agents                  []string
	Rows                    []htmlRow
}

type htmlRow struct {
	Anchor   string
	Number   int
	Action   string
	Line     int
	Failed   bool
	First    bool // the first failed action
	Notes    []string
	Failures []string
	Lanes    []htmlLane
}

type htmlLane struct {
	Before, After string
	Changed       bool
	Touched       bool
	Notes         []string
	Events        []htmlEvent
	Requests      []htmlRequest
}

type htmlEvent struct {
	Class, Seq, Type, Data, By string
}

type htmlRequest struct {
	Title    string
	Sections []string
	Policy   bool
	Tools    string
	Messages []string
}

// escape escapes every text of the page for one line (safetext.Line):
// names, messages, event data and errors come from the trace and the
// implementation, and the template's HTML escaping keeps their line
// breaks, controls and bidirectional characters.
func (p *htmlPage) escape() {
	esc := func(ss ...*string) {
		for _, s := range ss {
			*s = safetext.Line(*s)
		}
	}
	all := func(ss []string) {
		for i := range ss {
			esc(&ss[i])
		}
	}
	esc(&p.Name, &p.File, &p.Description, &p.Clauses, &p.Implementation, &p.Verdict)
	all(p.Agents)
	for i := range p.Rows {
		r := &p.Rows[i]
		esc(&r.Action)
		all(r.Notes)
		all(r.Failures)
		for j := range r.Lanes {
			l := &r.Lanes[j]
			esc(&l.Before, &l.After)
			all(l.Notes)
			for k := range l.Events {
				e := &l.Events[k]
				esc(&e.Type, &e.Data, &e.By)
			}
			for k := range l.Requests {
				q := &l.Requests[k]
				esc(&q.Title, &q.Tools)
				all(q.Sections)
				all(q.Messages)
			}
		}
	}
}

func buildPage(run *trace.Run) htmlPage {
	t := run.Trace
	p := htmlPage{Name: t.Name, File: t.File, Description: strings.TrimSpace(t.Description), Clauses: strings.Join(t.Clauses, " ")}
	if id := run.Identity; id.Name != "" {
		p.Implementation = fmt.Sprintf("%s %s (%s)", id.Name, id.Version, id.Language)
	} else {
		p.Implementation = "none (session without the plan-mode package)"
	}
	for _, l := range run.Logs {
		p.Agents = append(p.Agents, l.Agent)
	}
	before := map[string]string{}
	first, hasFailure := run.FirstFailure()
	p.Rows = append(p.Rows, buildRow(p.Agents, before, 0, "load", 0, run.Load, nil, false))
	for _, s := range run.Steps {
		row := buildRow(p.Agents, before, s.Index+1, actionLine(s.Entry.Action), s.Entry.Pos.Line, s.Result, s.Failures, hasFailure && s.Index == first.Index)
		p.Rows = append(p.Rows, row)
	}
	switch {
	case run.Err != nil:
		p.Verdict, p.VerdictClass = "STOPPED "+run.Err.Error(), "fail"
	case hasFailure:
		p.Verdict, p.VerdictClass = fmt.Sprintf("FAIL action %d (%s): %s", first.Index+1, first.Entry.Action.Name(), first.Failures[0]), "fail"
		p.FailedAnchor = fmt.Sprintf("a%d", first.Index+1)
	default:
		p.Verdict, p.VerdictClass = fmt.Sprintf("PASS %d actions, every expectation held", len(run.Steps)), "pass"
	}
	return p
}

// buildRow lays out one action. before holds each agent's last known get()
// and is updated with the action's.
func buildRow(agents []string, before map[string]string, n int, action string, line int, r sim.Result, failures []string, first bool) htmlRow {
	row := htmlRow{Anchor: fmt.Sprintf("a%d", n), Number: n, Action: action, Line: line, Failed: len(failures) > 0, First: first, Failures: failures}
	lane := map[string]*htmlLane{}
	for _, a := range agents {
		lane[a] = &htmlLane{Before: before[a]}
	}
	acting := r.Action.Agent()
	notes := func(agent string) *[]string {
		if l := lane[agent]; l != nil {
			l.Touched = true
			return &l.Notes
		}
		return &row.Notes
	}
	if f := r.Action.Fork; f != nil {
		*notes(f.As) = append(*notes(f.As), fmt.Sprintf("a fork of %s: its log starts as a copy of %s's", f.Agent, f.Agent))
	}
	if r.Load != nil {
		if r.Load.Error != "" {
			row.Notes = append(row.Notes, "load refused: "+r.Load.Error)
		} else {
			row.Notes = append(row.Notes, fmt.Sprintf("registered: listener %s; tools %s; sections %s; commands %s",
				r.Load.Listener, toolNames(r.Load.Tools), list(r.Load.Sections), list(r.Load.Commands)))
		}
	}
	if p := r.PreStep; p != nil {
		s := fmt.Sprintf("pre-step: downstream %s → plugin %s", decisionText(p.Downstream), decisionText(p.Decision))
		if p.Aborted {
			s += " (signal aborted)"
		}
		*notes(acting) = append(*notes(acting), s)
	}
	if r.Decision != "" {
		*notes(acting) = append(*notes(acting), "decision: "+r.Decision)
	}
	for _, e := range r.Effects {
		switch e.Effect.Kind {
		case sim.EffectAppend:
			if e.Effect.Failed {
				*notes(e.Agent) = append(*notes(e.Agent), fmt.Sprintf("append of %s %s failed", e.Effect.Type, e.Effect.Data))
			}
		case sim.EffectSteer, sim.EffectInject:
			if e.Effect.Message != nil {
				*notes(e.Agent) = append(*notes(e.Agent), fmt.Sprintf("%s %q", e.Effect.Kind, e.Effect.Message.Text))
			}
		case sim.EffectAsk:
			*notes(e.Agent) = append(*notes(e.Agent), "plan review asked")
		}
	}
	for _, a := range r.Appended {
		l := lane[a.Agent]
		if l == nil {
			continue
		}
		l.Touched = true
		ev := htmlEvent{Class: "ev", Seq: fmt.Sprintf("#%d", a.Event.Seq), Type: a.Event.Type, Data: clip(string(a.Event.Data), 160)}
		switch a.Event.Type {
		case spec.TypePlanMode:
			ev.Class += " plan"
		case spec.TypeRequestHeader:
			ev.Class += " header"
			ev.Data = ""
		case spec.TypeTurnStart, spec.TypeTurnEnd:
			ev.Class += " turn"
		case spec.TypeUserMessage:
			if m, err := sim.MessageOf(a.Event.Data); err == nil {
				ev.Data = fmt.Sprintf("%s %q", who(m), m.Text)
				if m.IsPlanNotice() {
					ev.Class += " notice"
				}
			}
		}
		if a.ByPlugin {
			ev.By = "plugin"
		}
		l.Events = append(l.Events, ev)
	}
	for _, q := range r.Requests {
		l := lane[q.Agent]
		if l == nil {
			continue
		}
		req := htmlRequest{Title: fmt.Sprintf("request turn %d step %d", q.Turn, q.Step), Tools: toolNames(q.Tools)}
		if q.Retry > 0 {
			req.Title += fmt.Sprintf(" retry %d", q.Retry)
		}
		for _, s := range q.Sections {
			req.Sections = append(req.Sections, fmt.Sprintf("%s@%d", s.Name, s.Order))
			if s.Name == spec.SectionName {
				req.Policy = true
			}
		}
		for _, m := range q.Messages {
			req.Messages = append(req.Messages, fmt.Sprintf("%s: %s", who(m), m.Text))
		}
		l.Requests = append(l.Requests, req)
	}
	if r.RequestFailed {
		*notes(acting) = append(*notes(acting), "request failed; the step awaits a retry")
	}
	for _, t := range r.Tools {
		s := fmt.Sprintf("tool %s failed: %s", t.Name, t.Error)
		if t.OK {
			s = fmt.Sprintf("tool %s ok %s", t.Name, t.Result)
		}
		*notes(acting) = append(*notes(acting), s)
	}
	if c := r.Command; c != nil {
		*notes(acting) = append(*notes(acting), fmt.Sprintf("command %s: %s", c.Kind, c.Text))
	}
	if r.Outcome != "" {
		*notes(acting) = append(*notes(acting), "outcome "+r.Outcome)
	}
	if r.Fold != nil {
		*notes(acting) = append(*notes(acting), fmt.Sprintf("fold %v", *r.Fold))
	}
	if r.Error != "" && r.Load == nil {
		*notes(acting) = append(*notes(acting), "error: "+r.Error)
	}
	for _, s := range r.After {
		l := lane[s.Agent]
		if l == nil {
			continue
		}
		l.Touched = true
		l.After = stateText(s.Get)
		l.Changed = l.Before != "" && l.Before != l.After
		before[s.Agent] = l.After
	}
	for _, a := range agents {
		row.Lanes = append(row.Lanes, *lane[a])
	}
	return row
}

// pageTemplate is parsed on first use, not at every program start.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(pageSource))
})

const pageSource = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>plankit timeline: {{.Name}}</title>
<style>
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
header { padding: 16px 24px; background: #1d2330; color: #f6f7f9; }
header h1 { margin: 0 0 4px; font-size: 20px; }
header p { margin: 2px 0; }
header .meta { color: #b8c0d0; font-size: 13px; }
.verdict { display: inline-block; margin-top: 8px; padding: 4px 10px; border-radius: 4px; font-weight: 600; }
.verdict.pass { background: #1f7a3d; }
.verdict.fail { background: #b3261e; }
.verdict a { color: #fff; }
table.timeline { border-collapse: collapse; margin: 16px 24px; min-width: calc(100% - 48px); background: #fff; }
th, td { border: 1px solid #d5d9e0; padding: 8px 10px; vertical-align: top; text-align: left; }
thead th { background: #e9ecf1; position: sticky; top: 0; }
td.act { width: 30%; }
td.act .n { display: inline-block; min-width: 22px; font-weight: 700; }
td.act code { font-size: 12px; word-break: break-all; }
td.act .line { color: #6b7385; font-size: 12px; margin-left: 6px; }
tr.failed td { background: #ffe3e0; }
tr.failed td.act { border-left: 6px solid #b3261e; }
tr.first td.act::after { content: "first failed expectation"; display: block; margin-top: 6px; color: #b3261e; font-weight: 700; font-size: 12px; }
.fail { color: #8c1d18; font-weight: 600; margin-top: 4px; }
.note { color: #3b4356; font-size: 12px; }
.state { font-size: 12px; font-family: ui-monospace, Menlo, Consolas, monospace; color: #3b4356; margin-bottom: 4px; }
.state.changed { color: #0b5cad; font-weight: 700; }
ul.events { list-style: none; margin: 4px 0; padding: 0; }
.ev { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; padding: 2px 6px; margin: 2px 0; border-radius: 3px; background: #f1f3f6; word-break: break-all; }
.ev .seq { color: #6b7385; }
.ev .type { font-weight: 700; }
.ev .by { float: right; font-size: 11px; color: #7a4d00; }
.ev.plan { background: #ffe9b3; border-left: 4px solid #d49100; }
.ev.notice { background: #efe0ff; border-left: 4px solid #7b3fc4; }
.ev.header { background: #dcebff; border-left: 4px solid #2a6fc9; }
.ev.turn { background: #e4f4e8; }
.req { font-size: 12px; border: 1px dashed #2a6fc9; border-radius: 4px; padding: 4px 6px; margin: 4px 0; }
.req .policy { color: #7a4d00; font-weight: 700; }
.legend { margin: 0 24px 24px; font-size: 12px; color: #3b4356; }
.legend span { display: inline-block; margin-right: 12px; }
</style>
</head>
<body>
<header>
<h1>{{.Name}}</h1>
<p class="meta">{{.File}}{{if .Clauses}} · clauses {{.Clauses}}{{end}} · implementation {{.Implementation}}</p>
{{if .Description}}<p class="meta">{{.Description}}</p>{{end}}
<p class="verdict {{.VerdictClass}}">{{if .FailedAnchor}}<a href="#{{.FailedAnchor}}">{{.Verdict}}</a>{{else}}{{.Verdict}}{{end}}</p>
</header>
<table class="timeline">
<thead><tr><th>action</th>{{range .Agents}}<th>agent {{.}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr id="{{.Anchor}}" class="{{if .Failed}}failed{{end}}{{if .First}} first{{end}}">
<td class="act"><span class="n">{{.Number}}</span><code>{{.Action}}</code>{{if .Line}}<span class="line">line {{.Line}}</span>{{end}}
{{range .Notes}}<div class="note">{{.}}</div>{{end}}{{range .Failures}}<div class="fail">FAIL {{.}}</div>{{end}}</td>
{{range .Lanes}}<td class="lane">{{if .Touched}}{{if or .Before .After}}<div class="state{{if .Changed}} changed{{end}}">get() {{if .Before}}{{.Before}}{{else}}–{{end}} → {{if .After}}{{.After}}{{else}}–{{end}}</div>{{end}}
{{range .Notes}}<div class="note">{{.}}</div>{{end}}{{if .Events}}<ul class="events">{{range .Events}}<li class="{{.Class}}"><span class="seq">{{.Seq}}</span> <span class="type">{{.Type}}</span> {{.Data}}{{if .By}}<span class="by">{{.By}}</span>{{end}}</li>{{end}}</ul>{{end}}
{{range .Requests}}<div class="req"><b>{{.Title}}</b><br>sections {{range $i, $s := .Sections}}{{if $i}}, {{end}}{{$s}}{{end}}{{if .Policy}} <span class="policy">(plan guidance)</span>{{end}}<br>tools {{.Tools}}{{range .Messages}}<br>› {{.}}{{end}}</div>{{end}}{{end}}</td>
{{end}}</tr>
{{end}}</tbody>
</table>
<p class="legend"><span class="ev plan">plan/mode</span><span class="ev notice">plan-mode notice</span><span class="ev header">request/header</span><span class="ev turn">turn</span> get() shows the plan state before → after each action; a changed state is blue.</p>
</body>
</html>
`
