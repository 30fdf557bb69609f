package adapter

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/plankit/plankit/sim"
)

// ServeOptions configure Serve. The capabilities the start reply announces
// are those the port's Start declares (sim.Identity's Capabilities).
type ServeOptions struct {
	// Validate checks every request against the strict schemas and answers
	// an invalid one with an error reply.
	Validate bool
}

// Serve answers the adapter protocol on in and out with port, one request
// at a time, until a stop request (after which it replies and returns nil)
// or the end of in (nil). A line that is not a request (not JSON, or
// longer than MaxLine) ends it with an error wrapping ErrBadRequest; a
// read or write that fails, with another error. Errors of the port become error replies.
func Serve(in io.Reader, out io.Writer, port sim.Port, opts ServeOptions) error {
	srv, err := NewServer(port, opts)
	if err != nil {
		return err
	}
	return srv.serve(in, out)
}

// serve answers request lines from in on out until stop or end of input.
func (srv *Server) serve(in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	w := bufio.NewWriter(out)
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		reply, stop, err := srv.Handle(line)
		if err != nil {
			return err
		}
		w.Write(reply)
		w.WriteByte('\n')
		if err := w.Flush(); err != nil {
			return err
		}
		if stop {
			return nil
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("serve: %w: a request line longer than the limit of %d bytes (docs/adapter-protocol.md#limits)", ErrBadRequest, MaxLine)
	} else if err != nil {
		return fmt.Errorf("serve: reading requests: %w", err)
	}
	return nil
}

// Server answers the requests of one protocol, the adapter protocol or the
// runtime protocol, one line at a time.
type Server struct {
	// dispatch runs one request and returns its result.
	dispatch func(Request) (any, error)
	// strict, when set, are the schemas every request is checked against.
	strict *schemaSet
	// enc encodes each result reply, reused.
	enc *lineEncoder
}

// NewServer returns an adapter-protocol server for port: each method of
// sim.Port is the protocol's method of that name (dispatcher), start
// checks the protocol and announces the capabilities, assemble lists its
// sections and tools even when empty, and preTool asks the port's tool
// gate (sim.ToolGate) if it has one.
func NewServer(port sim.Port, opts ServeOptions) (*Server, error) {
	return newServer(dispatcher(port, map[string]handler{
		MethodStart: func(params json.RawMessage) (any, error) {
			return call(params, func(p StartParams) (StartResult, error) {
				if err := checkProtocol(p.Protocol, "this implementation"); err != nil {
					return StartResult{}, err
				}
				id, err := port.Start()
				if err != nil {
					return StartResult{}, err
				}
				return StartResult{Protocol: ProtocolVersion, Minor: ProtocolMinor, Name: id.Name, Version: id.Version, Language: id.Language, Choices: id.Choices, Capabilities: WireCapabilities(id.Capabilities)}, nil
			})
		},
		MethodAssemble: func(params json.RawMessage) (any, error) {
			return call(params, func(p sim.AssembleRequest) (sim.AssembleReply, error) {
				r, err := port.Assemble(p)
				r.Sections, r.Tools = nonNil(r.Sections), nonNil(r.Tools)
				return r, err
			})
		},
		MethodPreTool: func(params json.RawMessage) (any, error) {
			return call(params, func(p sim.PreToolRequest) (sim.PreToolReply, error) {
				if gate, ok := port.(sim.ToolGate); ok {
					return gate.PreTool(p)
				}
				return sim.PreToolReply{Decision: sim.ToolAllow}, nil // a port without a gate allows every call
			})
		},
	}), opts.Validate, compiledSchemas)
}

// newServer returns a server that answers with dispatch and, with
// validate, checks every request against the strict set of schemas.
func newServer(dispatch func(Request) (any, error), validate bool, schemas protocolSchemas) (*Server, error) {
	s := &Server{dispatch: dispatch}
	if validate {
		var err error
		if s.strict, _, err = schemas(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// ErrBadRequest is a line the server received that is not a JSON request:
// the peer broke the protocol (`plankit serve` exits 2 on it).
var ErrBadRequest = errors.New("request is not JSON")

// Handle answers one request line with one reply line (without its
// newline); stop reports a stop request. A line that is not a JSON request
// is an error wrapping ErrBadRequest. The reply is valid until the next
// call.
func (s *Server) Handle(line []byte) (reply []byte, stop bool, err error) {
	req, framed := splitRequest(line)
	if !framed {
		if err := json.Unmarshal(line, &req); err != nil {
			return nil, false, fmt.Errorf("serve: %w: %v: %s", ErrBadRequest, err, quote(line))
		}
	}
	r := Reply{Seq: req.Seq}
	var result any
	if s.strict != nil {
		err = checkRequest(s.strict, line)
	}
	if err == nil {
		result, err = s.dispatch(req)
	}
	var unsup *UnsupportedError
	switch {
	case errors.As(err, &unsup):
		r.Unsupported = &ReplyMessage{Message: unsup.Message}
	case err != nil:
		r.Error = &ReplyMessage{Message: err.Error()}
	default:
		// One encoding: the result is encoded into the reply line,
		// framed by hand as {"seq":N,"result":R}.
		var head [32]byte
		prefix := append(head[:0], `{"seq":`...)
		prefix = strconv.AppendInt(prefix, int64(req.Seq), 10)
		prefix = append(prefix, `,"result":`...)
		if s.enc == nil {
			s.enc = newLineEncoder()
			s.enc.enc.SetEscapeHTML(false)
		}
		s.enc.Reset(prefix)
		if err := s.enc.Encode(result); err != nil {
			return nil, false, err
		}
		line := s.enc.Finish('}')
		return line[:len(line)-1], req.Method == MethodStop, nil
	}
	data, err := marshal(r)
	return data, req.Method == MethodStop, err
}

// splitRequest reads a request line framed as the kit frames it,
// {"seq":N,"method":"M","params":P}, without decoding it: the params are
// decoded once, by the method's handler. ok is false for any other
// framing, which is decoded the general way; a framed line is taken only
// when P is valid JSON, so both ways read every line alike.
func splitRequest(line []byte) (req Request, ok bool) {
	rest, found := bytes.CutPrefix(line, []byte(`{"seq":`))
	if !found {
		return req, false
	}
	n := 0
	for n < len(rest) && n < 18 && rest[n] >= '0' && rest[n] <= '9' {
		req.Seq = req.Seq*10 + int(rest[n]-'0')
		n++
	}
	if n == 0 || (n > 1 && rest[0] == '0') {
		return req, false
	}
	if rest, found = bytes.CutPrefix(rest[n:], []byte(`,"method":"`)); !found {
		return req, false
	}
	m := 0
	for m < len(rest) && (rest[m] >= 'a' && rest[m] <= 'z' || rest[m] >= 'A' && rest[m] <= 'Z') {
		m++
	}
	method := rest[:m]
	if rest, found = bytes.CutPrefix(rest[m:], []byte(`","params":`)); !found {
		return req, false
	}
	params, found := bytes.CutSuffix(rest, []byte("}"))
	if !found || !json.Valid(params) {
		return req, false
	}
	req.Method, req.Params = string(method), params
	return req, true
}

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func decode(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("bad params: %v", err)
	}
	return nil
}

// call decodes a request's params as P and calls f with them.
func call[P, R any](params json.RawMessage, f func(P) (R, error)) (any, error) {
	var p P
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	return f(p)
}

// checkProtocol refuses a start request for a protocol version other than
// ProtocolVersion; speaker names who answers.
func checkProtocol(protocol int, speaker string) error {
	if protocol != ProtocolVersion {
		return fmt.Errorf("protocol %d is not supported; %s speaks protocol %d", protocol, speaker, ProtocolVersion)
	}
	return nil
}
