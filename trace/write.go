package trace

import (
	"encoding/json"
	"fmt"

	"github.com/goccy/go-yaml"
)

// Marshal writes a trace as YAML in the trace format, so generated traces
// (counterexamples, explorations) replay with `plankit sim`.
func Marshal(t *Trace) ([]byte, error) {
	js, err := json.Marshal(t)
	if err != nil {
		return nil, fmt.Errorf("encoding trace %q: %w", t.Name, err)
	}
	out, err := yaml.JSONToYAML(js)
	if err != nil {
		return nil, fmt.Errorf("encoding trace %q as YAML: %w", t.Name, err)
	}
	return out, nil
}
