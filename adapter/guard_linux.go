package adapter

import (
	"bytes"
	"errors"
	"fmt"
	"net"
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
// (/proc/self/exe), started with guardEnv set, which runs nothing but the
// pool's adapter command. It makes itself a child subreaper, so every
// descendant of the adapter stays its descendant even after it leaves the
// adapter's process group or session (setsid) and its parent dies, and it
// starts the adapter in a process group of its own. When the adapter exits,
// when plankit asks, and when plankit dies in any way, SIGKILL included
// (the kernel closes plankit's end of the guard's socket), the guard kills
// the adapter's group and then every descendant left, and reaps them all.
// Without it, Pdeathsig reaches only plankit's direct child: a wrapper
// (sh -c '…; true', npx) would die and leave the real adapter running; and
// a descendant that left the group would survive and hold the adapter's
// pipes open.
//
// A guard runs one adapter at a time and then the pool's next one: a Pool
// starts a guard when it has none free and keeps it until it closes, so a
// run starts as many guards as it runs adapter processes at once (its
// workers, the spare, the parked), not one per process. When a guard's
// adapter exits, every descendant it has left is of that adapter's tree.
//
// The guard and plankit talk over a socket pair (fd 3 in the guard), one
// message a datagram:
//
//	plankit → guard  "run N"       with the adapter's stdin, stdout and stderr (SCM_RIGHTS)
//	plankit → guard  "signal N S"  pass signal S to run N's process group (SIGKILL: its whole tree)
//	guard → plankit  "pid N P"     run N started as process P
//	guard → plankit  "error N T"   run N could not be started: T
//	guard → plankit  "exit N W"    run N exited with wait status W, and its tree has been ended
//
// The end of the socket (plankit closed it, or died) ends the running
// adapter's tree and the guard. SIGTERM, SIGINT and SIGHUP sent to the
// guard are passed on to the adapter's group.

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

// guardable reports whether this program can be started again as a
// guard: /proc/self/exe names it.
var guardable = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/self/exe")
	return err == nil
})

// guardSet is a pool's guards.
type guardSet struct {
	command []string
	dir     string

	mu     sync.Mutex
	free   []*guard
	all    []*guard
	closed bool
}

// newGuardSet returns the guards for the adapter command in o, or nil
// where adapters run without a guard (no /proc).
func newGuardSet(o Options) *guardSet {
	if !guardable() {
		return nil
	}
	return &guardSet{command: o.Command, dir: o.Dir}
}

// get returns a guard with no adapter running: a free one, else a new one.
func (s *guardSet) get() (*guard, error) {
	s.mu.Lock()
	for len(s.free) > 0 {
		g := s.free[len(s.free)-1]
		s.free = s.free[:len(s.free)-1]
		if g.alive() {
			s.mu.Unlock()
			return g, nil
		}
	}
	if s.closed {
		s.mu.Unlock()
		return nil, errors.New("the pool is closed")
	}
	s.mu.Unlock()
	g, err := startGuard(s.command, s.dir)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		g.close()
		return nil, errors.New("the pool is closed")
	}
	s.all = append(s.all, g)
	return g, nil
}

// put hands back a guard whose adapter has exited and whose tree has been
// ended.
func (s *guardSet) put(g *guard) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || !g.alive() {
		g.close()
		return
	}
	s.free = append(s.free, g)
}

// close ends every guard and waits until each has exited; kill only asks
// them to end (the guards end their adapters' trees either way).
func (s *guardSet) close() { s.end(true) }
func (s *guardSet) kill()  { s.end(false) }

func (s *guardSet) end(wait bool) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.closed = true
	all := s.all
	s.all, s.free = nil, nil
	s.mu.Unlock()
	for _, g := range all {
		g.close()
	}
	if !wait {
		return
	}
	for _, g := range all {
		select {
		case <-g.gone:
		case <-time.After(guardExit):
			g.cmd.Process.Kill()
			<-g.gone
		}
	}
}

// guard is plankit's side of one guard process.
type guard struct {
	cmd  *exec.Cmd
	conn *net.UnixConn
	// started receives the reply to a run; exits the exit of a run.
	started chan guardReply
	exits   chan guardReply
	// dead is closed when the socket ended (the guard exited or is
	// exiting); gone when the guard process has been reaped.
	dead, gone chan struct{}
	once       sync.Once
	// run numbers the adapters this guard ran.
	run int
}

// guardReply is one message from a guard.
type guardReply struct {
	kind string // "pid", "error" or "exit"
	run  int
	arg  string
}

// startGuard starts a guard process for command, run in dir.
func startGuard(command []string, dir string) (*guard, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "guard"), os.NewFile(uintptr(fds[1]), "guard")
	defer theirs.Close()
	c, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		return nil, err
	}
	conn := c.(*net.UnixConn)
	cmd := exec.Command("/proc/self/exe", command...)
	cmd.Args[0] = guardArg0
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), guardEnv+"=1")
	cmd.ExtraFiles = []*os.File{theirs}
	// Its own process group; no Pdeathsig: when plankit dies the guard
	// must live on long enough to end the adapter's whole tree.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		conn.Close()
		return nil, err
	}
	g := &guard{cmd: cmd, conn: conn, started: make(chan guardReply, 1), exits: make(chan guardReply, 1),
		dead: make(chan struct{}), gone: make(chan struct{})}
	go g.read()
	return g, nil
}

// read routes the guard's messages until its socket ends, then reaps it.
func (g *guard) read() {
	buf := make([]byte, 64<<10)
	for {
		n, err := g.conn.Read(buf)
		if err != nil || n == 0 {
			break
		}
		kind, rest, _ := strings.Cut(string(buf[:n]), " ")
		num, arg, _ := strings.Cut(rest, " ")
		run, _ := strconv.Atoi(num)
		r := guardReply{kind: kind, run: run, arg: arg}
		if kind == "exit" {
			g.exits <- r
		} else {
			g.started <- r
		}
	}
	close(g.dead)
	g.conn.Close()
	g.cmd.Wait()
	close(g.gone)
}

func (g *guard) alive() bool {
	select {
	case <-g.dead:
		return false
	default:
		return true
	}
}

// start runs the adapter with the given stdin, stdout and stderr and
// returns its run number and pid.
func (g *guard) start(stdin, stdout, stderr *os.File) (run, pid int, err error) {
	g.run++
	run = g.run
	rights := syscall.UnixRights(int(stdin.Fd()), int(stdout.Fd()), int(stderr.Fd()))
	if _, _, err := g.conn.WriteMsgUnix([]byte("run "+strconv.Itoa(run)), rights, nil); err != nil {
		return 0, 0, fmt.Errorf("the adapter's guard: %v", err)
	}
	select {
	case r := <-g.started:
		switch {
		case r.run != run:
			return 0, 0, fmt.Errorf("the adapter's guard answered run %d for run %d", r.run, run)
		case r.kind == "error":
			return 0, 0, errors.New(r.arg)
		}
		pid, err := strconv.Atoi(r.arg)
		return run, pid, err
	case <-g.dead:
		return 0, 0, errors.New("the adapter's guard process ended before it started the adapter")
	}
}

// wait waits until run has exited and its tree has been ended, and
// returns how it exited as exec.Cmd.Wait would (nil for exit status 0);
// ok is false when the guard ended instead (its adapter is killed with it,
// Pdeathsig).
func (g *guard) wait(run int) (exit error, ok bool) {
	select {
	case r := <-g.exits:
		w, err := strconv.ParseUint(r.arg, 10, 32)
		if err != nil || r.run != run {
			return fmt.Errorf("the adapter's guard reported %q for run %d", r.arg, run), false
		}
		return waitError(syscall.WaitStatus(w)), true
	case <-g.dead:
		return errors.New("the adapter's guard process ended"), false
	}
}

// waitError describes a wait status as os.ProcessState does; nil for exit
// status 0.
func waitError(ws syscall.WaitStatus) error {
	var text string
	switch {
	case ws.Exited():
		if ws.ExitStatus() == 0 {
			return nil
		}
		text = "exit status " + strconv.Itoa(ws.ExitStatus())
	case ws.Signaled():
		text = "signal: " + ws.Signal().String()
	default:
		text = fmt.Sprintf("wait status %#x", uint32(ws))
	}
	if ws.CoreDump() {
		text += " (core dumped)"
	}
	return errors.New(text)
}

// signal passes sig to run's process group; SIGKILL has the guard kill
// the group and every descendant left. A run that has ended is not
// signalled.
func (g *guard) signal(run int, sig syscall.Signal) {
	g.conn.Write([]byte("signal " + strconv.Itoa(run) + " " + strconv.Itoa(int(sig))))
}

// close closes plankit's end of the socket: the guard ends its adapter's
// tree, if one runs, and exits.
func (g *guard) close() { g.once.Do(func() { g.conn.CloseWrite() }) }

// kill kills the guard process itself (its adapter dies with it,
// Pdeathsig), for a guard that does not answer.
func (g *guard) kill() { g.cmd.Process.Kill() }

// runGuard is the guard's main: it runs the adapter command args for each
// run request until the socket ends.
func runGuard(args []string) int {
	syscall.CloseOnExec(3)
	os.Unsetenv(guardEnv)
	// PR_SET_CHILD_SUBREAPER: orphaned descendants are reparented here.
	syscall.RawSyscall(syscall.SYS_PRCTL, 36, 1, 0)
	signals := make(chan os.Signal, 8)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	f := os.NewFile(3, "plankit")
	c, err := net.FileConn(f)
	f.Close()
	if err != nil {
		return 2
	}
	conn := c.(*net.UnixConn)
	s := &guardState{conn: conn}
	go func() {
		for sig := range signals {
			s.signal(s.current(), sig.(syscall.Signal))
		}
	}()
	buf, oob := make([]byte, 4096), make([]byte, syscall.CmsgSpace(3*4))
	for {
		n, oobn, _, _, err := conn.ReadMsgUnix(buf, oob)
		if err != nil || n == 0 {
			break
		}
		files := receivedFiles(oob[:oobn])
		fields := strings.Fields(string(buf[:n]))
		run := 0
		if len(fields) > 1 {
			run, _ = strconv.Atoi(fields[1])
		}
		switch {
		case len(fields) == 2 && fields[0] == "run" && len(files) == 3:
			s.start(run, args, files)
		case len(fields) == 3 && fields[0] == "signal":
			if sig, err := strconv.Atoi(fields[2]); err == nil {
				s.signal(run, syscall.Signal(sig))
			}
		}
		for _, f := range files {
			f.Close()
		}
	}
	// plankit closed the socket, or died: end everything.
	s.signal(s.current(), syscall.SIGKILL)
	s.wg.Wait()
	endTree(0)
	return 0
}

// receivedFiles are the descriptors a message carried.
func receivedFiles(oob []byte) []*os.File {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return nil
	}
	var files []*os.File
	for _, m := range msgs {
		fds, err := syscall.ParseUnixRights(&m)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			syscall.CloseOnExec(fd)
			files = append(files, os.NewFile(uintptr(fd), "adapter"))
		}
	}
	return files
}

// guardState is the guard's run: which adapter runs, if any.
type guardState struct {
	conn *net.UnixConn
	mu   sync.Mutex
	run  int // the running adapter's run number, 0 when none runs
	pid  int
	wg   sync.WaitGroup
}

func (s *guardState) current() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.run
}

func (s *guardState) send(msg string) { s.conn.Write([]byte(msg)) }

// start starts run: the adapter command with stdin, stdout and stderr.
func (s *guardState) start(run int, args []string, stdio []*os.File) {
	if len(args) == 0 {
		s.send(fmt.Sprintf("error %d no adapter command", run))
		return
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdio[0], stdio[1], stdio[2]
	// Its own group, which plankit's signals reach through the guard; and
	// killed if the guard itself is killed.
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		s.send(fmt.Sprintf("error %d %v", run, err))
		return
	}
	pid := cmd.Process.Pid
	s.mu.Lock()
	s.run, s.pid = run, pid
	s.mu.Unlock()
	s.send(fmt.Sprintf("pid %d %d", run, pid))
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		cmd.Wait()
		s.mu.Lock()
		s.run, s.pid = 0, 0
		s.mu.Unlock()
		endTree(pid)
		ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		s.send(fmt.Sprintf("exit %d %d", run, uint32(ws)))
	}()
}

// signal passes sig to run's process group, if run is the adapter that
// runs; SIGKILL also kills the adapter itself (its group may be gone).
func (s *guardState) signal(run int, sig syscall.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if run == 0 || run != s.run {
		return
	}
	syscall.Kill(-s.pid, sig)
	if sig == syscall.SIGKILL {
		syscall.Kill(s.pid, sig)
	}
}

// endTree kills the adapter's process group (when group is not 0) and
// every descendant of the guard left, and reaps them, until the guard has
// no child: as a child subreaper it inherits every orphan of the tree, so
// none escapes. The adapter it ran has been reaped, and the guard runs one
// adapter at a time, so every descendant left is of that adapter's tree.
// With no child left at once (the usual clean exit) it does not scan
// /proc.
func endTree(group int) {
	if group != 0 {
		syscall.Kill(-group, syscall.SIGKILL)
	}
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
