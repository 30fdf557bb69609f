package spec

import "strings"

// PlanCommand is a typed command line read as the /plan command reads it
// (CMD-1..4). plankit's host splits a line "/name args" into the command's
// name and its raw arguments (SplitCommand), hands them to the command's
// handler and logs both (command/run); whether the whitespace around the
// argument belongs to it (CMD-4: "the exact argument off") is choice
// plan-argument. A line that is not /plan selects nothing and steers
// nothing.
type PlanCommand struct {
	// Name is the command's name, without the slash.
	Name string
	// Arg is the argument: without its surrounding whitespace, or as
	// typed (plan-argument=exact).
	Arg string
}

// SplitCommand splits a typed command line as plankit's host does: the
// name runs from after the leading slash to the first space, and the rest
// is the raw arguments. (How a runtime splits a line is its own; the
// specification names only the command and its arguments.)
func SplitCommand(input string) (name, args string) {
	name, args, _ = strings.Cut(strings.TrimPrefix(input, "/"), " ")
	return name, args
}

// ParseCommand reads a typed command line split as plankit's host splits
// it (SplitCommand), its argument trimmed (plan-argument=trimmed).
func ParseCommand(input string) PlanCommand { return CommandOf(SplitCommand(input)) }

// ParseCommandAs is ParseCommand under a reading of choice plan-argument:
// PlanArgumentExact keeps the argument as typed; any other value trims it.
func ParseCommandAs(input, reading string) PlanCommand {
	name, args := SplitCommand(input)
	return CommandAs(name, args, reading)
}

// CommandOf is the command of a name and its raw arguments, as a handler
// gets them and command/run logs them, the argument trimmed.
func CommandOf(name, args string) PlanCommand {
	return PlanCommand{Name: name, Arg: strings.TrimSpace(args)}
}

// CommandAs is CommandOf under a reading of choice plan-argument.
func CommandAs(name, args, reading string) PlanCommand {
	if reading == PlanArgumentExact {
		return PlanCommand{Name: name, Arg: args}
	}
	return CommandOf(name, args)
}

// Padded reports whether a command line's argument has whitespace around
// it, where the readings of choice plan-argument part.
func Padded(input string) bool {
	_, args := SplitCommand(input)
	return args != strings.TrimSpace(args)
}

// IsPlan reports whether the command is /plan.
func (c PlanCommand) IsPlan() bool { return c.Name == Command }

// Active is the state /plan selects: inactive for the exact argument off
// (CMD-4), plan mode for any other (CMD-2, CMD-3). It is false for a line
// that is not /plan, which selects nothing (IsPlan).
func (c PlanCommand) Active() bool { return c.IsPlan() && c.Arg != CommandOff }

// Message is the text /plan steers after its selection (CMD-3): the
// argument, or "" for bare /plan and for off.
func (c PlanCommand) Message() string {
	if !c.IsPlan() || !c.Active() {
		return ""
	}
	return c.Arg
}

// NearOff reports whether the argument is off but for its case or the
// whitespace around it: where an implementation that reads "off" loosely
// parts from CMD-4's exact argument.
func (c PlanCommand) NearOff() bool {
	return c.IsPlan() && c.Arg != CommandOff && strings.EqualFold(strings.TrimSpace(c.Arg), CommandOff)
}

// NamesPlan reports whether a command line invokes /plan in a runtime's
// own reading of it: its first word, whatever whitespace surrounds it, is
// /plan. A check of what a runtime did reads its lines this leniently, as
// runtimes split lines their own way.
func NamesPlan(input string) bool {
	f := strings.Fields(input)
	return len(f) > 0 && f[0] == "/"+Command
}
