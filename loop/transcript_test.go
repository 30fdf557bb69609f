package loop_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/sim"
)

// resending is a trace of turns that each make calls steps: every
// request resends the whole transcript, which grows with every turn.
func resending(turns, calls int, prompt string) loop.Trace {
	t := loop.Trace{Config: json.RawMessage(`{"section":"x"}`), HostTools: []loop.HostTool{{Name: "read_file"}}}
	id := 0
	for range turns {
		var rs []loop.Response
		for range calls {
			id++
			rs = append(rs, loop.Response{Calls: []loop.Call{{ID: fmt.Sprintf("c%d", id), Name: "read_file", Args: json.RawMessage(`{}`)}}})
		}
		rs = append(rs, loop.Response{Text: "done"})
		t.Steps = append(t.Steps, loop.Step{Turn: &loop.TurnRequest{Agent: "main", Prompt: prompt, Script: loop.Script{Responses: rs}}})
	}
	return t
}

// TestTranscriptBound: a trace whose requests carry more transcript in all
// than its bound stops with an input error naming the flag, at the step
// that passed it.
func TestTranscriptBound(t *testing.T) {
	tr := resending(20, 2, strings.Repeat("p", 100))
	tr.MaxTranscript = 20_000
	rec, err := loop.Run(builtin(t, loop.RetryPreStep), tr)
	var in *sim.InputError
	if !errors.As(err, &in) || !strings.Contains(err.Error(), inputlimit.FlagTranscript) {
		t.Fatalf("got %v; want an input error naming %s", err, inputlimit.FlagTranscript)
	}
	if len(rec.Steps) == 0 || len(rec.Steps) >= len(tr.Steps) {
		t.Fatalf("stopped after %d of %d steps", len(rec.Steps), len(tr.Steps))
	}
	// Within the bound it runs to the end.
	tr.MaxTranscript = 1 << 30
	if _, err := loop.Run(builtin(t, loop.RetryPreStep), tr); err != nil {
		t.Fatal(err)
	}
}

// TestBuiltinTranscriptIsShared: the built-in runtime derives each message
// once and its requests share them, so what a run allocates grows with the
// trace's length, not with its square (the requests carry 4.5 million
// messages in all here; deriving each anew allocated gigabytes).
func TestBuiltinTranscriptIsShared(t *testing.T) {
	tr := resending(150, 10, "p")
	tr.MaxTranscript = 1 << 40
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rec, err := loop.Run(builtin(t, loop.RetryPreStep), tr)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	carried := 0
	for _, d := range rec.Steps {
		for _, q := range d.Obs.Requests {
			carried += len(q.Messages)
		}
	}
	if carried < 2_000_000 {
		t.Fatalf("the requests carry only %d messages", carried)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 128<<20 {
		t.Fatalf("a run of %d steps allocated %d MB", len(tr.Steps), alloc>>20)
	}
}
