// Command fakeruntime is a deliberately broken runtime for the runtime
// driver's tests. It serves the built-in runtime correctly until its first
// request of METHOD (or its Nth: each process counts its own; METHOD any
// matches every request) and then misbehaves in one way:
//
//	fakeruntime MODE METHOD [N]
//
// Modes: ok, crash (exits with a message on stderr), hang, gap (the
// observed events skip a seq), unsupported, exception (the command's
// reply says its handler threw, as a host that catches it does),
// unannounced (the command succeeds without the outcome its reply
// announces, though the runtime declares commandOutcomes), noassembly
// (its start declares no assemblyTools, as an older minor version),
// noreuse (its start declares no reuse, so every restart must be real),
// keepsatreset (a start on a used process keeps the pending selections in
// memory, where a new process would have none: a dishonest reuse), setsid
// (starts a background child, "fakeruntime child", that sleeps in a
// session of its own holding the runtime's stdout and stderr, and serves
// on; unix only). When $FAKEADAPTER_PIDS names a file, the runtime
// appends its pid, and a setsid child's, to it.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "child" {
		time.Sleep(time.Hour)
		return
	}
	if len(os.Args) != 3 && len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: fakeruntime MODE METHOD [N]")
		os.Exit(2)
	}
	mode, method, nth := os.Args[1], os.Args[2], 1
	if len(os.Args) == 4 {
		nth, _ = strconv.Atoi(os.Args[3])
	}
	seen := 0
	writePID(os.Getpid())
	opts := reference.Options{}
	if mode == "keepsatreset" {
		// the reference keeps pending selections across the stop sent
		// below at a reset start
		opts.Mutants = reference.Mutants{reference.PendingSurvivesRestart}
	}
	b, _ := loop.NewBuiltin(reference.NewPort(opts), loop.RetryPreStep)
	srv, err := adapter.NewRuntimeServer(b, false)
	if err != nil {
		panic(err)
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, adapter.MaxLine)
	for sc.Scan() {
		var req adapter.Request
		_ = json.Unmarshal(sc.Bytes(), &req)
		if req.Method == method || method == "any" {
			seen++
		}
		if seen >= nth && (req.Method == method || method == "any") {
			switch mode {
			case "crash":
				fmt.Fprintln(os.Stderr, "fakeruntime: the loop fell over")
				os.Exit(7)
			case "hang":
				time.Sleep(time.Hour)
			case "setsid":
				if seen == nth {
					child := exec.Command(os.Args[0], "child")
					child.Stdout, child.Stderr = os.Stdout, os.Stderr
					newSession(child)
					if err := child.Start(); err != nil {
						panic(err)
					}
					writePID(child.Process.Pid)
				}
			case "unsupported":
				fmt.Printf(`{"seq":%d,"unsupported":{"message":"no %s here"}}`+"\n", req.Seq, method)
				continue
			case "exception":
				fmt.Printf(`{"seq":%d,"result":{"kind":"error","text":"TypeError: agent.steer is not a function","exception":true}}`+"\n", req.Seq)
				continue
			case "keepsatreset":
				if seen > 1 {
					// reset as an in-process restart, which the
					// mutant survives, instead of as a new process
					_ = b.Stop()
				}
			case "unannounced":
				fmt.Printf(`{"seq":%d,"result":{"kind":"success","text":"Plan mode on."}}`+"\n", req.Seq)
				continue
			}
		}
		reply, stop, err := srv.Handle(sc.Bytes())
		if err != nil {
			panic(err)
		}
		if seen >= nth && req.Method == method && (mode == "noassembly" || mode == "noreuse") {
			var r map[string]any
			_ = json.Unmarshal(reply, &r)
			capability := map[string]string{"noassembly": "assemblyTools", "noreuse": "reuse"}[mode]
			delete(r["result"].(map[string]any)["capabilities"].(map[string]any), capability)
			reply, _ = json.Marshal(r)
		}
		if seen >= nth && req.Method == method && mode == "gap" {
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

// writePID appends a pid to $FAKEADAPTER_PIDS, when it names a file.
func writePID(pid int) {
	name := os.Getenv("FAKEADAPTER_PIDS")
	if name == "" {
		return
	}
	f, err := os.OpenFile(name, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	fmt.Fprintln(f, pid)
	f.Close()
}
