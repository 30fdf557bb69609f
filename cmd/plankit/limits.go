package main

import (
	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/spf13/cobra"
)

// inputFlags are the --max-input-* flags of a command that reads files;
// each command registers the bounds that apply to what it reads, with that
// kind of input's defaults (docs/reliability.md).
type inputFlags struct {
	inputlimit.Limits
	defaults inputlimit.Limits
}

// The bounds a command can register.
const (
	boundBytes = 1 << iota
	boundLine
	boundDepth
	boundNodes
	boundActions
	boundEvents
	boundEntries
	boundTranscript
)

func (f *inputFlags) register(cmd *cobra.Command, defaults inputlimit.Limits, what string, bounds int) {
	f.Limits, f.defaults = defaults, defaults
	fl := cmd.Flags()
	if bounds&boundBytes != 0 {
		fl.Int64Var(&f.Bytes, inputlimit.FlagBytes[2:], defaults.Bytes, "largest "+what+" read, in bytes")
	}
	if bounds&boundLine != 0 {
		fl.IntVar(&f.Line, inputlimit.FlagLine[2:], defaults.Line, "longest line of a "+what+", in bytes")
	}
	if bounds&boundDepth != 0 {
		fl.IntVar(&f.Depth, inputlimit.FlagDepth[2:], defaults.Depth, "deepest nesting of YAML collections in a "+what)
	}
	if bounds&boundNodes != 0 {
		fl.IntVar(&f.Nodes, inputlimit.FlagNodes[2:], defaults.Nodes, "most YAML nodes in a "+what+", each alias counted as what it expands to")
	}
	if bounds&boundActions != 0 {
		fl.IntVar(&f.Records, inputlimit.FlagActions[2:], defaults.Records, "most actions in a "+what)
	}
	if bounds&boundEvents != 0 {
		fl.IntVar(&f.Records, inputlimit.FlagEvents[2:], defaults.Records, "most events in a "+what)
	}
	if bounds&boundTranscript != 0 {
		fl.Int64Var(&f.Transcript, inputlimit.FlagTranscript[2:], defaults.Transcript, "with --level runtime: most bytes of transcript the model requests of one "+what+" carry in all (each message counts its text as JSON and 192 bytes, once per request)")
	}
	if bounds&boundEntries != 0 {
		fl.IntVar(&f.Records, inputlimit.FlagEntries[2:], defaults.Records, "most entries in a "+what)
	}
}

// validate refuses a bound below 1.
func (f *inputFlags) validate() error {
	for _, b := range []struct {
		flag   string
		v, def int64
	}{{inputlimit.FlagBytes, f.Bytes, f.defaults.Bytes}, {inputlimit.FlagLine, int64(f.Line), int64(f.defaults.Line)},
		{inputlimit.FlagDepth, int64(f.Depth), int64(f.defaults.Depth)}, {inputlimit.FlagNodes, int64(f.Nodes), int64(f.defaults.Nodes)},
		{"--max-input-actions, --max-input-events or --max-input-entries", int64(f.Records), int64(f.defaults.Records)},
		{inputlimit.FlagTranscript, f.Transcript, f.defaults.Transcript}} {
		if b.def > 0 && b.v < 1 {
			return usageErr("%s %d: want at least 1", b.flag, b.v)
		}
	}
	return nil
}
