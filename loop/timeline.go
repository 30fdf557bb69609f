package loop

import (
	"fmt"
	"io"
	"strings"

	"github.com/plankit/plankit/internal/safetext"
)

// WriteTimeline renders a record as text: who the runtime is, then per
// step what the outside world did and what the runtime logged, sent and
// answered, then the findings. What came from outside (the runtime's
// identity and errors, the trace's name) is escaped, one line each.
func WriteTimeline(w io.Writer, t Trace, rec Record, findings []Finding) error {
	var b strings.Builder
	id := rec.Identity
	fmt.Fprintf(&b, "runtime: %s %s (%s), retry %s\n", safetext.Line(id.Name), safetext.Line(id.Version), safetext.Line(id.Language), safetext.Line(id.Capabilities.Retry))
	if t.Name != "" {
		fmt.Fprintf(&b, "trace: %s\n", safetext.Line(t.Name))
	}
	if rec.Load.Error != "" {
		fmt.Fprintf(&b, "load: refused: %s\n", safetext.Line(rec.Load.Error))
	}
	for i, d := range rec.Steps {
		fmt.Fprintf(&b, "\n#%d %s", i+1, d.Step.Name())
		if a := d.Step.Agent(); a != "" {
			fmt.Fprintf(&b, " %s", safetext.Line(a))
		}
		b.WriteString(safetext.Line(kindOf(&d.Step).detail(&d.Step)))
		b.WriteString("\n")
		if d.Set != nil {
			fmt.Fprintf(&b, "  set: %s%s\n", d.Set.Outcome, errText(d.Set.Error))
		}
		if d.Get != nil {
			fmt.Fprintf(&b, "  get: active=%t pending=%s\n", d.Get.Active, pendingText(d.Get.Pending))
		}
		if d.Command != nil {
			fmt.Fprintf(&b, "  command: %s %q\n", d.Command.Kind, d.Command.Text)
		}
		if d.Error != "" {
			fmt.Fprintf(&b, "  error: %s\n", safetext.Line(d.Error))
		}
		reqs := d.Obs.Requests
		for _, e := range d.Obs.Events {
			for len(reqs) > 0 && reqs[0].At <= e.Seq {
				writeRequest(&b, reqs[0])
				reqs = reqs[1:]
			}
			fmt.Fprintf(&b, "  %4d %s %s\n", e.Seq, safetext.Line(e.Type), safetext.Line(short(string(e.Data))))
		}
		for _, q := range reqs {
			writeRequest(&b, q)
		}
		for _, r := range d.Obs.Results {
			fmt.Fprintf(&b, "  result %s: %s\n", safetext.Line(r.ID), safetext.Line(Result(StepDone{Obs: Observation{Results: []ActionResult{r}}}, r.ID)))
		}
	}
	if len(findings) == 0 {
		b.WriteString("\nverdict: pass\n")
	} else {
		b.WriteString("\nfindings:\n")
		for _, f := range findings {
			fmt.Fprintf(&b, "  %s\n", safetext.Line(fmt.Sprint(f)))
		}
		b.WriteString("verdict: fail\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeRequest(b *strings.Builder, q ModelRequest) {
	var names []string
	for _, s := range q.Sections {
		names = append(names, s.Name)
	}
	notices := 0
	for _, m := range q.Messages {
		if m.IsPlanNotice() {
			notices++
		}
	}
	fmt.Fprintf(b, "       => request at %d: sections [%s], tools [%s], %d messages (%d notices)\n", q.At, safetext.Line(strings.Join(names, " ")), safetext.Line(strings.Join(q.Tools, " ")), len(q.Messages), notices)
}

func errText(e string) string {
	if e == "" {
		return ""
	}
	return " error: " + safetext.Line(e)
}

func short(s string) string {
	if len(s) > 100 {
		return s[:97] + "..."
	}
	return s
}
