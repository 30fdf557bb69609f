package rtrace

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/plankit/plankit/loop"
)

// TestSchemaStepsAreTheStepTable: the runtime trace schema's step members
// (besides expect) are the kinds loop's step table declares, so a new
// kind of step cannot be added without the schema knowing it.
func TestSchemaStepsAreTheStepTable(t *testing.T) {
	b, err := os.ReadFile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties struct {
			Steps struct {
				Items struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"items"`
			} `json:"steps"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	var members []string
	for name := range s.Properties.Steps.Items.Properties {
		if name != "expect" {
			members = append(members, name)
		}
	}
	slices.Sort(members)
	want := slices.Sorted(slices.Values(loop.StepNames()))
	if !slices.Equal(members, want) {
		t.Fatalf("schema step members %v, step table %v", members, want)
	}
}
