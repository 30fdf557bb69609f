package conformance

import (
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/plankit/plankit/spec"
)

// Classifications of a deviation.
const (
	// KindBug: the package contradicts a clause the specification fixes.
	KindBug = "bug"
	// KindSilentPoint: the specification is silent (or ambiguous) and the
	// package's reading differs from the one a check asserts.
	KindSilentPoint = "silent-point"
)

// Deviation is one written-up way the package differs from SPEC.md. Several
// checks may fail because of one deviation; every deviation names at least
// one: the page says, for each, the check that finds it.
type Deviation struct {
	ID     string `yaml:"id"`
	Title  string `yaml:"title"`
	Clause string `yaml:"clause"`
	Kind   string `yaml:"kind"`
	// Choice names the silent point (name=value as the package declares it)
	// for a silent-point deviation.
	Choice string `yaml:"choice,omitempty"`
	// Checks are the IDs of the checks this deviation fails (at least one).
	Checks []string `yaml:"checks"`
	// Trace is the repository path of a trace file that reproduces it.
	Trace string `yaml:"trace"`
	// Where points at the package code responsible.
	Where     string `yaml:"where"`
	Reasoning string `yaml:"reasoning"`
	// Belongs says, for a whole runtime, which part the deviation belongs
	// to: BelongsLoop, BelongsPlugin or BelongsMeeting.
	Belongs string `yaml:"belongs,omitempty"`
}

// Where a runtime's deviation belongs.
const (
	BelongsLoop    = "loop"
	BelongsPlugin  = "plugin"
	BelongsMeeting = "meeting"
)

// belongsText is how the page says where a deviation belongs.
var belongsText = map[string]string{
	BelongsLoop:    "the loop",
	BelongsPlugin:  "the plugin",
	BelongsMeeting: "where the loop and the plugin meet",
}

// Observation is a way the subject differs from the reference that is not
// a deviation, with the reason.
type Observation struct {
	ID     string `yaml:"id"`
	Check  string `yaml:"check,omitempty"`
	Clause string `yaml:"clause"`
	Choice string `yaml:"choice,omitempty"`
	Note   string `yaml:"note"`
}

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Notes is the written-up part of the conformance page: where the package
// makes each silent-point choice, and its deviations.
type Notes struct {
	// Choices explains each declared choice by name; the text starts with
	// the declared value and a colon ("keep-equal: ...").
	Choices      map[string]string `yaml:"choices"`
	Deviations   []Deviation       `yaml:"deviations"`
	Observations []Observation     `yaml:"observations"`
}

// readNotes reads and validates the deviations file. Problems name the
// file, the entry and the field.
func readNotes(path string, needBelongs bool) (Notes, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Notes{}, err
	}
	var n Notes
	if err := yaml.UnmarshalWithOptions(data, &n, yaml.Strict()); err != nil {
		return Notes{}, fmt.Errorf("%s: %s", path, yaml.FormatError(err, false, true))
	}
	for _, name := range slices.Sorted(maps.Keys(n.Choices)) {
		text := n.Choices[name]
		if v, _, ok := strings.Cut(text, ":"); !ok || strings.TrimSpace(v) == "" || strings.ContainsAny(v, " \n") {
			return Notes{}, fmt.Errorf("%s: choices.%s: start with the declared value and a colon, like \"keep-equal: ...\"", path, name)
		}
	}
	if err := validDeviations(path, n.Deviations, needBelongs); err != nil {
		return Notes{}, err
	}
	return n, nil
}

func validDeviations(path string, devs []Deviation, needBelongs bool) error {
	seenID := map[string]int{}
	seenCheck := map[string]string{}
	for i, d := range devs {
		errf := func(field, format string, args ...any) error {
			return fmt.Errorf("%s: deviations[%d].%s: %s", path, i, field, fmt.Sprintf(format, args...))
		}
		switch {
		case !slugPattern.MatchString(d.ID):
			return errf("id", "want a lower-case slug, got %q", d.ID)
		case strings.TrimSpace(d.Title) == "":
			return errf("title", "missing")
		case !spec.ClausePattern.MatchString(d.Clause):
			return errf("clause", "want a clause ID like STEP-1, got %q", d.Clause)
		case d.Kind != KindBug && d.Kind != KindSilentPoint:
			return errf("kind", "want %s or %s, got %q", KindBug, KindSilentPoint, d.Kind)
		case d.Kind == KindSilentPoint && !strings.Contains(d.Choice, "="):
			return errf("choice", "a silent-point deviation names its choice as name=value")
		case d.Kind == KindBug && d.Choice != "":
			return errf("choice", "a bug is not a choice; leave choice out")
		case strings.TrimSpace(d.Trace) == "":
			return errf("trace", "every deviation needs a trace that reproduces it")
		case strings.TrimSpace(d.Where) == "":
			return errf("where", "missing")
		case strings.TrimSpace(d.Reasoning) == "":
			return errf("reasoning", "missing")
		case needBelongs && belongsText[d.Belongs] == "":
			return errf("belongs", "want %s, %s or %s, got %q", BelongsLoop, BelongsPlugin, BelongsMeeting, d.Belongs)
		case !needBelongs && d.Belongs != "":
			return errf("belongs", "only a runtime's deviations say where they belong; leave belongs out")
		case len(d.Checks) == 0:
			return errf("checks", "name the checks that find it: a deviation the suite does not find is a gap in the suite (add a check), not a finding by reading")
		}
		if prev, dup := seenID[d.ID]; dup {
			return errf("id", "%q is already used by entry %d", d.ID, prev)
		}
		seenID[d.ID] = i
		for j, c := range d.Checks {
			if prev, dup := seenCheck[c]; dup {
				return errf(fmt.Sprintf("checks[%d]", j), "check %q is already explained by deviation %q", c, prev)
			}
			seenCheck[c] = d.ID
		}
	}
	return nil
}
