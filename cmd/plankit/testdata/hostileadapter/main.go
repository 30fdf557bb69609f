// Command hostileadapter is an implementation whose every word to plankit
// is hostile text: lines that a CI runner would read as commands, line
// breaks, terminal controls, bidirectional and invisible characters. It
// serves the reference (plugin level) or the built-in runtime around it
// (runtime level) correctly except in one way:
//
//	hostileadapter plugin|runtime MODE
//
// Modes: identity (its name, version, language and components are hostile,
// and it writes hostile text on stderr at every request), choice (it
// declares a hostile value for a choice), error (its third request after
// start gets an error reply with a hostile message), unsupported (the
// same, an unsupported reply), garbage (the same, a hostile line that is
// not JSON), crash (the same, hostile stderr and exit), exception (a
// command reply saying its handler threw, with a hostile text), text (every
// command reply's text, every section it assembles (plan:policy, hostile,
// while plan mode is inactive too) and, at the runtime level, every text a
// turn logs are hostile: the implementation diverges from the reference in
// what it sends the model).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
)

// Hostile is the text every mode sends; cmd/plankit's tests look for it.
const Hostile = "::error file=x::ADAPTER\n::error::ADAPTER-LINE \u202e\u2066\u200b \x1b[31m\r##vso[task.setvariable]x"

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: hostileadapter plugin|runtime MODE")
		os.Exit(2)
	}
	level, mode := os.Args[1], os.Args[2]
	var srv *adapter.Server
	var err error
	if level == "runtime" {
		b, _ := loop.NewBuiltin(reference.NewPort(reference.Options{}), loop.RetryPreStep)
		srv, err = adapter.NewRuntimeServer(b, false)
	} else {
		srv, err = adapter.NewServer(reference.NewPort(reference.Options{}), adapter.ServeOptions{}) // the reference declares every capability
	}
	if err != nil {
		panic(err)
	}
	hostile, _ := json.Marshal(Hostile)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), adapter.MaxLine)
	out := bufio.NewWriter(os.Stdout)
	n := 0
	for in.Scan() {
		line := in.Bytes()
		var req adapter.Request
		if err := json.Unmarshal(line, &req); err != nil {
			panic(err)
		}
		reply, stop, err := srv.Handle(line)
		if err != nil {
			panic(err)
		}
		if req.Method != "start" && req.Method != "stop" {
			n++
		}
		switch {
		case mode == "identity":
			fmt.Fprintf(os.Stderr, "%s\n", Hostile)
			if req.Method == "start" {
				reply = patch(reply, func(res map[string]any) {
					res["name"], res["version"], res["language"] = Hostile, Hostile, Hostile
					res["components"] = []map[string]string{{"name": Hostile, "version": Hostile}}
				})
			}
		case mode == "choice" && req.Method == "start":
			reply = patch(reply, func(res map[string]any) {
				res["choices"].(map[string]any)["fold-end"] = Hostile
			})
		case mode == "text" && req.Method == "turn":
			reply = patch(reply, func(res map[string]any) { hostileTexts(res) })
		case mode == "text" && req.Method == "command":
			reply = patch(reply, func(res map[string]any) { res["text"] = Hostile })
		case mode == "text" && req.Method == "assemble":
			reply = patch(reply, func(res map[string]any) {
				sections, _ := res["sections"].([]any)
				for _, sec := range sections {
					sec.(map[string]any)["text"] = Hostile
				}
				if len(sections) == 0 {
					// plan:policy while plan mode is inactive too (CFG-2),
					// so the first step of any sequence diverges: what is
					// compared is the section, not a reply's words
					res["sections"] = []any{map[string]any{"name": "plan:policy", "order": 50, "text": Hostile}}
				}
			})
		case mode == "exception" && req.Method == "command":
			reply = []byte(fmt.Sprintf(`{"seq":%d,"result":{"kind":"error","text":%s,"exception":true}}`, req.Seq, hostile))
		case n == 3 && mode == "error":
			reply = []byte(fmt.Sprintf(`{"seq":%d,"error":{"message":%s}}`, req.Seq, hostile))
		case n == 3 && mode == "unsupported":
			reply = []byte(fmt.Sprintf(`{"seq":%d,"unsupported":{"message":%s}}`, req.Seq, hostile))
		case n == 3 && mode == "garbage":
			reply = []byte(Hostile[:len(Hostile)-1] + " not json")
		case n == 3 && mode == "crash":
			fmt.Fprintf(os.Stderr, "%s\n%s\n", Hostile, Hostile)
			os.Exit(7)
		}
		// A reply is one line: the garbage's line breaks would split it.
		for i, c := range reply {
			if c == '\n' || c == '\r' {
				reply[i] = ' '
			}
		}
		out.Write(reply)
		out.WriteByte('\n')
		out.Flush()
		if stop {
			return
		}
	}
}

// hostileTexts makes every "text" member in v hostile.
func hostileTexts(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if _, ok := x.(string); ok && k == "text" {
				v[k] = Hostile
				continue
			}
			hostileTexts(x)
		}
	case []any:
		for _, x := range v {
			hostileTexts(x)
		}
	}
}

// patch changes the result of a reply.
func patch(reply []byte, f func(map[string]any)) []byte {
	var r map[string]any
	if err := json.Unmarshal(reply, &r); err != nil {
		panic(err)
	}
	if res, ok := r["result"].(map[string]any); ok {
		f(res)
	}
	b, err := json.Marshal(r)
	if err != nil {
		panic(err)
	}
	return b
}
