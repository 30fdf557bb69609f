package adapter

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

func pipeReader(t *testing.T, max int) (*lineReader, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return newLineReader(r, max), w
}

func soon() time.Time { return time.Now().Add(2 * time.Second) }

func TestLineReaderFramesAcrossWrites(t *testing.T) {
	l, w := pipeReader(t, 16)
	go func() {
		for _, chunk := range []string{`{"se`, `q":1}` + "\n" + `{"seq":2}`, "\n\n", `{"seq":3}` + "\n"} {
			w.Write([]byte(chunk))
			time.Sleep(time.Millisecond)
		}
		w.Close()
	}()
	var got []string
	for {
		e, err := l.next(soon())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil || e.oversize {
			t.Fatalf("next: %+v %v", e, err)
		}
		got = append(got, string(e.data))
	}
	if want := []string{`{"seq":1}`, `{"seq":2}`, ``, `{"seq":3}`}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("lines %q, want %q", got, want)
	}
}

// An oversized line is reported as soon as it crosses the limit, before
// its newline arrives.
func TestLineReaderCutsOversizedLines(t *testing.T) {
	l, w := pipeReader(t, 8)
	w.Write([]byte("0123456789"))
	e, err := l.next(soon())
	if err != nil || !e.oversize || string(e.data) != "0123456789" {
		t.Fatalf("got %+v %v", e, err)
	}
	l, w = pipeReader(t, 8)
	w.Write([]byte("0123456789\nok\n"))
	if e, err := l.next(soon()); err != nil || !e.oversize {
		t.Fatalf("a complete long line: %+v %v", e, err)
	}
}

func TestLineReaderDeadline(t *testing.T) {
	l, w := pipeReader(t, 8)
	w.Write([]byte("partial"))
	_, err := l.next(time.Now().Add(20 * time.Millisecond))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("want the deadline, got %v", err)
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
