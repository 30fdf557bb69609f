package catalog

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
)

// Choice is a named pick for a point where SPEC.md is silent. An
// implementation declares its value at start (sim.Identity.Choices); checks
// that depend on the pick are tagged with the choice.
type Choice struct {
	Name string `json:"name"`
	// Question is the silent point the choice answers.
	Question string `json:"question"`
	// Values are the accepted values, the reference's default first.
	Values  []ChoiceValue `json:"values"`
	Default string        `json:"default"`
	// Clauses are the clauses whose reading the choice refines.
	Clauses []string `json:"clauses"`
}

// ChoiceValue is one accepted value of a choice and what it means.
type ChoiceValue struct {
	Value   string `json:"value"`
	Meaning string `json:"meaning"`
}

// choiceText is the catalog's prose for each choice; the names and values
// themselves come from sim (the Choice* constants) and reference
// (reference.ChoiceValues), so the catalog cannot drift from what
// implementations declare.
var choiceText = []struct {
	name     string
	question string
	clauses  []string
	meanings map[string]string
}{
	{sim.ChoiceFoldEnd, "What `foldPlanMode(events, end)` does with `end` beyond the log or negative.", []string{"LOG-2"}, map[string]string{
		"clamp": "`end` is clamped into [0, len(events)]: beyond the log folds the whole log, negative folds nothing.",
		"error": "`end` outside [0, len(events)] is an error.",
		"slice": "As `events.slice(0, end)`: a negative `end` counts from the end of the log (then clamps at 0), beyond the log folds the whole log.",
	}},
	{sim.ChoiceCancelPending, "Whether `get` reports `pending` after a `cancelled` selection during an open turn.", []string{"PEND-5", "PEND-7"}, map[string]string{
		"clear":      "`cancelled` clears the pending selection: `get` shows no `pending`.",
		"keep-equal": "`cancelled` keeps a pending entry equal to the logged state until the next pre-step (the published package).",
	}},
	{sim.ChoiceSectionSource, "Which state the `plan:policy` section of a step being assembled renders.", []string{"CFG-2", "STEP-7", "LOG-3"}, map[string]string{
		"log":     "The logged state: the request of an accepted step is derived after the append, from the log.",
		"pending": "The pending selection when there is one, else the logged state (the published package).",
	}},
	{sim.ChoiceReloadPending, "Whether a reload of the plan-mode service keeps the pending selections.", []string{"PEND-8"}, map[string]string{
		"drop": "A reload drops pending selections, like a restart.",
		"keep": "A reload keeps pending selections; only a process exit loses them.",
	}},
	{sim.ChoiceIdleAppendFailure, "What a `set` with no open turn does when its append fails.", []string{"PEND-6", "STEP-5"}, map[string]string{
		"error":   "`set` reports an error and nothing changes (the published package).",
		"pending": "`set` returns `queued` and the selection waits for the next accepted in-turn pre-step.",
	}},
	{sim.ChoicePlanHeading, "What counts as a complete markdown plan starting with a `#` heading.", []string{"EXIT-3"}, map[string]string{
		"level-1": "After trimming, the plan starts with a level-1 heading (`# Title`); `## Plan` is rejected (the published package).",
	}},
}

// Choices returns every silent-point choice, by name.
func Choices() []Choice {
	out := make([]Choice, 0, len(choiceText))
	for _, t := range choiceText {
		c := Choice{Name: t.name, Question: t.question, Clauses: slices.Clone(t.clauses)}
		for _, v := range reference.ChoiceValues[t.name] {
			c.Values = append(c.Values, ChoiceValue{Value: v, Meaning: t.meanings[v]})
		}
		if len(c.Values) > 0 {
			c.Default = c.Values[0].Value
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// checkChoices reports a choice the catalog describes that implementations
// cannot declare, a declarable one it misses, or a value without meaning.
func checkChoices(choices []Choice, declared map[string][]string) error {
	for _, c := range choices {
		values, ok := declared[c.Name]
		if !ok {
			return fmt.Errorf("choice %s: not a choice implementations declare (reference.ChoiceValues)", c.Name)
		}
		if len(values) != len(c.Values) {
			return fmt.Errorf("choice %s: catalog has %d values, implementations declare %v", c.Name, len(c.Values), values)
		}
		for _, v := range c.Values {
			if v.Meaning == "" {
				return fmt.Errorf("choice %s: value %q has no meaning in the catalog", c.Name, v.Value)
			}
		}
		if len(c.Clauses) == 0 {
			return fmt.Errorf("choice %s: names no clause", c.Name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(declared)) {
		if !slices.ContainsFunc(choices, func(c Choice) bool { return c.Name == name }) {
			return fmt.Errorf("choice %s: declared by implementations but missing from the catalog", name)
		}
	}
	return nil
}

// checkMeanings reports a value the catalog explains that implementations
// cannot declare (a value removed from the reference).
func checkMeanings(declared map[string][]string) error {
	for _, t := range choiceText {
		for _, v := range slices.Sorted(maps.Keys(t.meanings)) {
			if !slices.Contains(declared[t.name], v) {
				return fmt.Errorf("choice %s: catalog explains value %q that implementations cannot declare", t.name, v)
			}
		}
	}
	return nil
}

// declaredChoices are the choices and values an implementation can
// declare, as the reference accepts them.
func declaredChoices() map[string][]string { return reference.ChoiceValues }
