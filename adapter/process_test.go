package adapter

import (
	"strings"
	"testing"
)

func drain(w *lineWriter) []lineEvent {
	var out []lineEvent
	for {
		e, ok := w.next()
		if !ok {
			return out
		}
		out = append(out, e)
	}
}

func TestLineWriterFramesAcrossWrites(t *testing.T) {
	w := newLineWriter(16)
	for _, chunk := range []string{`{"se`, `q":1}` + "\n" + `{"seq":2}`, "\n\n", `{"seq":3}` + "\n"} {
		if n, err := w.Write([]byte(chunk)); n != len(chunk) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	var got []string
	for _, e := range drain(w) {
		if e.oversize {
			t.Fatalf("unexpected oversize %q", e.data)
		}
		got = append(got, string(e.data))
	}
	if want := []string{`{"seq":1}`, `{"seq":2}`, ``, `{"seq":3}`}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("lines %q, want %q", got, want)
	}
}

// An oversized line is reported as soon as it crosses the limit, before
// its newline arrives, and the rest of it is discarded.
func TestLineWriterCutsOversizedLines(t *testing.T) {
	w := newLineWriter(8)
	w.Write([]byte("0123456789"))
	ev := drain(w)
	if len(ev) != 1 || !ev[0].oversize || string(ev[0].data) != "0123456789" {
		t.Fatalf("got %+v", ev)
	}
	w.Write([]byte(strings.Repeat("x", 100) + "\nok\n"))
	ev = drain(w)
	if len(ev) != 1 || ev[0].oversize || string(ev[0].data) != "ok" {
		t.Fatalf("after the cut got %+v", ev)
	}
}

func TestLineWriterBoundsTheQueue(t *testing.T) {
	w := newLineWriter(8)
	w.Write([]byte(strings.Repeat("x\n", maxQueued+10)))
	if got := len(drain(w)); got != maxQueued || !w.overflow {
		t.Fatalf("queued %d, overflow %v", got, w.overflow)
	}
}

func TestTailKeepsTheEnd(t *testing.T) {
	tl := &tail{max: 10}
	if got := tl.String(); got != "(no stderr output)" {
		t.Fatalf("empty tail %q", got)
	}
	for i := 0; i < 100; i++ {
		tl.Write([]byte("abc\n"))
	}
	tl.Write([]byte("the end"))
	got := tl.String()
	if !strings.HasPrefix(got, "stderr, last 10 of 407 bytes:") || !strings.HasSuffix(got, "the end") || len(tl.buf) > 20 {
		t.Fatalf("tail %q (buffer %d)", got, len(tl.buf))
	}
	tl.Write([]byte(strings.Repeat("y", 50)))
	if got := tl.String(); !strings.HasSuffix(got, strings.Repeat("y", 10)) {
		t.Fatalf("tail after a big write %q", got)
	}
}
