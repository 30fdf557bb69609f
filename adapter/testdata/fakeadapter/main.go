// Command fakeadapter is a deliberately broken adapter for the driver's
// tests. It serves the reference correctly until the Nth request of a
// method and then misbehaves in one way:
//
//	fakeadapter MODE METHOD [N] [--once FILE]
//
// Modes: ok (never misbehaves), hang, crash, garbage, schema, wrongseq,
// oversized, flood (floods stderr before every reply and never
// misbehaves otherwise), flood-crash, error, unsupported, extra (an
// unknown field in the result), linger (replies
// to stop but does not exit), slow (replies two seconds late). With --once FILE it misbehaves only while
// FILE does not exist and creates it, so only the first process breaks.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/reference"
)

func main() {
	args := os.Args[1:]
	once := ""
	for i := 0; i < len(args); i++ {
		if args[i] == "--once" && i+1 < len(args) {
			once = args[i+1]
			args = append(args[:i:i], args[i+2:]...)
			break
		}
	}
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: fakeadapter MODE METHOD [N] [--once FILE]")
		os.Exit(2)
	}
	mode, method, nth := args[0], args[1], 1
	if len(args) > 2 {
		nth, _ = strconv.Atoi(args[2])
	}
	armed := true
	if once != "" {
		f, err := os.OpenFile(once, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		armed = err == nil
		if armed {
			f.Close()
		}
	}
	caps := adapter.Capabilities{Commands: true, UserQuestions: true, Fork: true, Reload: true}
	srv, err := adapter.NewServer(reference.NewPort(reference.Options{}), adapter.ServeOptions{Capabilities: caps})
	if err != nil {
		panic(err)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), adapter.MaxLine)
	out := bufio.NewWriter(os.Stdout)
	seen := 0
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
		if req.Method == method {
			seen++
		}
		if mode == "flood" || mode == "flood-crash" {
			flood(req.Seq)
		}
		if armed && req.Method == method && seen == nth {
			reply = misbehave(mode, req, reply)
		}
		out.Write(reply)
		out.WriteByte('\n')
		out.Flush()
		if stop {
			if mode == "linger" {
				time.Sleep(time.Hour)
			}
			return
		}
	}
}

// flood writes 2 MiB of log lines on stderr.
func flood(seq int) {
	w := bufio.NewWriterSize(os.Stderr, 1<<16)
	for i := range 2 << 20 / 64 {
		fmt.Fprintf(w, "flood seq %6d line %8d %s\n", seq, i, strings.Repeat("x", 32))
	}
	w.Flush()
}

func misbehave(mode string, req adapter.Request, reply []byte) []byte {
	switch mode {
	case "hang":
		fmt.Fprintf(os.Stderr, "fakeadapter: hanging on %s\n", req.Method)
		time.Sleep(time.Hour)
	case "slow":
		time.Sleep(2 * time.Second)
	case "crash":
		fmt.Fprintf(os.Stderr, "fakeadapter: about to crash\nfakeadapter: simulated crash in %s\n", req.Method)
		os.Exit(7)
	case "flood-crash":
		fmt.Fprintf(os.Stderr, "fakeadapter: simulated crash after the flood in %s\n", req.Method)
		os.Exit(7)
	case "garbage":
		return []byte(`this is not json {"seq":`)
	case "schema":
		return []byte(fmt.Sprintf(`{"seq":%d,"result":{"active":"yes","decision":{"kind":"maybe"},"sections":"none","kind":42}}`, req.Seq))
	case "wrongseq":
		var r map[string]any
		json.Unmarshal(reply, &r)
		r["seq"] = req.Seq + 1
		b, _ := json.Marshal(r)
		return b
	case "oversized":
		return []byte(fmt.Sprintf(`{"seq":%d,"result":{"pad":"%s"}}`, req.Seq, strings.Repeat("a", adapter.MaxLine)))
	case "error":
		return []byte(fmt.Sprintf(`{"seq":%d,"error":{"message":"simulated failure in %s"}}`, req.Seq, req.Method))
	case "extra":
		var r map[string]any
		json.Unmarshal(reply, &r)
		r["result"].(map[string]any)["extra"] = true
		b, _ := json.Marshal(r)
		return b
	case "unsupported":
		return []byte(fmt.Sprintf(`{"seq":%d,"unsupported":{"message":"%s is not implemented"}}`, req.Seq, req.Method))
	}
	return reply
}
