package suite

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// ExploreOptions configure Explore.
type ExploreOptions struct {
	NewRuntime func() loop.Runtime
	// Depth is the longest step sequence explored.
	Depth int
}

// ExploreResult is what Explore checked and the first violation found.
type ExploreResult struct {
	Alphabet, Sequences, Steps int
	// Violation is a shortest failing sequence, as a trace, or nil.
	Violation *loop.Trace
	Findings  []loop.Finding
}

// Alphabet lists the steps Explore combines, as far as caps allow: idle
// selections, plain turns, a selection while the model streams before a
// continuation step, one after the last step, one while a request fails
// before its retry, an approved exit, a review replying to another
// question, a failed append, /plan off, a restart.
func Alphabet(caps loop.Capabilities) []loop.Step {
	set := func(v bool) loop.HostAction { return loop.HostAction{ID: "s", Set: &loop.ActiveArg{Active: v}} }
	turn := func(prompt string, rs ...loop.Response) loop.Step {
		return loop.Step{Turn: &loop.TurnRequest{Agent: "main", Prompt: prompt, Script: loop.Script{Responses: rs}}}
	}
	read := loop.Call{ID: "r", Name: "read_file", Args: json.RawMessage(`{"path":"a.go"}`)}
	exit := loop.Call{ID: "x", Name: spec.ExitTool, Args: json.RawMessage(`{"plan":"# Plan\n1. edit"}`), Review: &sim.Review{Answer: sim.Approve}}
	out := []loop.Step{
		{Set: &loop.SetRequest{Agent: "main", Active: true}},
		{Set: &loop.SetRequest{Agent: "main", Active: false}},
		turn("Plain.", loop.Response{Text: "Done."}),
	}
	if caps.UserQuestions {
		out = append(out, turn("Exit.", loop.Response{Calls: []loop.Call{exit}}, loop.Response{Text: "Done."}))
	}
	if caps.UserQuestions && caps.ReviewReplies {
		// the review's reply approves another question only: no approval
		other := exit
		other.Review = &sim.Review{Reply: &sim.ReviewReply{Answers: []sim.ReviewAnswer{{Question: "scope-check", Selected: []string{sim.Approve}}}}}
		out = append(out, turn("Exit other.", loop.Response{Calls: []loop.Call{other}}, loop.Response{Text: "Done."}))
	}
	if caps.DuringStream && caps.HostTools {
		out = append(out,
			turn("Stream on.", loop.Response{During: []loop.HostAction{set(true)}, Calls: []loop.Call{read}}, loop.Response{Text: "Done."}),
			turn("Stream off.", loop.Response{During: []loop.HostAction{set(false)}, Calls: []loop.Call{read}}, loop.Response{Text: "Done."}),
			turn("Late on.", loop.Response{During: []loop.HostAction{set(true)}, Text: "Done."}))
		if caps.Has("retry") {
			// a selection while the request fails, then the retry
			out = append(out, turn("Retry on.", loop.Response{Calls: []loop.Call{read}}, loop.Response{Fail: true, During: []loop.HostAction{set(true)}}, loop.Response{Calls: []loop.Call{read}}, loop.Response{Text: "Done."}))
		}
		if caps.FailAppend {
			out = append(out, turn("Fault.", loop.Response{During: []loop.HostAction{{ID: "f", Fault: &loop.CountArg{Count: 1}}, set(true)}, Calls: []loop.Call{read}}, loop.Response{Text: "Done."}))
		}
	}
	if caps.Commands {
		out = append(out, loop.Step{Command: &loop.CommandRequest{Agent: "main", Input: "/plan off"}})
	}
	if caps.Resume {
		out = append(out, loop.Step{Restart: &struct{}{}})
	}
	return out
}

// Explore runs every sequence of up to Depth steps of the alphabet, shortest
// first, each on a fresh runtime, and judges each with the expectations and
// invariants; it stops at the first violation.
func Explore(ctx context.Context, o ExploreOptions) (ExploreResult, error) {
	var res ExploreResult
	id, op, err := identify(o.NewRuntime)
	if err != nil {
		return res, &sim.ImplError{Op: op, Err: err}
	}
	caps := id.Capabilities
	alphabet := Alphabet(caps)
	res.Alphabet = len(alphabet)
	base := loop.Trace{Config: json.RawMessage(`{"section":"Plan first."}`),
		Services: &sim.Services{Commands: caps.Commands, UserQuestions: caps.UserQuestions}}
	if caps.HostTools {
		base.HostTools = []loop.HostTool{{Name: "read_file"}}
	}
	level := [][]int{{}}
	for d := 1; d <= o.Depth; d++ {
		var next [][]int
		for _, prefix := range level {
			for i := range alphabet {
				if err := ctx.Err(); err != nil {
					return res, err
				}
				seq := append(append([]int(nil), prefix...), i)
				t := base
				t.Name = fmt.Sprintf("explore depth %d: %v", d, seq)
				t.Steps = make([]loop.Step, len(seq))
				for j, k := range seq {
					t.Steps[j] = alphabet[k]
				}
				fs, skip, err := judge(o.NewRuntime, t)
				if err != nil {
					return res, err
				}
				res.Sequences++
				res.Steps += len(seq)
				if !skip && len(fs) > 0 {
					res.Violation, res.Findings = &t, fs
					return res, nil
				}
				next = append(next, seq)
			}
		}
		level = next
	}
	return res, nil
}

// AssemblyTool is the host tool the wide scripts have another
// prompt-assembly listener, registered after plan mode's, add to every
// request (capability assemblyTools): plan mode must leave it in the
// catalog, in plan mode or out of it (EXIT-1).
var AssemblyTool = loop.HostTool{Name: "search", Assembly: true}

// WideAlphabet is the runtime alphabet plankit diff --level runtime and
// explore --level runtime combine, with the setup its steps need: the
// steps of Alphabet, then a get, /plan and /plan <message>, an outside
// writer's plan/mode, a fault, a reload, an unload, an approval then a
// review kept planning in one tool batch, a turn a host listener
// registered before plan mode rejects and one whose messages a host
// listener takes (an empty step), as far as caps allows.
func WideAlphabet(caps loop.Capabilities) (loop.Trace, []loop.Step) {
	base := loop.Trace{Config: json.RawMessage(`{"section":"Plan first."}`),
		Services: &sim.Services{Commands: caps.Commands, UserQuestions: caps.UserQuestions}}
	if caps.HostTools {
		base.HostTools = []loop.HostTool{{Name: "read_file"}}
	}
	if caps.HostTools && caps.AssemblyTools {
		base.HostTools = append(base.HostTools, AssemblyTool)
	}
	if caps.HostListeners {
		base.Listeners = []loop.Listener{{Name: "gate", Position: "after"}, {Name: "guard", Position: "before"}}
	}
	out := Alphabet(caps)
	turn := func(prompt string, pre []loop.PreStep, rs ...loop.Response) loop.Step {
		return loop.Step{Turn: &loop.TurnRequest{Agent: "main", Prompt: prompt, Script: loop.Script{Responses: rs, PreSteps: pre}}}
	}
	done := loop.Response{Text: "Done."}
	out = append(out, loop.Step{Get: &loop.AgentRequest{Agent: "main"}})
	if caps.Commands {
		out = append(out,
			loop.Step{Command: &loop.CommandRequest{Agent: "main", Input: "/plan"}},
			loop.Step{Command: &loop.CommandRequest{Agent: "main", Input: "/plan think first"}})
	}
	if caps.OutsideAppend {
		out = append(out, loop.Step{Append: &loop.AppendRequest{Agent: "main", Type: spec.TypePlanMode, Data: json.RawMessage(`{"active":true}`)}})
	}
	if caps.FailAppend {
		out = append(out, loop.Step{Fault: &loop.FaultRequest{Agent: "main", Count: 1}})
	}
	if caps.Reload {
		out = append(out, loop.Step{Reload: &struct{}{}})
	}
	if caps.Unload {
		out = append(out, loop.Step{Unload: &struct{}{}})
	}
	if caps.UserQuestions {
		// an approval, then keep planning in the same tool batch: the
		// second review withdraws the exit the first left pending (EXIT-6)
		plan := json.RawMessage(`{"plan":"# Plan\n1. edit"}`)
		approve := loop.Call{ID: "a", Name: spec.ExitTool, Args: plan, Review: &sim.Review{Answer: sim.Approve}}
		keep := loop.Call{ID: "k", Name: spec.ExitTool, Args: plan, Review: &sim.Review{Answer: sim.KeepPlanning}}
		out = append(out, turn("Keep planning.", nil, loop.Response{Calls: []loop.Call{approve, keep}}, done))
	}
	if caps.HostListeners {
		out = append(out, turn("Rejected.", []loop.PreStep{{Dispatch: 1, Listener: "guard", Behaviour: sim.Reject}}, done))
		if caps.EmptySteps {
			out = append(out, turn("Taken.", []loop.PreStep{{Dispatch: 1, Listener: "gate", Behaviour: sim.Drop}}, done))
		}
	}
	return base, out
}
