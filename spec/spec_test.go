package spec

import (
	"slices"
	"strings"
	"testing"
)

// The tables hold together; that they are SPEC.md's clauses, no more and
// no fewer, in its order, the recipe of a clause checks against SPEC.md
// itself (TestEveryClauseHasItsEvidence, cmd/plankit).
func TestTablesAreConsistent(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
}

func TestCheckClausesBites(t *testing.T) {
	groups := []Group{{"LOG", "l"}, {"PEND", "p"}}
	ok := []Clause{{ID: "LOG-1", Group: "LOG", Statement: "s", Since: v1}, {ID: "PEND-1", Group: "PEND", Statement: "s", Since: v1}}
	if err := checkClauses(ok, groups); err != nil {
		t.Fatalf("valid clauses rejected: %v", err)
	}
	cases := map[string]struct {
		clauses []Clause
		want    string
	}{
		"gap":           {append(slices.Clone(ok), Clause{ID: "LOG-3", Group: "LOG", Statement: "s", Since: v1}), "want LOG-2"},
		"duplicate":     {append(slices.Clone(ok), Clause{ID: "LOG-1", Group: "LOG", Statement: "s", Since: v1}), "want LOG-2"},
		"unknown group": {append(slices.Clone(ok), Clause{ID: "FOO-1", Group: "FOO", Statement: "s", Since: v1}), `unknown group "FOO"`},
		"no statement":  {append(slices.Clone(ok), Clause{ID: "LOG-2", Group: "LOG", Since: v1}), "needs a statement"},
		"empty group":   {ok[:1], "group PEND has no clause"},
	}
	for name, tc := range cases {
		err := checkClauses(tc.clauses, groups)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", name, err, tc.want)
		}
	}
}

func TestCheckChoicesBites(t *testing.T) {
	clauses := []Clause{{ID: "LOG-1"}}
	good := Choice{Name: "a", Question: "q", Values: []Value{{"x", "m"}, {"y", "m"}}, Clauses: []string{"LOG-1"}}
	if err := checkChoices([]Choice{good}, clauses); err != nil {
		t.Fatalf("valid choice rejected: %v", err)
	}
	broken := func(f func(c *Choice)) []Choice {
		c := good
		c.Values = slices.Clone(good.Values)
		f(&c)
		return []Choice{c}
	}
	cases := map[string]struct {
		choices []Choice
		want    string
	}{
		"twice":          {[]Choice{good, good}, "declared twice"},
		"no question":    {broken(func(c *Choice) { c.Question = "" }), "no question"},
		"no value":       {broken(func(c *Choice) { c.Values = nil }), "no value"},
		"repeated value": {broken(func(c *Choice) { c.Values[1].Name = "x" }), "repeated"},
		"no meaning":     {broken(func(c *Choice) { c.Values[1].Meaning = "" }), "no meaning"},
		"no clause":      {broken(func(c *Choice) { c.Clauses = nil }), "names no clause"},
		"unknown clause": {broken(func(c *Choice) { c.Clauses = []string{"LOG-9"} }), "unknown clause LOG-9"},
	}
	for name, tc := range cases {
		err := checkChoices(tc.choices, clauses)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", name, err, tc.want)
		}
	}
}

// Each clause lists exactly the choices that name it.
func TestClauseChoicesComeFromTheChoiceTable(t *testing.T) {
	for _, c := range Clauses {
		for _, name := range c.Choices {
			ch, ok := LookupChoice(name)
			if !ok || !slices.Contains(ch.Clauses, c.ID) {
				t.Errorf("clause %s lists choice %s, which does not name it", c.ID, name)
			}
		}
	}
	for _, ch := range Choices {
		for _, id := range ch.Clauses {
			if c, _ := Lookup(id); !slices.Contains(c.Choices, ch.Name) {
				t.Errorf("choice %s names %s, whose Choices %v miss it", ch.Name, id, c.Choices)
			}
		}
	}
}

func TestClauseTag(t *testing.T) {
	for tag, want := range map[string]string{"@PEND-5": "PEND-5", "@FOO-1": "FOO-1", "@id:x": "", "PEND-5": "", "@pend-5": "", "@PEND-": ""} {
		id, ok := ClauseTag(tag)
		if ok != (want != "") || (ok && id != want) {
			t.Errorf("ClauseTag(%q) = %q, %v; want %q", tag, id, ok, want)
		}
	}
}
