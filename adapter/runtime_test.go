package adapter_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/loop"
)

func runtimePool(t *testing.T, args ...string) *adapter.Pool {
	t.Helper()
	pool, err := adapter.NewRuntimePool(adapter.Options{Command: append([]string{build(t, "./adapter/testdata/fakeruntime")}, args...), Timeout: 2 * time.Second, NoSpare: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

var oneTurn = loop.Trace{Config: []byte(`{"section":"Plan first."}`), Steps: []loop.Step{{Turn: &loop.TurnRequest{Agent: "main", Prompt: "Go."}}}}

// The runtime driver shares the plugin driver's process handling: crashes
// are reported with the stderr tail, hangs time out, replies that say
// unsupported skip, and observations that contradict the log are
// protocol failures.
func TestRuntimeDriverFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	rec, err := loop.Run(runtimePool(t, "ok", "none").Runtime(), oneTurn)
	if err != nil || len(rec.Logs["main"]) == 0 {
		t.Fatalf("ok: %v (%d events)", err, len(rec.Logs["main"]))
	}
	_, err = loop.Run(runtimePool(t, "crash", "turn").Runtime(), oneTurn)
	var re *adapter.RequestError
	if !errors.As(err, &re) || re.Kind != adapter.KindExited || !strings.Contains(err.Error(), "the loop fell over") {
		t.Errorf("crash: %v", err)
	}
	_, err = loop.Run(runtimePool(t, "hang", "turn").Runtime(), oneTurn)
	if !errors.As(err, &re) || re.Kind != adapter.KindTimeout {
		t.Errorf("hang: %v", err)
	}
	_, err = loop.Run(runtimePool(t, "unsupported", "turn").Runtime(), oneTurn)
	if !loop.IsSkip(err) {
		t.Errorf("unsupported: %v, want a skip", err)
	}
	// A host that caught an exception inside a handler says so: an
	// implementation error carrying the exception's text, not a command
	// reply to judge.
	cmd := loop.Trace{Config: []byte(`{"section":"Plan first."}`), Steps: []loop.Step{{Command: &loop.CommandRequest{Agent: "main", Input: "/plan"}}}}
	_, err = loop.Run(runtimePool(t, "exception", "command").Runtime(), cmd)
	if !errors.As(err, &re) || re.Kind != adapter.KindException || !strings.Contains(err.Error(), "TypeError: agent.steer is not a function") {
		t.Errorf("exception: %v", err)
	}
	// A runtime that declares commandOutcomes (the built-in runtime does)
	// says what every successful command reply announces (minor 5).
	_, err = loop.Run(runtimePool(t, "unannounced", "command").Runtime(), cmd)
	if !errors.As(err, &re) || re.Kind != adapter.KindProtocol || !strings.Contains(err.Error(), "without saying which outcome it announces") {
		t.Errorf("unannounced: %v", err)
	}
	// A runtime that does not declare assemblyTools (an older minor
	// version) is not sent a load with a tool a later prompt-assembly
	// listener adds: it is unsupported, so the check is skipped.
	rt := runtimePool(t, "noassembly", "start").Runtime()
	if _, err := rt.Start(); err != nil {
		t.Fatal(err)
	}
	_, err = rt.Load(loop.LoadRequest{HostTools: []loop.HostTool{{Name: "search", Assembly: true}}})
	if !loop.IsSkip(err) || !strings.Contains(err.Error(), "assemblyTools") {
		t.Errorf("noassembly: %v, want a skip naming assemblyTools", err)
	}
	_ = rt.Stop()
	_, err = loop.Run(runtimePool(t, "gap", "turn").Runtime(), oneTurn)
	var oe *loop.ObservationError
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "has seq 1") {
		t.Errorf("gap: %v", err)
	}
}
