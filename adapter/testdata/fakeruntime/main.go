// Command fakeruntime is a deliberately broken runtime for the runtime
// driver's tests. It serves the built-in runtime correctly until its first
// request of METHOD and then misbehaves in one way:
//
//	fakeruntime MODE METHOD
//
// Modes: ok, crash (exits with a message on stderr), hang, gap (the
// observed events skip a seq), unsupported, exception (the command's
// reply says its handler threw, as a host that catches it does).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: fakeruntime MODE METHOD")
		os.Exit(2)
	}
	mode, method := os.Args[1], os.Args[2]
	b, _ := loop.NewBuiltin(reference.NewPort(reference.Options{}), loop.RetryPreStep)
	srv, err := adapter.NewRuntimeServer(b, false)
	if err != nil {
		panic(err)
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, adapter.MaxLine)
	for sc.Scan() {
		var req adapter.Request
		_ = json.Unmarshal(sc.Bytes(), &req)
		if req.Method == method {
			switch mode {
			case "crash":
				fmt.Fprintln(os.Stderr, "fakeruntime: the loop fell over")
				os.Exit(7)
			case "hang":
				time.Sleep(time.Hour)
			case "unsupported":
				fmt.Printf(`{"seq":%d,"unsupported":{"message":"no %s here"}}`+"\n", req.Seq, method)
				continue
			case "exception":
				fmt.Printf(`{"seq":%d,"result":{"kind":"error","text":"TypeError: agent.steer is not a function","exception":true}}`+"\n", req.Seq)
				continue
			}
		}
		reply, stop, err := srv.Handle(sc.Bytes())
		if err != nil {
			panic(err)
		}
		if req.Method == method && mode == "gap" {
			var r struct {
				Seq    int              `json:"seq"`
				Result loop.Observation `json:"result"`
			}
			_ = json.Unmarshal(reply, &r)
			for i := range r.Result.Events {
				r.Result.Events[i].Seq++
			}
			reply, _ = json.Marshal(r)
		}
		os.Stdout.Write(append(reply, '\n'))
		if stop {
			return
		}
	}
}
