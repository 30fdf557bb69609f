//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeEndsOnSIGTERM: plankit serve, at either level, ends at once
// on SIGTERM with ExitInterrupted, though its input stays open (the
// driving plankit ends its adapters' process groups so).
func TestServeEndsOnSIGTERM(t *testing.T) {
	plankit := plankitBin(t)
	for _, tc := range []struct {
		args  []string
		start string
	}{
		{[]string{"serve"}, `{"seq":1,"method":"start","params":{"protocol":1}}`},
		{[]string{"serve", "--level", "runtime"}, `{"seq":1,"method":"start","params":{"protocol":1,"level":"runtime"}}`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			cmd := exec.Command(plankit, tc.args...)
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// A reply to start: serve runs, its signal handler installed.
			io.WriteString(in, tc.start+"\n")
			if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || !strings.Contains(line, `"seq":1`) {
				t.Fatalf("start reply %q: %v\n%s", line, err, errb.String())
			}
			cmd.Process.Signal(syscall.SIGTERM)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("still serving 10 s after SIGTERM")
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != ExitInterrupted || !strings.Contains(errb.String(), "interrupted by SIGTERM") {
				t.Fatalf("exit %v, want %d naming SIGTERM\n%s", err, ExitInterrupted, errb.String())
			}
		})
	}
}
