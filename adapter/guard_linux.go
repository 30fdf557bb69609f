package adapter

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
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
// (the kernel closes plankit's end of the guard's command pipe), the guard kills
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
// The guard and plankit talk over two pipes, one line a message: plankit
// writes on the guard's fd 3, the guard on its fd 4.
//
//	plankit → guard  "run N"       start run N
//	guard → plankit  "pid N P I O E"  run N started as process P; I, O and E are the
//	                               guard's descriptors of the adapter's stdin (write end),
//	                               stdout and stderr (read ends)
//	plankit → guard  "took N"      plankit opened them (/proc/G/fd/I …): the guard closes its own
//	guard → plankit  "error N T"   run N could not be started: T
//	plankit → guard  "signal N S"  pass signal S to run N's process group (SIGKILL: its whole tree)
//	guard → plankit  "exit N W"    run N exited with wait status W, and its tree has been ended
//
// The adapter's pipes are the guard's: plankit opens its ends through
// /proc, so nothing but pipes joins the two (no socket). The end of fd 3
// (plankit closed it, or died) ends the running adapter's tree and the
// guard. SIGTERM, SIGINT and SIGHUP sent to the guard are passed on to the
// adapter's group.

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
	cmd *exec.Cmd
	// commands is the guard's fd 3, replies its fd 4.
	commands *os.File
	replies  *bufio.Reader
	mu       sync.Mutex // serialises writes on commands
	// started receives the reply to a run; exits the exit of a run.
	started chan guardReply
	exits   chan guardReply
	// dead is closed when the guard's replies ended (it exited or is
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
	args []string
}

// startGuard starts a guard process for command, run in dir.
func startGuard(command []string, dir string) (*guard, error) {
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		cmdR.Close()
		cmdW.Close()
		return nil, err
	}
	cmd := exec.Command("/proc/self/exe", command...)
	cmd.Args[0] = guardArg0
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), guardEnv+"=1")
	cmd.ExtraFiles = []*os.File{cmdR, repW}
	// Its own process group; no Pdeathsig: when plankit dies the guard
	// must live on long enough to end the adapter's whole tree.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	cmdR.Close()
	repW.Close()
	if err != nil {
		cmdW.Close()
		repR.Close()
		return nil, err
	}
	g := &guard{cmd: cmd, commands: cmdW, replies: bufio.NewReader(repR), started: make(chan guardReply, 1), exits: make(chan guardReply, 1),
		dead: make(chan struct{}), gone: make(chan struct{})}
	go g.read(repR)
	return g, nil
}

// read routes the guard's messages until they end, then reaps it.
func (g *guard) read(r *os.File) {
	for {
		line, err := g.replies.ReadString('\n')
		if err != nil {
			break
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		run, _ := strconv.Atoi(f[1])
		m := guardReply{kind: f[0], run: run, args: f[2:]}
		if m.kind == "error" {
			// The text, spaces and all.
			_, text, _ := strings.Cut(strings.TrimSuffix(line, "\n"), f[1]+" ")
			m.args = []string{text}
		}
		if m.kind == "exit" {
			g.exits <- m
		} else {
			g.started <- m
		}
	}
	close(g.dead)
	r.Close()
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

// send writes one command line (shorter than a pipe's atomic write).
func (g *guard) send(msg string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, err := g.commands.WriteString(msg + "\n")
	return err
}

// start runs the adapter and returns its run number, its pid and
// plankit's ends of its pipes: stdin's write end, stdout's and stderr's
// read ends.
func (g *guard) start() (run, pid int, stdin, stdout, stderr *os.File, err error) {
	g.run++
	run = g.run
	if err := g.send("run " + strconv.Itoa(run)); err != nil {
		return 0, 0, nil, nil, nil, fmt.Errorf("the adapter's guard: %v", err)
	}
	var m guardReply
	select {
	case m = <-g.started:
	case <-g.dead:
		return 0, 0, nil, nil, nil, errors.New("the adapter's guard process ended before it started the adapter")
	}
	switch {
	case m.run != run:
		return 0, 0, nil, nil, nil, fmt.Errorf("the adapter's guard answered run %d for run %d", m.run, run)
	case m.kind == "error" && len(m.args) == 1:
		return 0, 0, nil, nil, nil, errors.New(m.args[0])
	case m.kind != "pid" || len(m.args) != 4:
		return 0, 0, nil, nil, nil, fmt.Errorf("the adapter's guard answered %s %v", m.kind, m.args)
	}
	pid, err = strconv.Atoi(m.args[0])
	if err != nil {
		return 0, 0, nil, nil, nil, err
	}
	// The guard's descriptors, opened as plankit's own: non-blocking, so
	// reads and writes take deadlines.
	var files []*os.File
	for i, flag := range []int{syscall.O_WRONLY, syscall.O_RDONLY, syscall.O_RDONLY} {
		f, ferr := os.OpenFile("/proc/"+strconv.Itoa(g.cmd.Process.Pid)+"/fd/"+m.args[1+i], flag|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if ferr != nil {
			err = fmt.Errorf("opening the adapter's pipes: %v", ferr)
			break
		}
		files = append(files, f)
	}
	if serr := g.send("took " + strconv.Itoa(run)); err == nil && serr != nil {
		err = fmt.Errorf("the adapter's guard: %v", serr)
	}
	if err != nil {
		for _, f := range files {
			f.Close()
		}
		g.signal(run, syscall.SIGKILL)
		g.wait(run) // its exit is not the next run's
		return 0, 0, nil, nil, nil, err
	}
	return run, pid, files[0], files[1], files[2], nil
}

// wait waits until run has exited and its tree has been ended, and
// returns how it exited as exec.Cmd.Wait would (nil for exit status 0);
// ok is false when the guard ended instead (its adapter is killed with it,
// Pdeathsig).
func (g *guard) wait(run int) (exit error, ok bool) {
	select {
	case r := <-g.exits:
		var w uint64
		err := errors.New("no status")
		if len(r.args) == 1 {
			w, err = strconv.ParseUint(r.args[0], 10, 32)
		}
		if err != nil || r.run != run {
			return fmt.Errorf("the adapter's guard reported %v for run %d", r.args, run), false
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
	g.send("signal " + strconv.Itoa(run) + " " + strconv.Itoa(int(sig)))
}

// close closes plankit's end of the guard's commands: the guard ends its
// adapter's tree, if one runs, and exits.
func (g *guard) close() { g.once.Do(func() { g.mu.Lock(); g.commands.Close(); g.mu.Unlock() }) }

// kill kills the guard process itself (its adapter dies with it,
// Pdeathsig), for a guard that does not answer.
func (g *guard) kill() { g.cmd.Process.Kill() }

// runGuard is the guard's main: it runs the adapter command args for each
// run command until its commands end.
func runGuard(args []string) int {
	commands, replies := os.NewFile(3, "commands"), os.NewFile(4, "replies")
	syscall.CloseOnExec(3)
	syscall.CloseOnExec(4)
	os.Unsetenv(guardEnv)
	// PR_SET_CHILD_SUBREAPER: orphaned descendants are reparented here.
	syscall.RawSyscall(syscall.SYS_PRCTL, 36, 1, 0)
	signals := make(chan os.Signal, 8)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	s := &guardState{replies: replies, held: map[int][]*os.File{}}
	go func() {
		for sig := range signals {
			s.signal(s.current(), sig.(syscall.Signal))
		}
	}()
	in := bufio.NewScanner(commands)
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) < 2 {
			continue
		}
		run, err := strconv.Atoi(f[1])
		if err != nil {
			continue
		}
		switch {
		case f[0] == "run" && len(f) == 2:
			s.start(run, args)
		case f[0] == "took" && len(f) == 2:
			s.release(run)
		case f[0] == "signal" && len(f) == 3:
			if sig, err := strconv.Atoi(f[2]); err == nil {
				s.signal(run, syscall.Signal(sig))
			}
		}
	}
	// plankit closed the commands, or died: end everything.
	s.signal(s.current(), syscall.SIGKILL)
	s.wg.Wait()
	endTree(0)
	return 0
}

// guardState is the guard's run: which adapter runs, if any.
type guardState struct {
	replies *os.File
	mu      sync.Mutex
	run     int // the running adapter's run number, 0 when none runs
	pid     int
	wg      sync.WaitGroup
	// held are the guard's ends of each run's pipes, until plankit took
	// its own.
	held map[int][]*os.File
}

func (s *guardState) current() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.run
}

// send writes one reply line.
func (s *guardState) send(format string, a ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.replies, format+"\n", a...)
}

// start starts run: the adapter command on three new pipes, whose other
// ends the guard holds for plankit to open.
func (s *guardState) start(run int, args []string) {
	if len(args) == 0 {
		s.send("error %d no adapter command", run)
		return
	}
	var ours, theirs []*os.File
	closeAll := func() {
		for _, f := range append(ours, theirs...) {
			f.Close()
		}
	}
	for i := range 3 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll()
			s.send("error %d %v", run, err)
			return
		}
		if i == 0 { // stdin: the adapter reads
			theirs, ours = append(theirs, r), append(ours, w)
		} else {
			theirs, ours = append(theirs, w), append(ours, r)
		}
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = theirs[0], theirs[1], theirs[2]
	// Its own group, which plankit's signals reach through the guard; and
	// killed if the guard itself is killed.
	setProcessGroup(cmd)
	err := cmd.Start()
	for _, f := range theirs {
		f.Close()
	}
	theirs = nil
	if err != nil {
		closeAll()
		s.send("error %d %s", run, strings.ReplaceAll(err.Error(), "\n", " "))
		return
	}
	pid := cmd.Process.Pid
	s.mu.Lock()
	s.run, s.pid = run, pid
	s.held[run] = ours
	s.mu.Unlock()
	s.send("pid %d %d %d %d %d", run, pid, ours[0].Fd(), ours[1].Fd(), ours[2].Fd())
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		cmd.Wait()
		s.mu.Lock()
		s.run, s.pid = 0, 0
		s.mu.Unlock()
		endTree(pid)
		s.release(run)
		ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		s.send("exit %d %d", run, uint32(ws))
	}()
}

// release closes the guard's ends of run's pipes.
func (s *guardState) release(run int) {
	s.mu.Lock()
	files := s.held[run]
	delete(s.held, run)
	s.mu.Unlock()
	for _, f := range files {
		f.Close()
	}
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
