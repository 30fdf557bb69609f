package adapter

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The guard. On Linux every adapter runs under a guard: this very program
// (/proc/self/exe), started with guardEnv set, which runs nothing else. It
// makes itself a child subreaper, so every descendant of the adapter stays
// its descendant even after it leaves the adapter's process group or
// session (setsid) and its parent dies, and it starts the adapter command
// in a process group of its own. When the adapter exits, when plankit asks
// (it closes the lifeline), and when plankit dies in any way, SIGKILL
// included (the kernel closes the lifeline), the guard kills the adapter's
// group and then every descendant left, reaps them all, and exits with the
// adapter's status. Without it, Pdeathsig reaches only plankit's direct
// child: a wrapper (sh -c '…; true', npx) would die and leave the real
// adapter running; and a descendant that left the group would survive and
// hold the adapter's pipes open.
//
// The guard reads the lifeline on fd 3 (end of file: end everything) and
// writes, on fd 4, "pid N" once the adapter started or "error TEXT" when it
// could not be started. SIGTERM, SIGINT and SIGHUP sent to the guard are
// passed on to the adapter's group.

// guardEnv marks a process started as an adapter's guard; the guard
// removes it from the adapter's environment.
const guardEnv = "PLANKIT_ADAPTER_GUARD"

// guardArg0 is the guard's argv[0], as ps shows it.
const guardArg0 = "plankit-adapter-guard"

func init() {
	if os.Getenv(guardEnv) == "1" {
		os.Exit(runGuard(os.Args[1:]))
	}
}

// guard is plankit's side of a guard process.
type guard struct {
	lifeline *os.File // write end; closing it ends everything
	once     sync.Once
	pid      int // the adapter's pid
}

// adapterCommand is the command that runs words under a guard; status is
// the read end of the guard's status pipe, and theirs the guard's ends of
// its pipes, for plankit to close once it started.
func adapterCommand(words []string) (cmd *exec.Cmd, g *guard, status *os.File, theirs []*os.File, err error) {
	if !guardable() {
		// No /proc: the adapter is plankit's direct child, as elsewhere.
		cmd = exec.Command(words[0], words[1:]...)
		setProcessGroup(cmd)
		return cmd, nil, nil, nil, nil
	}
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	statR, statW, err := os.Pipe()
	if err != nil {
		lifeR.Close()
		lifeW.Close()
		return nil, nil, nil, nil, err
	}
	cmd = exec.Command("/proc/self/exe", words...)
	cmd.Args[0] = guardArg0
	cmd.Env = append(os.Environ(), guardEnv+"=1")
	cmd.ExtraFiles = []*os.File{lifeR, statW}
	// Its own process group; no Pdeathsig: when plankit dies the guard
	// must live on long enough to end the adapter's whole tree.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, &guard{lifeline: lifeW}, statR, []*os.File{lifeR, statW}, nil
}

// guardable reports whether this program can be started again as a
// guard: /proc/self/exe names it.
var guardable = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/self/exe")
	return err == nil
})

// started reads the guard's status: the adapter's pid, or why it could
// not be started.
func (g *guard) started(status *os.File) error {
	b, err := io.ReadAll(io.LimitReader(status, 64<<10))
	status.Close()
	if err != nil {
		return err
	}
	text := string(b)
	switch {
	case strings.HasPrefix(text, "pid "):
		g.pid, err = strconv.Atoi(strings.TrimPrefix(text, "pid "))
		return err
	case strings.HasPrefix(text, "error "):
		return errors.New(strings.TrimPrefix(text, "error "))
	}
	return errors.New("the adapter's guard process ended before it started the adapter")
}

// signal passes sig to the adapter: SIGKILL closes the lifeline (the
// guard kills the adapter's group and every descendant left); any other
// signal goes to the guard, which passes it on to the adapter's group.
func (g *guard) signal(cmd *exec.Cmd, sig syscall.Signal) {
	if sig == syscall.SIGKILL {
		g.end()
		return
	}
	if cmd.Process != nil {
		syscall.Kill(cmd.Process.Pid, sig)
	}
}

// end closes the lifeline.
func (g *guard) end() { g.once.Do(func() { g.lifeline.Close() }) }

// runGuard is the guard's main: it runs args and returns the exit code.
func runGuard(args []string) int {
	lifeline, status := os.NewFile(3, "lifeline"), os.NewFile(4, "status")
	syscall.CloseOnExec(3)
	syscall.CloseOnExec(4)
	os.Unsetenv(guardEnv)
	// PR_SET_CHILD_SUBREAPER: orphaned descendants are reparented here.
	syscall.RawSyscall(syscall.SYS_PRCTL, 36, 1, 0)
	signals := make(chan os.Signal, 8)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if len(args) == 0 {
		fmt.Fprint(status, "error no adapter command")
		return 2
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// Its own group, which plankit's signals reach through the guard; and
	// killed if the guard itself is killed.
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(status, "error %v", err)
		return 127
	}
	pid := cmd.Process.Pid
	fmt.Fprintf(status, "pid %d", pid)
	status.Close()
	// The adapter has its own copies; the guard never reads or writes them.
	os.Stdin.Close()
	os.Stdout.Close()

	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	ended := make(chan struct{})
	go func() {
		io.Copy(io.Discard, lifeline)
		close(ended)
	}()
	for {
		select {
		case <-exited:
			endTree(pid)
			return mirror(cmd.ProcessState)
		case <-ended:
			syscall.Kill(-pid, syscall.SIGKILL)
			syscall.Kill(pid, syscall.SIGKILL)
			<-exited
			endTree(pid)
			return mirror(cmd.ProcessState)
		case sig := <-signals:
			syscall.Kill(-pid, sig.(syscall.Signal))
		}
	}
}

// endTree kills the adapter's process group and every descendant of the
// guard left, and reaps them, until the guard has no child: as a child
// subreaper it inherits every orphan of the tree, so none escapes. With no
// child left at once (the usual clean exit) it does not scan /proc.
func endTree(group int) {
	syscall.Kill(-group, syscall.SIGKILL)
	self := os.Getpid()
	for {
		reaped, left := reap()
		if !left {
			return
		}
		for _, pid := range descendants(self) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		if !reaped {
			time.Sleep(time.Millisecond) // killed, not yet dead
		}
	}
}

// reap reaps the guard's children that have ended; left reports whether
// any child remains.
func reap() (reaped, left bool) {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		switch {
		case errors.Is(err, syscall.EINTR):
		case err != nil:
			return reaped, false // ECHILD: no child left
		case pid == 0:
			return reaped, true
		default:
			reaped = true
		}
	}
}

// descendants lists the processes below root, from /proc.
func descendants(root int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces and parentheses.
		fields := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
		if len(fields) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(string(fields[1])); err == nil {
			children[ppid] = append(children[ppid], pid)
		}
	}
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// mirror exits the guard as the adapter did: with its exit code, or
// killed by the same signal.
func mirror(st *os.ProcessState) int {
	ws, ok := st.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return st.ExitCode()
	}
	sig := ws.Signal()
	signal.Reset(sig)
	syscall.Kill(os.Getpid(), sig)
	time.Sleep(time.Second)
	return 128 + int(sig)
}
