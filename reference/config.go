package reference

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Config is the plugin config: exactly { section: string } (CFG-1).
type Config struct {
	// Section is the guidance rendered as the plan:policy section while plan
	// mode is active.
	Section string
}

// ResolveConfig validates a raw config. A missing, blank or non-string
// section and any unknown key are errors (CFG-1); nothing is ignored.
func ResolveConfig(raw json.RawMessage) (Config, error) {
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&fields); err != nil || fields == nil {
		return Config{}, errors.New("plan-mode config must be an object { section: string }")
	}
	var unknown []string
	for k := range fields {
		if k != "section" {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	if len(unknown) > 0 {
		return Config{}, fmt.Errorf("plan-mode config has unknown key(s) %s; the config is { section }", strings.Join(unknown, ", "))
	}
	rawSection, ok := fields["section"]
	if !ok {
		return Config{}, errors.New("plan-mode config needs a string `section`")
	}
	var section string
	if err := json.Unmarshal(rawSection, &section); err != nil {
		return Config{}, errors.New("plan-mode config `section` must be a string")
	}
	if strings.TrimSpace(section) == "" {
		return Config{}, errors.New("plan-mode config `section` must not be blank")
	}
	return Config{Section: section}, nil
}
