package catalog

import (
	"slices"
	"sort"

	"github.com/plankit/plankit/spec"
)

// Choice is a silent-point choice as the clause catalog shows it: the
// spec.Choices entry with its default spelled out.
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

// Choices returns every silent-point choice of spec.Choices, by name.
func Choices() []Choice {
	out := make([]Choice, 0, len(spec.Choices))
	for _, t := range spec.Choices {
		c := Choice{Name: t.Name, Question: t.Question, Default: t.Default(), Clauses: slices.Clone(t.Clauses)}
		for _, v := range t.Values {
			c.Values = append(c.Values, ChoiceValue{Value: v.Name, Meaning: v.Meaning})
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
