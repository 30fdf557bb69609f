package adapter

import (
	"encoding/json"
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/safetext/safetexttest"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
)

// The result each request's reply is decoded into, at each level (as
// port_requests.go and runtime.go decode them).
var (
	pluginResults = map[string]func() any{
		MethodStart: func() any { return new(StartResult) }, MethodLoad: func() any { return new(sim.LoadReply) },
		MethodOpen: func() any { return new(Empty) }, MethodSet: func() any { return new(sim.SetReply) },
		MethodGet: func() any { return new(sim.GetReply) }, MethodPreStep: func() any { return new(sim.PreStepReply) },
		MethodAssemble: func() any { return new(sim.AssembleReply) }, MethodPreTool: func() any { return new(sim.PreToolReply) },
		MethodExitTool: func() any { return new(sim.ToolReply) }, MethodCommand: func() any { return new(sim.CommandReply) },
		MethodFold: func() any { return new(sim.FoldReply) }, MethodReload: func() any { return new(sim.LoadReply) },
		MethodUnload: func() any { return new(sim.LoadReply) }, MethodStop: func() any { return new(Empty) },
	}
	runtimeResults = map[string]func() any{
		RuntimeStart: func() any { return new(RuntimeStartResult) }, RuntimeLoad: func() any { return new(loop.LoadReply) },
		RuntimeOpen: func() any { return new(loop.Observation) }, RuntimeTurn: func() any { return new(loop.Observation) },
		RuntimeSet: func() any { return new(loop.SetReply) }, RuntimeGet: func() any { return new(sim.GetReply) },
		RuntimeCommand: func() any { return new(loop.CommandReply) }, RuntimeAppend: func() any { return new(loop.Observation) },
		RuntimeFault: func() any { return new(Empty) }, RuntimeReload: func() any { return new(loop.ReloadReply) },
		RuntimeUnload: func() any { return new(Empty) }, RuntimeStop: func() any { return new(Empty) },
	}
)

// FuzzReply: any line an adapter sends back to any request is its
// result or an error naming the request (*RequestError,
// *UnsupportedError); never a panic nor a blow-up (allocation within a
// fixed budget plus a multiple of the line's size); the error is one line
// without a raw control, bidirectional or invisible character, however
// hostile the line. The seeds are every documented reply of
// docs/adapter-protocol.md and hostile ones.
func FuzzReply(f *testing.F) { fuzzReplies(f, NewPool, pluginResults, "../docs/adapter-protocol.md") }

// FuzzRuntimeReply is FuzzReply at the runtime level (the runtime
// protocol's replies; docs/runtime-protocol.md, and those the built-in
// runtime serves).
func FuzzRuntimeReply(f *testing.F) {
	for _, s := range servedRuntimeReplies(f) {
		f.Add(s.method, s.seq, []byte(s.line))
	}
	fuzzReplies(f, NewRuntimePool, runtimeResults, "../docs/runtime-protocol.md")
}

func fuzzReplies(f *testing.F, newPool func(Options) (*Pool, error), results map[string]func() any, doc string) {
	for _, s := range documentedReplies(f, doc) {
		f.Add(s.method, s.seq, []byte(s.line))
	}
	hostile := strconv.Quote("::error file=x::X\n::error::Y \u202e\u2066\u200b \x1b[31m\r##vso[x]")
	for method := range results {
		f.Add(method, 3, []byte(`{"seq":3,"error":{"message":`+hostile+`}}`))
		f.Add(method, 3, []byte(`{"seq":3,"unsupported":{"message":`+hostile+`}}`))
	}
	f.Add(MethodGet, 3, []byte("::error::not json \u202e\x1b"))
	f.Add(MethodGet, 3, []byte(`{"seq":4,"result":{"active":true}}`))
	f.Add(MethodCommand, 3, []byte(`{"seq":3,"result":{"kind":"error","text":`+hostile+`,"exception":true}}`))
	f.Fuzz(func(t *testing.T, method string, seq int, line []byte) {
		newResult, ok := results[method]
		if !ok {
			return // the kit sends only its methods
		}
		pool, err := newPool(Options{Command: []string{"unused"}})
		if err != nil {
			t.Fatal(err)
		}
		port := pool.Port()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err = port.reply(method, seq, []byte(`{"seq":1,"method":"x","params":{}}`), lineEvent{data: line}, newResult())
		runtime.ReadMemStats(&after)
		if alloc, budget := after.TotalAlloc-before.TotalAlloc, uint64(4<<20)+256*uint64(len(line)); alloc > budget {
			t.Fatalf("a reply of %d bytes allocated %d KB (budget %d KB)", len(line), alloc>>10, budget>>10)
		}
		if err == nil {
			return
		}
		var re *RequestError
		var ue *UnsupportedError
		switch {
		case errors.As(err, &re):
			if re.Method != method || re.Seq != seq {
				t.Fatalf("the error names request seq %d %q, not seq %d %q: %v", re.Seq, re.Method, seq, method, err)
			}
		case errors.As(err, &ue):
			if ue.Method != method || ue.Seq != seq {
				t.Fatalf("the error names request seq %d %q, not seq %d %q: %v", ue.Seq, ue.Method, seq, method, err)
			}
		default:
			t.Fatalf("an error of type %T: %v", err, err)
		}
		if why := safetexttest.OneLine(err.Error()); why != "" {
			t.Fatalf("error text not inert: %s", why)
		}
	})
}

type documentedReply struct {
	method, line string
	seq          int
}

// documentedReplies are the reply lines ("< {") of a protocol page, each
// with the method of the request before it with the same seq.
func documentedReplies(f *testing.F, doc string) []documentedReply {
	data, err := os.ReadFile(doc)
	if err != nil {
		f.Fatal(err)
	}
	methods := map[int]string{}
	var out []documentedReply
	for _, line := range strings.Split(string(data), "\n") {
		var head struct {
			Seq    int    `json:"seq"`
			Method string `json:"method"`
		}
		switch {
		case strings.HasPrefix(line, "> {"):
			if json.Unmarshal([]byte(line[2:]), &head) == nil {
				methods[head.Seq] = head.Method
			}
		case strings.HasPrefix(line, "< {"):
			if json.Unmarshal([]byte(line[2:]), &head) == nil && methods[head.Seq] != "" {
				out = append(out, documentedReply{methods[head.Seq], line[2:], head.Seq})
			}
		}
	}
	if len(out) < 5 {
		f.Fatalf("%s: only %d documented replies", doc, len(out))
	}
	return out
}

// servedRuntimeReplies are the replies of the built-in runtime around the
// reference, served as an external runtime is, to a session of every
// request (the runtime page documents few).
func servedRuntimeReplies(f *testing.F) []documentedReply {
	b, err := loop.NewBuiltin(reference.NewPort(reference.Options{}), loop.RetryPreStep)
	if err != nil {
		f.Fatal(err)
	}
	srv, err := NewRuntimeServer(b, false)
	if err != nil {
		f.Fatal(err)
	}
	requests := []string{
		`{"seq":1,"method":"start","params":{"protocol":1,"level":"runtime","minor":5}}`,
		`{"seq":2,"method":"load","params":{"config":{"section":"Plan first."},"services":{"commands":true,"userQuestions":true},"hostTools":[{"name":"read_file"}]}}`,
		`{"seq":3,"method":"open","params":{"agent":"main","events":[]}}`,
		`{"seq":4,"method":"set","params":{"agent":"main","active":true}}`,
		`{"seq":5,"method":"turn","params":{"agent":"main","prompt":"Plan.","script":{"responses":[{"calls":[{"id":"r1","name":"read_file","args":{"path":"a.go"}}]},{"calls":[{"id":"c1","name":"exit_plan_mode","args":{"plan":"# Plan"},"review":{"answer":"approve"}}]},{"text":"Done."}]}}}`,
		`{"seq":6,"method":"get","params":{"agent":"main"}}`,
		`{"seq":7,"method":"command","params":{"agent":"main","input":"/plan"}}`,
		`{"seq":8,"method":"append","params":{"agent":"main","type":"plan/mode","data":{"active":false}}}`,
		`{"seq":9,"method":"reload","params":{}}`,
		`{"seq":10,"method":"unload","params":{}}`,
		`{"seq":11,"method":"stop","params":{}}`,
	}
	var out []documentedReply
	for _, line := range requests {
		reply, _, err := srv.Handle([]byte(line))
		if err != nil {
			f.Fatal(err)
		}
		var head struct {
			Seq    int    `json:"seq"`
			Method string `json:"method"`
		}
		if err := json.Unmarshal([]byte(line), &head); err != nil {
			f.Fatal(err)
		}
		out = append(out, documentedReply{head.Method, string(reply), head.Seq})
	}
	return out
}
