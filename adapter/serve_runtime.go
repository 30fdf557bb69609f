package adapter

import (
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

// NewRuntimeServer returns a runtime-protocol server for rt.
func NewRuntimeServer(rt loop.Runtime, validate bool) (*Server, error) {
	return newServer(func(req Request) (any, error) { return dispatchRuntime(rt, req) }, validate, compiledRuntimeSchemas)
}

// dispatchRuntime runs one runtime-protocol request against rt. An
// unsupported feature (sim.ErrUnsupported) becomes an unsupported reply.
func dispatchRuntime(rt loop.Runtime, req Request) (any, error) {
	res, err := runtimeCall(rt, req)
	if err != nil && errors.Is(err, sim.ErrUnsupported) {
		var unsup *UnsupportedError
		if !errors.As(err, &unsup) {
			err = &UnsupportedError{Method: req.Method, Seq: req.Seq, Message: err.Error()}
		}
	}
	return res, err
}

func runtimeCall(rt loop.Runtime, req Request) (any, error) {
	switch req.Method {
	case RuntimeStart:
		return call(req.Params, func(p RuntimeStartParams) (RuntimeStartResult, error) {
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
	case RuntimeLoad:
		return call(req.Params, rt.Load)
	case RuntimeOpen:
		return call(req.Params, rt.Open)
	case RuntimeTurn:
		return call(req.Params, rt.Turn)
	case RuntimeSet:
		return call(req.Params, rt.Set)
	case RuntimeGet:
		return call(req.Params, rt.Get)
	case RuntimeCommand:
		return call(req.Params, rt.Command)
	case RuntimeAppend:
		return call(req.Params, rt.Append)
	case RuntimeFault:
		return callEmpty(req.Params, rt.Fault)
	case RuntimeReload:
		return rt.Reload()
	case RuntimeUnload:
		return Empty{}, rt.Unload()
	case RuntimeStop:
		return Empty{}, rt.Stop()
	}
	return nil, &UnsupportedError{Method: req.Method, Seq: req.Seq, Message: fmt.Sprintf("unknown method %q", req.Method)}
}
