package adapter

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// maxQueued bounds the reply lines read but not yet consumed. The kit
// sends one request at a time, so more than a few queued lines means the
// adapter writes lines nobody asked for.
const maxQueued = 64

// lineEvent is one line the adapter wrote on stdout, or the moment a line
// grew past the limit.
type lineEvent struct {
	data     []byte
	oversize bool
}

// lineWriter frames the adapter's stdout into lines. It never blocks the
// process's output: lines queue up to maxQueued, a line longer than the
// limit is reported as soon as it crosses the limit and the rest of it is
// discarded.
type lineWriter struct {
	max int

	mu         sync.Mutex
	partial    []byte
	discarding bool
	queue      []lineEvent
	overflow   bool
	ready      chan struct{}
}

func newLineWriter(max int) *lineWriter {
	return &lineWriter{max: max, ready: make(chan struct{}, 1)}
}

func (w *lineWriter) Write(p []byte) (int, error) {
	n := len(p)
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if !w.discarding {
			if len(w.partial)+len(chunk) > w.max {
				head := append(w.partial, chunk...)
				w.push(lineEvent{data: bytes.Clone(head[:min(len(head), quoteLimit)]), oversize: true})
				w.partial, w.discarding = nil, true
			} else {
				w.partial = append(w.partial, chunk...)
			}
		}
		if i < 0 {
			break
		}
		if !w.discarding {
			w.push(lineEvent{data: w.partial})
		}
		w.partial, w.discarding = nil, false
		p = p[i+1:]
	}
	return n, nil
}

func (w *lineWriter) push(e lineEvent) {
	if len(w.queue) >= maxQueued {
		w.overflow = true
		return
	}
	w.queue = append(w.queue, e)
	select {
	case w.ready <- struct{}{}:
	default:
	}
}

// next takes the oldest queued line.
func (w *lineWriter) next() (lineEvent, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.queue) == 0 {
		return lineEvent{}, false
	}
	e := w.queue[0]
	w.queue = w.queue[1:]
	return e, true
}

// tail keeps the last bytes written to it (the adapter's stderr) and
// counts the rest. It never blocks and its memory is bounded.
type tail struct {
	max   int
	mu    sync.Mutex
	buf   []byte
	total int64
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(p))
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return len(p), nil
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

// String is the kept tail, indented for an error message.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if len(b) > t.max {
		b = b[len(b)-t.max:]
	}
	text := strings.TrimRight(strings.ToValidUTF8(string(b), "?"), "\n")
	if text == "" {
		return "(no stderr output)"
	}
	head := "stderr"
	if t.total > int64(len(b)) {
		head = fmt.Sprintf("stderr, last %d of %d bytes", len(b), t.total)
	}
	return head + ":\n    " + strings.ReplaceAll(text, "\n", "\n    ")
}

// process is one running adapter process.
type process struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	out     *lineWriter
	stderr  *tail
	exited  chan struct{}
	waitErr error
}

// spawn starts the adapter command.
func spawn(o Options) (*process, error) {
	cmd := exec.Command(o.Command[0], o.Command[1:]...)
	cmd.Dir = o.Dir
	p := &process{cmd: cmd, out: newLineWriter(o.MaxLine), stderr: &tail{max: o.StderrTail}, exited: make(chan struct{})}
	cmd.Stdout = p.out
	cmd.Stderr = p.stderr
	cmd.WaitDelay = time.Second
	setProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	p.stdin = stdin
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// kill ends the process (and its process group) and waits until it is
// reaped.
func (p *process) kill() {
	select {
	case <-p.exited:
		return
	default:
	}
	killGroup(p.cmd)
	p.stdin.Close()
	<-p.exited
}

// alive reports whether the process has not exited.
func (p *process) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// exitStatus describes how the process ended.
func (p *process) exitStatus() string {
	if p.waitErr == nil {
		return "exit status 0"
	}
	return p.waitErr.Error()
}
