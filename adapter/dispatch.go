package adapter

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
)

// handler answers one request's params.
type handler func(params json.RawMessage) (any, error)

// dispatcher answers a protocol's requests with the methods of an
// implementation of the interface I, which is what the protocol speaks:
// a request's method names one method of I (start names Start, exitTool
// ExitTool), its params are decoded as the method's argument and the
// method's result is the reply's (an empty result for a method that
// returns only an error). special answers the methods a protocol answers
// otherwise (start, and what it adds to a method's result); a method I
// does not have, or one only the implementation's concrete type has, is
// unsupported. Both levels' servers are one: the adapter protocol's over
// sim.Port, the runtime protocol's over loop.Runtime.
func dispatcher[I any](impl I, special map[string]handler) func(Request) (any, error) {
	methods := handlers(impl, special)
	return func(req Request) (any, error) {
		if h, ok := methods[req.Method]; ok {
			return h(req.Params)
		}
		return nil, &UnsupportedError{Method: req.Method, Seq: req.Seq, Message: fmt.Sprintf("unknown method %q", req.Method)}
	}
}

// handlers are the handlers of impl's methods as I has them, by their
// protocol names, with special's in place of or beside them.
func handlers[I any](impl I, special map[string]handler) map[string]handler {
	methods := map[string]handler{}
	t := reflect.TypeFor[I]()
	v := reflect.ValueOf(impl)
	for i := range t.NumMethod() {
		name := t.Method(i).Name
		methods[methodName(name)] = methodHandler(v.MethodByName(name))
	}
	for name, h := range special {
		methods[name] = h
	}
	return methods
}

// errorType is the type of a method's error result.
var errorType = reflect.TypeFor[error]()

// methodHandler calls m with its one argument decoded from the params (or
// none), and returns its result and error (an empty result for a method
// that returns only an error).
func methodHandler(m reflect.Value) handler {
	mt := m.Type()
	return func(params json.RawMessage) (any, error) {
		var in []reflect.Value
		if mt.NumIn() == 1 {
			arg := reflect.New(mt.In(0))
			if err := decode(params, arg.Interface()); err != nil {
				return nil, err
			}
			in = append(in, arg.Elem())
		}
		out := m.Call(in)
		errOut := out[len(out)-1]
		var err error
		if mt.Out(mt.NumOut()-1) == errorType && !errOut.IsNil() {
			err = errOut.Interface().(error)
		}
		if len(out) == 1 {
			return Empty{}, err
		}
		return out[0].Interface(), err
	}
}

// methodName is the protocol's name of an interface method: its Go name
// with the first letter lowered.
func methodName(goName string) string {
	r, n := utf8.DecodeRuneInString(goName)
	return strings.ToLower(string(r)) + goName[n:]
}
