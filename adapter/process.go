package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/plankit/plankit/internal/safetext"
)

// lineEvent is one line the adapter wrote on stdout, or the head of a
// line that grew past the limit.
type lineEvent struct {
	data     []byte
	oversize bool
}

// lineReader frames the adapter's stdout into lines. It is read by the
// goroutine that waits for a reply, with the request's deadline, so a
// reply costs no hand-over between goroutines. A line longer than the
// limit is reported as soon as it crosses the limit, before its newline.
type lineReader struct {
	r   *os.File
	max int
	buf []byte // read but not yet returned
	tmp []byte
}

func newLineReader(r *os.File, max int) *lineReader {
	return &lineReader{r: r, max: max, tmp: make([]byte, 64<<10)}
}

// next returns the next line (without its newline). err is
// os.ErrDeadlineExceeded at the deadline, io.EOF when the write end is
// closed (the process exited).
func (l *lineReader) next(deadline time.Time) (lineEvent, error) {
	scanned := 0
	for {
		if i := bytes.IndexByte(l.buf[scanned:], '\n'); i >= 0 {
			end := scanned + i
			if end > l.max {
				return l.oversize(), nil
			}
			line := bytes.Clone(l.buf[:end])
			l.buf = l.buf[:copy(l.buf, l.buf[end+1:])]
			return lineEvent{data: line}, nil
		}
		scanned = len(l.buf)
		if len(l.buf) > l.max {
			return l.oversize(), nil
		}
		l.r.SetReadDeadline(deadline)
		n, err := l.r.Read(l.tmp)
		l.buf = append(l.buf, l.tmp[:n]...)
		if n == 0 && err != nil {
			return lineEvent{}, err
		}
	}
}

// oversize reports the head of an oversized line; the reader is not used
// again (the process is ended).
func (l *lineReader) oversize() lineEvent {
	head := bytes.Clone(l.buf[:min(len(l.buf), quoteLimit)])
	l.buf = nil
	return lineEvent{data: head, oversize: true}
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

// String is the kept tail, on one line for an error message.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if len(b) > t.max {
		b = b[len(b)-t.max:]
	}
	// Outside text: its line breaks escaped too (safetext).
	text := safetext.Line(strings.TrimRight(string(b), "\n"))
	if text == "" {
		return "(no stderr output)"
	}
	head := "stderr"
	if t.total > int64(len(b)) {
		head = fmt.Sprintf("stderr, last %d of %d bytes", len(b), t.total)
	}
	return head + ": " + text
}

// process is one running adapter process, the leader of its own process
// group (on unix): whatever it starts belongs to the group, and the group
// is ended with it. On Linux it runs under a guard (guard_linux.go), which
// also ends the descendants that left the group, and ends them all when
// plankit dies; elsewhere cmd is the adapter itself.
type process struct {
	cmd *exec.Cmd
	// g is the guard the process runs under, run its number there.
	g       *guard
	run     int
	adapter int // the adapter's pid
	stdin   *os.File
	out     *lineReader
	stderr  *tail
	exited  chan struct{}
	waitErr error
	// seq is the last request seq sent to this process.
	seq int
	// reuse: the implementation declared that a start request resets it.
	reuse bool
	// enc is reused to encode each request.
	enc *lineEncoder
}

// lineEncoder encodes values appended to a reusable buffer, with
// json.Marshal's escaping.
type lineEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func newLineEncoder() *lineEncoder {
	e := &lineEncoder{}
	e.enc = json.NewEncoder(&e.buf)
	return e
}

// Reset makes prefix the start of the next encoding.
func (e *lineEncoder) Reset(prefix []byte) {
	e.buf.Reset()
	e.buf.Write(prefix)
}

// Encode appends v and a newline.
func (e *lineEncoder) Encode(v any) error { return e.enc.Encode(v) }

// Finish puts closer before the newline Encode wrote and returns the
// line, newline included; it is valid until the next Reset.
func (e *lineEncoder) Finish(closer byte) []byte {
	b := e.buf.Bytes()
	b[len(b)-1] = closer
	return append(b, '\n')
}

// DefaultKillGrace is how long an adapter process group has between
// SIGTERM and SIGKILL when plankit ends it.
const DefaultKillGrace = 2 * time.Second

// stderrDrain bounds the wait for the adapter's stderr to reach its end
// after the group ended (a process that left the group may hold it open).
const stderrDrain = time.Second

// guardExit bounds how long plankit waits for an adapter's guard to end
// everything after it asked (guard_linux.go) before it kills the guard
// itself.
const guardExit = 10 * time.Second

// spawn starts the adapter command, under a guard of guards where there
// are guards.
func spawn(o Options, guards *guardSet) (*process, error) {
	p := &process{stderr: &tail{max: o.StderrTail}, exited: make(chan struct{}), enc: newLineEncoder()}
	// Our own pipes rather than cmd.StdinPipe and friends: the write end of
	// stdin and the read end of stdout support deadlines, so a request to
	// an adapter that stopped reading times out without a goroutine per
	// request, and the goroutine waiting for a reply reads stdout
	// directly. Stderr is ours too, so that the wait ends when the process
	// exits (not when its last child closes stderr) and the group can be
	// ended at that moment. Under a guard, the guard makes the pipes and
	// plankit opens its ends.
	var (
		g               *guard
		inW, outR, errR *os.File
		err             error
	)
	if guards != nil {
		if g, err = guards.get(); err != nil {
			return nil, err
		}
		if p.run, p.adapter, inW, outR, errR, err = g.start(); err != nil {
			guards.put(g)
			return nil, err
		}
	} else if inW, outR, errR, err = p.startDirect(o); err != nil {
		return nil, err
	}
	p.stdin, p.out = inW, newLineReader(outR, o.MaxLine)
	p.g = g
	drained := make(chan struct{})
	go func() {
		io.Copy(p.stderr, errR)
		close(drained)
	}()
	go func() {
		var err error
		healthy := true
		if g != nil {
			// The guard reports the exit once the adapter's whole tree
			// has been ended.
			err, healthy = g.wait(p.run)
		} else {
			err = p.cmd.Wait()
			// The adapter has exited: nothing of its group may outlive it.
			killGroup(p.cmd, syscall.SIGKILL)
		}
		select {
		case <-drained:
		case <-time.After(stderrDrain):
		}
		errR.Close()
		p.waitErr = err
		close(p.exited)
		if g != nil {
			if !healthy {
				g.close()
			}
			guards.put(g)
		}
	}()
	return p, nil
}

// startDirect starts the adapter as plankit's own child, with no guard,
// and returns plankit's ends of its pipes.
func (p *process) startDirect(o Options) (inW, outR, errR *os.File, err error) {
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		if r, w, err = os.Pipe(); err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	inR, inW, err := pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	outR, outW, err := pipe()
	if err != nil {
		closeAll()
		return nil, nil, nil, err
	}
	errR, errW, err := pipe()
	if err != nil {
		closeAll()
		return nil, nil, nil, err
	}
	p.cmd = exec.Command(o.Command[0], o.Command[1:]...)
	setProcessGroup(p.cmd)
	p.cmd.Dir = o.Dir
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, errW
	if err := p.cmd.Start(); err != nil {
		closeAll()
		return nil, nil, nil, err
	}
	inR.Close()
	outW.Close()
	errW.Close()
	p.adapter = p.cmd.Process.Pid
	return inW, outR, errR, nil
}

// kill ends the process group at once (SIGKILL) and waits until the
// process is reaped. It is for processes that failed (hung, broke the
// protocol) and for those that were given their chance to exit.
func (p *process) kill() {
	select {
	case <-p.exited:
	default:
		p.signal(syscall.SIGKILL)
		if p.g != nil {
			select {
			case <-p.exited:
			case <-time.After(guardExit):
				// The guard did not end the tree: kill the guard (its
				// adapter dies with it, Pdeathsig).
				p.g.kill()
			}
		}
		<-p.exited
	}
	p.stdin.Close()
	p.out.r.Close()
}

// terminate ends the process group politely: SIGTERM to the group, then
// SIGKILL when the process has not exited within grace. It waits until
// the process is reaped; the rest of the group is killed when it is.
func (p *process) terminate(grace time.Duration) {
	select {
	case <-p.exited:
	default:
		p.signal(syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(grace):
		}
	}
	p.kill()
}

// signal sends sig to the adapter's process group; through a guard,
// SIGKILL has the guard kill the group and every descendant left.
func (p *process) signal(sig syscall.Signal) {
	if p.g != nil {
		p.g.signal(p.run, sig)
		return
	}
	killGroup(p.cmd, sig)
}

// pid is the adapter's process id (not its guard's).
func (p *process) pid() int { return p.adapter }

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
