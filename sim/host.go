package sim

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Hooks let the host run code inside a step, as host code does in a real
// loop: while the model streams a response, while a host tool executes.
// The runtime level (package loop) plays scripted host actions this way.
// A hook may call Do for agent-scoped actions (set, get, command, fault)
// and AppendEvent; it must not start or end steps or turns.
type Hooks struct {
	// Requested runs after a request was sent (its header logged, unless
	// Headers is HeadersOnChange and it did not change), before
	// the model's output is played; failed tells whether the request fails.
	// A same-step retry sends the step's request again without a header;
	// Requested runs for it too, with that request.
	Requested func(agent string, q Request, failed bool) error
	// HostTool runs while the call-th (0-based) tool call of the step, a
	// host tool, executes.
	HostTool func(agent string, call int) error
	// ToolDone runs after the call-th tool call of the step finished.
	ToolDone func(agent string, call int, out ToolOutcome) error
	// Listener runs when the agent/pre-step chain reaches the host
	// listener name, before it acts: host code inside the dispatch, after
	// the prompt was assembled when Assembly is AssemblyBefore.
	Listener func(agent, name string) error
}

// Open introduces a new agent whose durable log starts as events, as a
// session opened by the host (a new session, or a resumed one).
func (r *Runtime) Open(agent string, events []Event) error {
	return r.addAgent(agent, events)
}

// AppendEvent is an outside writer appending an event to an agent's log.
// The implementation sees it with its next request (Call.Sync).
func (r *Runtime) AppendEvent(agent, typ string, data json.RawMessage) (Event, error) {
	a, err := r.agent(agent)
	if err != nil {
		return Event{}, err
	}
	if typ == "" {
		return Event{}, inputf("an appended event needs a type")
	}
	return a.log.Append(typ, data), nil
}

// FailOutsideAppend consumes an armed append fault, when one is armed, as
// a runtime whose faults fail every plan/mode append of the log (an
// outside writer's too) does at an outside writer's plan/mode append; it
// reports whether it did (then nothing is appended).
func (r *Runtime) FailOutsideAppend() bool {
	if r.fail == 0 {
		return false
	}
	r.fail--
	return true
}

// hostTool reports whether name is one of the host's own tools.
func (r *Runtime) hostTool(name string) bool {
	return slices.Contains(r.opts.HostTools, name) || slices.Contains(r.opts.AssemblyTools, name)
}

// hostCatalog is the tool catalog as the host and the prompt-assembly
// listeners after plan mode's leave it, before plan mode's contribution:
// the registered host tools, then the assembly listeners' tools.
func (r *Runtime) hostCatalog() []Tool {
	return toolList(append(slices.Clone(r.opts.HostTools), r.opts.AssemblyTools...))
}

func toolList(names []string) []Tool {
	if len(names) == 0 {
		return nil
	}
	out := make([]Tool, len(names))
	for i, n := range names {
		out[i] = Tool{Name: n}
	}
	return out
}

// gateHostTool asks the plugin's tool gate, if it has one, whether a host
// tool call may run, and runs it: a host tool succeeds with "ok". A denied
// call fails with the gate's reason and does not run.
func (r *Runtime) gateHostTool(res *Result, a *agentState, c ToolCall) (ToolOutcome, error) {
	out := ToolOutcome{Name: c.Name, OK: true, Result: JSON("ok")}
	gate, ok := r.port.(ToolGate)
	if !ok || !r.Plugin() {
		return out, nil
	}
	reply, err := gate.PreTool(PreToolRequest{Call: r.call(a), Name: c.Name, Args: argsOf(c)})
	if err != nil {
		return out, &ImplError{Op: "pre-tool " + c.Name, Err: err}
	}
	r.apply(res, a, reply.Effects)
	switch reply.Decision {
	case ToolAllow:
		return out, nil
	case ToolDeny:
		reason := reply.Reason
		if reason == "" {
			reason = "denied"
		}
		return ToolOutcome{Name: c.Name, Error: fmt.Sprintf("tool %q was denied: %s", c.Name, reason)}, nil
	}
	return out, &ImplError{Op: "pre-tool " + c.Name, Err: fmt.Errorf("decision %q is neither allow nor deny", reply.Decision)}
}
