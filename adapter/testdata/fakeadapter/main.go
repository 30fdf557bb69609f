// Command fakeadapter is a deliberately broken adapter for the driver's
// tests. It serves the reference correctly until the Nth request of a
// method and then misbehaves in one way:
//
//	fakeadapter MODE METHOD [N] [--once FILE]
//
// Modes: ok (never misbehaves), hang, crash, garbage, schema, wrongseq,
// oversized, flood (floods stderr before every reply and never
// misbehaves otherwise), flood-crash, error, unsupported, extra (an
// unknown field in the result), choice (declares fold-end=middle, a value
// plankit does not know; use with METHOD start), minor1 (speaks minor 1:
// declares no reviewReplies; use with METHOD start), linger (replies
// to stop but does not exit), slow (sleeps before replying: N seconds
// given as the third argument, 2 by default; once per process), deaf (from then on
// ignores SIGTERM and the end of its input), orphan (starts a background
// child, "fakeadapter child", that sleeps), setsid (the same child, in a
// session of its own and holding the adapter's stdout and stderr: it
// leaves the adapter's process group; unix only), escape (writes control
// bytes on stderr and exits), exception (a command reply saying its
// handler threw). When $FAKEADAPTER_PIDS names
// a file, the adapter appends its pid, and an orphan's child's, to it.
// $FAKEADAPTER_AFTER=FILE:N arms the misbehaviour only from the N+1th
// process on (FILE counts them); $FAKEADAPTER_MUTANT serves that mutant of
// the reference. With --once FILE it misbehaves only
// while FILE does not exist and creates it, so only the first process
// breaks.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
)

// declaring is a port that declares caps at start instead of its own.
type declaring struct {
	sim.Port
	caps sim.Capabilities
}

func (d declaring) Start() (sim.Identity, error) {
	id, err := d.Port.Start()
	id.Capabilities = d.caps
	return id, err
}

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
	if len(args) == 1 && args[0] == "child" {
		time.Sleep(time.Hour)
		return
	}
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: fakeadapter MODE METHOD [N] [--once FILE]")
		os.Exit(2)
	}
	if os.Getenv("FAKEADAPTER_PIDS") != "" {
		writePID(os.Getpid())
	}
	mode, method, nth := args[0], args[1], 1
	delay := 2
	if mode == "slow" && len(args) > 2 {
		delay, _ = strconv.Atoi(args[2])
		args = args[:2]
	}
	if len(args) > 2 {
		nth, _ = strconv.Atoi(args[2])
	}
	armed := true
	if after := os.Getenv("FAKEADAPTER_AFTER"); after != "" {
		armed = countProcess(after)
	}
	if once != "" {
		f, err := os.OpenFile(once, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		armed = err == nil
		if armed {
			f.Close()
		}
	}
	opts := reference.Options{}
	if m := os.Getenv("FAKEADAPTER_MUTANT"); m != "" {
		opts.Mutants = reference.Mutants{reference.Mutant(m)}
	}
	// The reference with fewer capabilities: no reuse, unload, host tools
	// or empty steps.
	caps := sim.Capabilities{Commands: true, UserQuestions: true, Fork: true, Reload: true, CommandOutcomes: true, ReviewReplies: true}
	srv, err := adapter.NewServer(declaring{reference.NewPort(opts), caps}, adapter.ServeOptions{})
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
			switch mode {
			case "slow":
				time.Sleep(time.Duration(delay) * time.Second)
			case "deaf":
				signal.Ignore(syscall.SIGTERM)
				defer time.Sleep(time.Hour)
			case "orphan", "setsid":
				child := exec.Command(os.Args[0], "child")
				if mode == "setsid" {
					child.Stdout, child.Stderr = os.Stdout, os.Stderr
					newSession(child)
				}
				if err := child.Start(); err != nil {
					panic(err)
				}
				writePID(child.Process.Pid)
			}
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

// countProcess counts this process in the file of $FAKEADAPTER_AFTER
// (FILE:N) and reports whether more than N processes came before it.
func countProcess(spec string) bool {
	file, n, _ := strings.Cut(spec, ":")
	limit, _ := strconv.Atoi(n)
	f, err := os.OpenFile(file, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	f.WriteString("x\n")
	f.Close()
	b, _ := os.ReadFile(file)
	return strings.Count(string(b), "\n") > limit
}

// writePID appends a pid to $FAKEADAPTER_PIDS.
func writePID(pid int) {
	f, err := os.OpenFile(os.Getenv("FAKEADAPTER_PIDS"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	fmt.Fprintln(f, pid)
	f.Close()
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
	case "crash":
		fmt.Fprintf(os.Stderr, "fakeadapter: about to crash\nfakeadapter: simulated crash in %s\n", req.Method)
		os.Exit(7)
	case "escape":
		fmt.Fprintf(os.Stderr, "fakeadapter: \x1b[2Jcleared the screen\rand rang\a\n")
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
	case "choice":
		var r map[string]any
		json.Unmarshal(reply, &r)
		r["result"].(map[string]any)["choices"].(map[string]any)["fold-end"] = "middle"
		b, _ := json.Marshal(r)
		return b
	case "minor1":
		var r map[string]any
		json.Unmarshal(reply, &r)
		res := r["result"].(map[string]any)
		res["minor"] = 1
		delete(res["capabilities"].(map[string]any), "reviewReplies")
		b, _ := json.Marshal(r)
		return b
	case "unsupported":
		return []byte(fmt.Sprintf(`{"seq":%d,"unsupported":{"message":"%s is not implemented"}}`, req.Seq, req.Method))
	case "exception":
		return []byte(fmt.Sprintf(`{"seq":%d,"result":{"kind":"error","text":"TypeError: agent.steer is not a function","exception":true}}`, req.Seq))
	}
	return reply
}
