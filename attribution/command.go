package attribution

import (
	"slices"

	"github.com/plankit/plankit/spec"
)

// The rows that say what a typed /plan line does with its argument, at
// each level: a line that is not /plan is the registration's (CMD-1), bare
// /plan, the exact argument off and any other argument (a message) each
// have their row. They are the one place a command's clause is declared:
// a divergence of a command's result, of what it appended or left pending
// names the clause of its line's row (CommandRow), never a clause spelled
// where the divergence is found.
var commandRows = [2]struct{ registered, bare, off, message string }{
	{RowCommandRegistered, RowCommandBare, RowCommandOff, RowCommandMessage},
	{RowRtCommandRegistered, RowRtCommandBare, RowRtCommandOff, RowRtCommandMessage},
}

// CommandRow is the row of the table that names what a typed line does
// with its argument, at the plugin level or (runtime) the runtime level,
// the line read as plankit's host reads it (spec.ParseCommand). An
// argument that is off but for its case or padding is off's row: CMD-4
// makes only the exact argument off, so reading it as off breaks CMD-4.
func CommandRow(input string, runtime bool) string {
	rows := commandRows[0]
	if runtime {
		rows = commandRows[1]
	}
	c := spec.ParseCommand(input)
	switch {
	case !c.IsPlan():
		return rows.registered
	case c.Arg == "":
		return rows.bare
	case !c.Active(), c.NearOff():
		return rows.off
	}
	return rows.message
}

// ForCommand is the clauses of the row with that ID that a typed line's
// own row (CommandRow) names: a row whose situation is "a /plan command
// that …" names every argument's clause, and a divergence there names its
// line's. When they share none (a line that is not /plan), the line's own
// row's clauses.
func ForCommand(id, input string, runtime bool) []string {
	own := Row(CommandRow(input, runtime))
	out := slices.DeleteFunc(Row(id), func(c string) bool { return !slices.Contains(own, c) })
	if len(out) == 0 {
		return own
	}
	return out
}

// Among is those of clauses that the row with that ID names, in their
// order: a divergence whose clauses another comparison gave (a failed
// append named as the append it would have been) keeps only what its own
// row allows; all of them when the row names none of them.
func Among(id string, clauses []string) []string {
	row := Row(id)
	out := slices.DeleteFunc(slices.Clone(clauses), func(c string) bool { return !slices.Contains(row, c) })
	if len(out) == 0 {
		return clauses
	}
	return out
}
