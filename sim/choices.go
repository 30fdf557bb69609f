package sim

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ChoicePlanHeading: what EXIT-3's "a `#` heading" means. "level-1": after
// trimming, the plan starts with "#", whitespace and text.
const ChoicePlanHeading = "plan-heading"

// ChoiceValues lists, for every silent-point choice, the values plankit
// knows, the default (the reference's pick) first. An implementation may
// declare only these (CheckChoices).
var ChoiceValues = map[string][]string{
	ChoiceFoldEnd:           {"clamp", "error", "slice"},
	ChoiceCancelPending:     {"clear", "keep-equal"},
	ChoiceSectionSource:     {"log", "pending"},
	ChoiceReloadPending:     {"drop", "keep"},
	ChoiceIdleAppendFailure: {"error", "pending"},
	ChoicePlanHeading:       {"level-1"},
}

// CheckChoices refuses choices plankit does not know: a choice name outside
// ChoiceValues, or a value the choice does not have. Every suite calls it on
// the identity an implementation declares at start, so a declaration the
// checks cannot honour stops the run (the implementation could not be
// checked) instead of being skipped or judged under another reading. The
// error names the choice and the known names or values.
func CheckChoices(declared map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(declared)) {
		v := declared[name]
		known, ok := ChoiceValues[name]
		if !ok {
			return fmt.Errorf("the implementation declares choice %q, which plankit does not know (known choices: %s)", name, strings.Join(slices.Sorted(maps.Keys(ChoiceValues)), ", "))
		}
		if !slices.Contains(known, v) {
			return fmt.Errorf("the implementation declares %s=%q, a value plankit does not know for choice %s (known values: %s)", name, v, name, strings.Join(known, ", "))
		}
	}
	return nil
}

// Start starts port and checks the choices it declares (CheckChoices). A
// refused declaration is an error like a failed start: the implementation
// cannot be run against the checks.
func Start(port Port) (Identity, error) {
	id, err := port.Start()
	if err != nil {
		return id, err
	}
	if err := CheckChoices(id.Choices); err != nil {
		_ = port.Stop() // it cannot be checked; end it
		return id, err
	}
	return id, nil
}
