package adapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/plankit/plankit/internal/third_party/jsonschema"
	"github.com/plankit/plankit/sim"
)

// request sends one request of method with params and returns its result
// decoded as R.
func request[R any](p *Port, method string, params any) (R, error) {
	var out R
	err := p.call(method, params, &out)
	return out, err
}

// call sends one request and decodes its result into out.
func (p *Port) call(method string, params, out any) error {
	if p.broken != nil {
		return p.broken
	}
	if p.proc == nil {
		return errNotStarted
	}
	pr := p.proc
	pr.seq++
	seq := pr.seq
	// One encoding per request: the params are encoded into the line,
	// which is framed by hand ({"seq":N,"method":"M","params":P}, the
	// bytes json.Marshal of a Request gives).
	var head [64]byte
	prefix := append(head[:0], `{"seq":`...)
	prefix = strconv.AppendInt(prefix, int64(seq), 10)
	prefix = append(prefix, `,"method":"`...)
	prefix = append(prefix, method...)
	prefix = append(prefix, `","params":`...)
	pr.enc.Reset(prefix)
	if err := pr.enc.Encode(params); err != nil {
		return fmt.Errorf("adapter: encoding %s params: %w", method, err)
	}
	buf := pr.enc.Finish('}')
	line := buf[:len(buf)-1]
	if p.pool.opts.Validate {
		if err := checkRequest(p.pool.schemas, line); err != nil {
			return fmt.Errorf("adapter: the kit's own request seq %d %q fails the protocol schema (a kit bug): %v; request: %s", seq, method, err, quote(line))
		}
	}
	timeout, flag := p.pool.opts.Timeout, "--timeout"
	if method == MethodStart {
		timeout, flag = p.pool.opts.StartTimeout, "--start-timeout"
	}
	deadline := time.Now().Add(timeout)
	pr.stdin.SetWriteDeadline(deadline)
	if _, err := pr.stdin.Write(buf); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			pr.kill()
			return p.fail(&RequestError{Method: method, Seq: seq, Kind: KindTimeout,
				Detail: fmt.Sprintf("the request could not be written within %v (%s): the adapter does not read its stdin; the process was killed; request: %s; %s", timeout, flag, quote(line), pr.stderr)})
		}
		// Most likely the process has exited; report that if it has.
		select {
		case <-pr.exited:
		case <-time.After(time.Until(deadline)):
		}
		if !pr.alive() {
			return p.fail(p.exitedError(method, seq, line))
		}
		return p.fail(&RequestError{Method: method, Seq: seq, Kind: KindIO, Detail: "cannot write the request: " + err.Error()})
	}
	ev, err := pr.out.next(deadline)
	switch {
	case err == nil:
		return p.reply(method, seq, line, ev, out)
	case errors.Is(err, os.ErrDeadlineExceeded):
		pr.kill()
		return p.fail(&RequestError{Method: method, Seq: seq, Kind: KindTimeout,
			Detail: fmt.Sprintf("no reply within %v (%s); the process was killed; request: %s; %s", timeout, flag, quote(line), pr.stderr)})
	}
	// End of stdout: the process is exiting; give it until the deadline.
	select {
	case <-pr.exited:
		return p.fail(p.exitedError(method, seq, line))
	case <-time.After(time.Until(deadline)):
		pr.kill()
		return p.fail(&RequestError{Method: method, Seq: seq, Kind: KindExited,
			Detail: fmt.Sprintf("the adapter closed its stdout (%v) without replying; the process was killed; request: %s; %s", err, quote(line), pr.stderr)})
	}
}

func (p *Port) exitedError(method string, seq int, line []byte) error {
	pr := p.proc
	return &RequestError{Method: method, Seq: seq, Kind: KindExited,
		Detail: fmt.Sprintf("the adapter process exited (%s) before replying; request: %s; %s", pr.exitStatus(), quote(line), pr.stderr)}
}

// reply interprets one reply line.
func (p *Port) reply(method string, seq int, request []byte, ev lineEvent, out any) error {
	protocol := func(what string) error {
		return p.fail(&RequestError{Method: method, Seq: seq, Kind: KindProtocol, Detail: fmt.Sprintf(
			"protocol error: %s; request: %s; reply: %s; expected: %s", what, quote(request), quote(ev.data), p.pool.schemas.expectedShape(seq, method))})
	}
	if ev.oversize {
		return protocol(fmt.Sprintf("reply line longer than the limit of %d bytes (cut off; see docs/adapter-protocol.md#limits)", p.pool.opts.MaxLine))
	}
	rest, fast := p.pool.valid.lookup(method, seq, ev.data)
	getOut, isGet := out.(*sim.GetReply)
	isGet = isGet && method == MethodGet
	if fast && isGet {
		// A get reply seen before: its result is decoded already.
		if g, ok := p.pool.valid.get(rest); ok {
			if g.Pending != nil {
				g.Pending = new(*g.Pending) // the caller's own
			}
			*getOut = g
			return nil
		}
	}
	if !fast {
		if err := p.checkReply(method, seq, ev.data, protocol); err != nil {
			return err
		}
		p.pool.valid.add(method, rest)
	}
	// One typed decoding, straight into out.
	r := replyInto{Result: out}
	if err := json.Unmarshal(ev.data, &r); err != nil {
		return protocol("the reply does not decode: " + err.Error())
	}
	switch {
	case r.Error != nil:
		return &RequestError{Method: method, Seq: seq, Kind: KindReported, Detail: "the implementation failed to handle the request: " + r.Error.Message}
	case r.Unsupported != nil:
		return &UnsupportedError{Method: method, Seq: seq, Message: r.Unsupported.Message}
	}
	if isGet {
		p.pool.valid.addGet(rest, *getOut)
	}
	return nil
}

// checkReply checks a reply's seq and its shape against the protocol's
// schemas, from one generic parse.
func (p *Port) checkReply(method string, seq int, data []byte, protocol func(string) error) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return protocol("the reply is not valid JSON: " + err.Error())
	}
	m, ok := v.(map[string]any)
	if !ok {
		return protocol("the reply is not a JSON object")
	}
	if got, ok := m["seq"].(json.Number); !ok || got.String() != strconv.Itoa(seq) {
		return protocol(fmt.Sprintf("the reply has seq %s, want seq %d (replies echo the request's seq, one reply per request, in order)", quote(rawSeq(m["seq"])), seq))
	}
	if err := checkReplyValue(p.pool.schemas, method, v); err != nil {
		return protocol("the reply does not match the protocol schema: " + err.Error())
	}
	return nil
}

// replyInto decodes a reply whose result goes straight into the value
// Result points to.
type replyInto struct {
	Result      any           `json:"result"`
	Error       *ReplyMessage `json:"error"`
	Unsupported *ReplyMessage `json:"unsupported"`
}

// rawSeq renders a reply's seq member for a message.
func rawSeq(v any) []byte {
	if v == nil {
		return []byte("(missing)")
	}
	b, _ := json.Marshal(v)
	return b
}
