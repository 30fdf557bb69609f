package sim

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/plankit/plankit/spec"
)

// Drop is a listener behaviour: it runs the rest of the chain and, when
// that accepts, accepts with no messages, taking the step's messages for
// itself, so the decision the runtime gets carries none.
const Drop = "drop"

// chainLink is one listener of the agent/pre-step chain; plugin marks the
// plan-mode plugin's own listener.
type chainLink struct {
	name      string
	plugin    bool
	behaviour string
	messages  []Message
}

// chain orders the pre-step listeners as the runtime dispatches them: in
// registration order, outermost first, with the plugin's listener first
// when it registered with prepend (STEP-1), and the step's implicit
// downstream listener last.
func (r *Runtime) chain(s *StepAction) ([]chainLink, error) {
	behaviour := func(l ListenerSpec) (string, error) {
		b := l.Behaviour
		if o, ok := s.Listeners[l.Name]; ok {
			b = o
		}
		if b == "" {
			b = Accept
		}
		if b != Accept && b != Reject && b != Abort && b != Veto && b != Drop {
			return "", inputf("listener %q: behaviour must be accept, reject, abort, veto or drop, not %q", l.Name, b)
		}
		return b, nil
	}
	for _, name := range sortedKeys(s.Listeners) {
		if !slices.ContainsFunc(r.opts.Listeners, func(l ListenerSpec) bool { return l.Name == name }) {
			return nil, inputf("step names listener %q, which the trace does not declare", name)
		}
	}
	for _, l := range r.opts.Listeners {
		if _, err := behaviour(l); err != nil {
			return nil, err
		}
	}
	d := s.Decision
	if d == "" {
		d = Accept
	}
	if d != Accept && d != Reject && d != Abort {
		return nil, inputf("decision must be accept, reject or abort, not %q", d)
	}
	// The links go into the runtime's buffer, reused step after step (a
	// step's dispatch ends before the next chain is built).
	links := r.links[:0]
	plugin := chainLink{name: spec.PluginName, plugin: true}
	if r.Plugin() && r.reg.Listener == Prepend {
		links = append(links, plugin)
	}
	// A listener not prepended runs where it was registered: between the
	// host's listeners registered before and after its load, or after them
	// all once registered again (reregistered).
	appended := r.Plugin() && r.reg.Listener != Prepend
	for _, registered := range []string{"before", "after"} {
		if registered == "after" && appended && !r.reregistered {
			links = append(links, plugin)
		}
		for _, l := range r.opts.Listeners {
			if (l.Registered == "before") != (registered == "before") {
				continue
			}
			b, _ := behaviour(l) // checked above
			link := chainLink{name: l.Name, behaviour: b}
			for _, m := range l.Messages {
				link.messages = append(link.messages, Message{Role: "user", Text: m, Source: Source{Kind: "plugin", Plugin: l.Name}})
			}
			links = append(links, link)
		}
	}
	if appended && r.reregistered {
		links = append(links, plugin)
	}
	links = append(links, chainLink{name: "downstream", behaviour: d})
	r.links = links
	return links, nil
}

// dispatch runs the chain with next() semantics. Listener i's next() runs
// links[i+1:]; the end of the chain accepts with the claimed messages.
type dispatch struct {
	r        *Runtime
	a        *agentState
	res      *Result
	links    []chainLink
	claimed  []Message
	retry    int
	aborted  bool
	err      error
	reachedP bool
	// skipsEmpty: the runtime skips the step if the accepted decision
	// carries no messages.
	skipsEmpty bool
}

func (d *dispatch) run(i int) Decision {
	if d.err != nil {
		return Decision{Kind: Reject}
	}
	if i == len(d.links) {
		return Decision{Kind: Enter, Messages: slices.Clone(d.claimed)}
	}
	l := d.links[i]
	if l.plugin {
		return d.plugin(i)
	}
	if h := d.r.opts.Hooks; h != nil && h.Listener != nil && i < len(d.links)-1 {
		if err := h.Listener(d.a.name, l.name); err != nil {
			d.err = err
			return Decision{Kind: Reject}
		}
	}
	switch l.behaviour {
	case Reject:
		return Decision{Kind: Reject}
	case Abort:
		d.aborted = true
		return d.run(i + 1)
	case Veto:
		d.run(i + 1)
		return Decision{Kind: Reject}
	case Drop:
		dec := d.run(i + 1)
		if dec.Kind == Enter {
			dec.Messages = nil
		}
		return dec
	}
	dec := d.run(i + 1)
	if dec.Kind == Enter {
		dec.Messages = append(dec.Messages, l.messages...)
	}
	return dec
}

// plugin hands the step to the implementation's listener. The downstream
// listeners are scripted and side-effect free apart from the abort signal,
// so their decision is computed first and travels in the request; the
// implementation reports when it called next() as a downstream effect.
func (d *dispatch) plugin(i int) Decision {
	d.reachedP = true
	abortedBefore := d.aborted
	down := d.run(i + 1)
	req := PreStepRequest{
		Call:          d.r.call(d.a),
		Turn:          d.a.turn,
		Step:          d.a.step + boolInt(d.retry == 0),
		Retry:         d.retry,
		Messages:      slices.Clone(d.claimed),
		Downstream:    down,
		AbortedBefore: abortedBefore,
		AbortDuring:   d.aborted && !abortedBefore,
		SkipsEmpty:    d.skipsEmpty,
	}
	reply, err := d.r.port.PreStep(req)
	if err != nil {
		d.err = &ImplError{Op: "pre-step", Err: err}
		return Decision{Kind: Reject}
	}
	trace := PreStepTrace{Downstream: down, Decision: reply.Decision, AbortedBefore: abortedBefore, Aborted: d.aborted}
	if b := d.r.boxOf(d.res); b != nil && b.preStep != nil && d.res.PreStep == nil {
		*b.preStep = trace
		d.res.PreStep = b.preStep
	} else {
		d.res.PreStep = new(PreStepTrace)
		*d.res.PreStep = trace
	}
	d.r.apply(d.res, d.a, reply.Effects)
	if reply.Decision.Kind != Enter && reply.Decision.Kind != Reject {
		d.err = &ImplError{Op: "pre-step", Err: fmt.Errorf("decision kind %q is neither enter nor reject", reply.Decision.Kind)}
		return Decision{Kind: Reject}
	}
	return reply.Decision
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// doStep proposes a step, or re-proposes the one whose request failed.
func (r *Runtime) doStep(res *Result, s *StepAction, retry bool) error {
	a, err := r.agent(s.Agent)
	if err != nil {
		return err
	}
	if s.Request != "" && s.Request != "ok" && s.Request != "fail" {
		return inputf("request must be ok or fail, not %q", s.Request)
	}
	if err := validateReviews(s.Model); err != nil {
		return err
	}
	if retry {
		a.retries++
		r.hostAppend(res, a, spec.TypeRetry, map[string]any{"turn": a.turn, "step": a.step, "retry": a.retries, "mode": r.opts.Retries})
		if r.opts.Retries == RetriesSameStep {
			// The shipped loop repeats the request with its assembly: no
			// pre-step, no new header.
			a.awaitingRetry = false
			if h := r.opts.Hooks; h != nil && h.Requested != nil {
				if err := h.Requested(a.name, a.lastRequest, s.Request == "fail"); err != nil {
					return err
				}
			}
			return r.finishStep(res, a, s)
		}
	}
	claimed := a.queue
	a.queue = nil
	var early AssembleReply
	assembled := false
	if r.Plugin() && r.opts.Assembly == AssemblyBefore {
		assembled = true
		if early, err = r.assemble(a); err != nil {
			return err
		}
	}
	links, err := r.chain(s)
	if err != nil {
		a.queue = claimed
		return err
	}
	d := dispatch{r: r, a: a, res: res, links: links, claimed: claimed, retry: a.retries * boolInt(retry),
		skipsEmpty: r.opts.EmptySteps == EmptyStepsSkip && !retry && !a.continues}
	dec := d.run(0)
	if d.err != nil {
		return d.err
	}
	res.Decision = decisionName(dec, d.aborted)
	if d.skipsEmpty && dec.Kind == Enter && !d.aborted && len(dec.Messages) == 0 {
		// Nothing to send: the runtime skips the step and the turn ends.
		res.Skipped = true
		r.endTurn(res, a, "completed")
		return nil
	}
	if dec.Kind != Enter || d.aborted {
		// Claimed messages go back to the queue for a later step,
		// unless the loop drops a rejected step's messages.
		if !r.opts.DropClaimedAtReject {
			a.queue = append(claimed, a.queue...)
		}
		reason := "blocked"
		if d.aborted {
			reason = "aborted"
		}
		r.endTurn(res, a, reason)
		return nil
	}
	if !retry {
		a.step++
		r.logStep(res, a, spec.TypeStepStart)
	}
	for _, m := range dec.Messages {
		r.logMessage(res, a, m)
	}
	asm := early
	if !assembled {
		if asm, err = r.assemble(a); err != nil {
			return err
		}
	}
	q := r.request(res, a, &asm, dec.Messages)
	a.lastRequest = q
	if h := r.opts.Hooks; h != nil && h.Requested != nil {
		if err := h.Requested(a.name, q, s.Request == "fail"); err != nil {
			return err
		}
	}
	a.awaitingRetry = false
	return r.finishStep(res, a, s)
}

func decisionName(d Decision, aborted bool) string {
	if aborted {
		return Abort
	}
	if d.Kind == Enter {
		return Accept
	}
	return Reject
}

// assemble asks the plugin for its sections and the tool catalog, giving it
// the host's tools; without a plugin the request has only the runtime's own
// section and the host's tools.
func (r *Runtime) assemble(a *agentState) (AssembleReply, error) {
	host := r.hostCatalog()
	if !r.Plugin() {
		return AssembleReply{Tools: host}, nil
	}
	asm, err := r.port.Assemble(AssembleRequest{Call: r.call(a), Tools: host})
	if err != nil {
		return AssembleReply{}, &ImplError{Op: "assemble", Err: err}
	}
	return asm, nil
}

// request logs the request header: the rendered sections in order and the
// tool catalog.
func (r *Runtime) request(res *Result, a *agentState, asm *AssembleReply, msgs []Message) Request {
	// The reply is the runtime's: its tools are shared, capped, never
	// changed.
	tools := asm.Tools[:len(asm.Tools):len(asm.Tools)]
	if tools == nil {
		tools = []Tool{}
	}
	sections, header := a.assembly(asm.Sections, tools)
	a.lastAssemblyJSON, _ = r.logHeader(res, a, sections, tools, header)
	a.assembled = true
	q := Request{Agent: a.name, Turn: a.turn, Step: a.step, Retry: a.retries, Sections: sections, Tools: tools, Messages: msgs[:len(msgs):len(msgs)]}
	if b := r.boxOf(res); b != nil && res.Requests == nil {
		res.Requests = b.requests
	}
	res.Requests = append(res.Requests, q)
	return q
}

// assembly is what the agent's requests of the two last assemblies
// showed: a copy of the plugin's sections and of the tools, the sections as
// sent and the canonical bytes of the header (a view of the logged data).
// Plan mode switches between two assemblies (with its section and
// without), so these are usually the next request's.
type assembly struct {
	sections, sent []Section
	tools          []Tool
	header         []byte
}

// assembly returns the sections a request of the plugin's sections and the
// tools sends: the runtime's own section and the plugin's, in order. When
// they are one of the last two assemblies' it returns their sections as
// sent again (shared by the requests, as the tools are: never changed) and
// the header's canonical bytes, logged already (nil otherwise); the entry
// then serves as the last one used.
func (a *agentState) assembly(sections []Section, tools []Tool) (sent []Section, header []byte) {
	for i := range a.assemblies {
		c := &a.assemblies[i]
		if c.header != nil && slices.Equal(sections, c.sections) && slices.Equal(tools, c.tools) {
			a.assemblies[0], a.assemblies[i] = a.assemblies[i], a.assemblies[0]
			return a.assemblies[0].sent, a.assemblies[0].header
		}
	}
	sent = append([]Section{BaseSection}, sections...)
	slices.SortStableFunc(sent, func(x, y Section) int { return x.Order - y.Order })
	// The older entry goes; logHeader fills in the header.
	a.assemblies[1] = a.assemblies[0]
	a.assemblies[0] = assembly{sections: slices.Clone(sections), sent: sent, tools: slices.Clone(tools)}
	return sent, nil
}

// finishStep sends the request (which may fail) and plays the model's
// scripted output, executing its tool calls.
func (r *Runtime) finishStep(res *Result, a *agentState, s *StepAction) error {
	if s.Request == "fail" {
		a.awaitingRetry = true
		res.RequestFailed = true
		return nil
	}
	a.retries = 0
	m := s.Model
	a.continues = m != nil && len(m.Calls) > 0
	if m == nil {
		m = &Model{Text: "OK."}
	}
	var ids []string
	if len(m.Calls) > 0 {
		ids = make([]string, len(m.Calls))
	}
	for i := range m.Calls {
		ids[i] = fmt.Sprintf("call_%d_%d_%d", a.turn, a.step, i+1)
	}
	r.logAssistant(res, a, m.Text, m.Calls, ids)
	for i, c := range m.Calls {
		if r.hostTool(c.Name) {
			out, err := r.gateHostTool(res, a, c)
			if err != nil {
				return err
			}
			if h := r.opts.Hooks; h != nil && h.HostTool != nil && out.OK {
				if err := h.HostTool(a.name, i); err != nil {
					return err
				}
			}
			if err := r.recordTool(res, a, i, ids[i], c, out); err != nil {
				return err
			}
			continue
		}
		out, err := r.toolCall(res, a, c)
		if err != nil {
			return err
		}
		if err := r.recordTool(res, a, i, ids[i], c, out); err != nil {
			return err
		}
		if reviewAborted(c, out) {
			// The step's signal fired while the review was open: the rest
			// of the batch does not run and the turn ends aborted.
			r.logStep(res, a, spec.TypeStepEnd)
			r.endTurn(res, a, "aborted")
			return nil
		}
	}
	r.logStep(res, a, spec.TypeStepEnd)
	return nil
}

// recordTool logs the i-th tool call of the step (id) and its result, keeps
// the outcome in res and tells the ToolDone hook, whose error ends the step.
func (r *Runtime) recordTool(res *Result, a *agentState, i int, id string, c ToolCall, out ToolOutcome) error {
	r.logToolCall(res, a, id, c)
	r.toolResult(res, a, id, out)
	res.Tools = append(res.Tools, out)
	if h := r.opts.Hooks; h != nil && h.ToolDone != nil {
		return h.ToolDone(a.name, i, out)
	}
	return nil
}

// reviewAborted reports whether a tool call's review was open when the
// step's abort signal fired (Review.Fail aborted, and the plan reached the
// review).
func reviewAborted(c ToolCall, out ToolOutcome) bool {
	return c.Review != nil && c.Review.Fail == ReviewAborted && out.Asked
}

// validateReviews checks the scripted reviews of a step's tool calls before
// the step runs.
func validateReviews(m *Model) error {
	if m == nil {
		return nil
	}
	for _, c := range m.Calls {
		if c.Review != nil {
			if err := c.Review.Validate(); err != nil {
				return err
			}
		}
	}
	return nil
}

// toolResult logs a tool call's result.
func (r *Runtime) toolResult(res *Result, a *agentState, id string, out ToolOutcome) {
	text := out.Error
	if out.OK {
		text = string(out.Result)
	}
	r.record(res, a, a.log.push(spec.TypeToolResult, appendToolResultJSON(a.log.buf(), a.turn, a.step, id, text, !out.OK)), false)
}

func argsOf(c ToolCall) json.RawMessage {
	if len(c.Args) == 0 {
		return json.RawMessage("{}")
	}
	return Canonical(c.Args)
}

// toolCall executes one model tool call: exit_plan_mode through the port
// when the plugin registered it, anything else as an unknown tool.
func (r *Runtime) toolCall(res *Result, a *agentState, c ToolCall) (ToolOutcome, error) {
	out := ToolOutcome{Name: c.Name}
	registered := r.Plugin() && slices.ContainsFunc(r.reg.Tools, func(t Tool) bool { return t.Name == c.Name })
	if !registered {
		out.Error = fmt.Sprintf("unknown tool %q", c.Name)
		return out, nil
	}
	review := Review{}
	if c.Review != nil {
		review = *c.Review
	}
	reply, err := r.port.ExitTool(ExitToolRequest{Call: r.call(a), Args: argsOf(c), Review: review})
	if err != nil {
		return out, &ImplError{Op: "exit tool", Err: err}
	}
	r.apply(res, a, reply.Effects)
	for _, ef := range reply.Effects {
		if ef.Kind == EffectAsk {
			out.Asked = true
		}
	}
	if review.Reload {
		// The service was reloaded while the review was open; the plugin's
		// registration is what the fresh load registered.
		res.Reloaded = true
	}
	out.OK, out.Result, out.Error = reply.OK, Canonical(reply.Result), reply.Error
	if !reply.OK {
		out.Result = nil
	}
	return out, nil
}

// sortedKeys returns m's keys in order (nil, without allocating, for an
// empty map: most steps name no listener).
func sortedKeys(m map[string]string) []string {
	if len(m) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(m))
}
