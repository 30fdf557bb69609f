package trace

import (
	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/internal/schemafile"
)

// Format is the version of the trace format this plankit reads and
// writes. A trace may say which format it is written in (format: N); one
// that does not is read as this one. Each later format changed how
// something is written, never what it means, so Upgrade rewrites a trace
// of any earlier format as this one:
//
//   - format 2: a plan/mode expectation is planMode (format 1: plan).
const Format = 2

// upgrades are the changes of every format after the first, which Upgrade
// makes to an older trace.
var upgrades = []schemafile.Upgrade{
	{Parent: "expect", Old: []string{"plan"}, New: "planMode"},
}

// renamed are the upgrades' renamed keys, which the schema's errors name
// with how they are written now.
var renamed = schemafile.RenamedOf(upgrades)

// Upgrade rewrites data, a trace written in an earlier format (format 1,
// or one that says format: N), as a trace of this Format: it renames the
// keys each later format renamed and sets a format: line it has to the
// current one, and keeps the rest of the file's text byte for byte. It
// returns the format the file was written in (Format when there was
// nothing to upgrade, data then unchanged). A file that says it is of a
// later format than this plankit reads is an error; the result is checked
// to parse as a trace of this format.
func Upgrade(file string, data []byte) (out []byte, from int, err error) {
	out, from, err = schemafile.UpgradeFormat(file, data, inputlimit.Trace, Format, upgrades)
	if err != nil || from == Format {
		return out, from, err
	}
	if _, err := Parse(file, out); err != nil {
		return nil, from, err
	}
	return out, from, nil
}
