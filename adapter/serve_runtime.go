package adapter

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/sim"
)

// ServeRuntime answers the runtime protocol (docs/runtime-protocol.md) on
// in and out with rt, one request at a time, until stop or the end of in.
// With validate, a request that breaks the strict schemas gets an error
// reply.
func ServeRuntime(in io.Reader, out io.Writer, rt loop.Runtime, validate bool) error {
	srv, err := NewRuntimeServer(rt, validate)
	if err != nil {
		return err
	}
	return srv.serve(in, out)
}

// NewRuntimeServer returns a runtime-protocol server for rt: each method of
// loop.Runtime is the protocol's method of that name (dispatcher, as the
// adapter protocol's server), and start checks the level and the protocol.
// An unsupported feature (sim.ErrUnsupported) becomes an unsupported reply.
func NewRuntimeServer(rt loop.Runtime, validate bool) (*Server, error) {
	dispatch := dispatcher(rt, map[string]handler{
		RuntimeStart: func(params json.RawMessage) (any, error) {
			return call(params, func(p RuntimeStartParams) (RuntimeStartResult, error) {
				if p.Level != RuntimeLevel {
					return RuntimeStartResult{}, fmt.Errorf("this is a runtime: it speaks the runtime protocol (start with \"level\": %q; use --level runtime)", RuntimeLevel)
				}
				if err := checkProtocol(p.Protocol, "this runtime"); err != nil {
					return RuntimeStartResult{}, err
				}
				id, err := rt.Start()
				if err != nil {
					return RuntimeStartResult{}, err
				}
				return RuntimeStartResult{Protocol: ProtocolVersion, Level: RuntimeLevel, Minor: RuntimeProtocolMinor, Name: id.Name, Version: id.Version, Language: id.Language, Choices: id.Choices, Components: id.Components, Capabilities: id.Capabilities}, nil
			})
		},
	})
	return newServer(func(req Request) (any, error) {
		res, err := dispatch(req)
		if err != nil && errors.Is(err, sim.ErrUnsupported) {
			var unsup *UnsupportedError
			if !errors.As(err, &unsup) {
				err = &UnsupportedError{Method: req.Method, Seq: req.Seq, Message: err.Error()}
			}
		}
		return res, err
	}, validate, compiledRuntimeSchemas)
}
