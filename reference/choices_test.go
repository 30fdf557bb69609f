package reference

import (
	"strings"
	"testing"

	"github.com/plankit/plankit/spec"
)

// The reference implements every value of every choice in spec.Choices,
// declares each pick back as it was given, and defaults to the first value.
func TestEveryChoiceValueIsAccepted(t *testing.T) {
	defaults := Choices{}.Map()
	if len(defaults) != len(spec.Choices) {
		t.Errorf("the reference declares %d choices, spec.Choices has %d", len(defaults), len(spec.Choices))
	}
	for _, ch := range spec.Choices {
		if defaults[ch.Name] != ch.Default() {
			t.Errorf("choice %s: default %q, spec default %q", ch.Name, defaults[ch.Name], ch.Default())
		}
		for _, v := range ch.ValueNames() {
			c, err := ParseChoices(map[string]string{ch.Name: v})
			if err != nil {
				t.Errorf("choice %s=%s: %v", ch.Name, v, err)
				continue
			}
			if got := c.Map()[ch.Name]; got != v {
				t.Errorf("choice %s=%s declared back as %q", ch.Name, v, got)
			}
		}
	}
	if _, err := ParseChoices(map[string]string{"nope": "x"}); err == nil || !strings.Contains(err.Error(), "unknown choice") {
		t.Errorf("unknown choice: got %v", err)
	}
	if _, err := ParseChoices(map[string]string{spec.ChoiceFoldEnd: "nope"}); err == nil || !strings.Contains(err.Error(), "unknown value") {
		t.Errorf("unknown value: got %v", err)
	}
}
