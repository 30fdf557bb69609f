package spec

import (
	"fmt"
	"slices"
)

// Check verifies the tables of this package: clause IDs contiguous and in
// order within known groups, each clause with a statement and the suite
// version it entered, and each choice with values, meanings and known
// clauses.
func Check() error {
	if err := checkClauses(Clauses, Groups); err != nil {
		return err
	}
	return checkChoices(Choices, Clauses)
}

func checkClauses(clauses []Clause, groups []Group) error {
	next := map[string]int{}
	for _, g := range groups {
		next[g.ID] = 1
	}
	for _, c := range clauses {
		n, ok := next[c.Group]
		if !ok {
			return fmt.Errorf("clause %s: unknown group %q", c.ID, c.Group)
		}
		if want := fmt.Sprintf("%s-%d", c.Group, n); c.ID != want {
			return fmt.Errorf("clause %s: want %s next in group %s (IDs are contiguous, in order, never renumbered)", c.ID, want, c.Group)
		}
		if !ClausePattern.MatchString(c.ID) {
			return fmt.Errorf("clause %s: does not match ClausePattern", c.ID)
		}
		next[c.Group] = n + 1
		if c.Statement == "" || c.Since == "" {
			return fmt.Errorf("clause %s: needs a statement and the suite version it entered", c.ID)
		}
	}
	for _, g := range groups {
		if next[g.ID] == 1 {
			return fmt.Errorf("group %s has no clause", g.ID)
		}
	}
	return nil
}

func checkChoices(choices []Choice, clauses []Clause) error {
	seen := map[string]bool{}
	for _, c := range choices {
		if seen[c.Name] {
			return fmt.Errorf("choice %s: declared twice", c.Name)
		}
		seen[c.Name] = true
		if c.Question == "" {
			return fmt.Errorf("choice %s: states no question", c.Name)
		}
		if len(c.Values) == 0 {
			return fmt.Errorf("choice %s: has no value", c.Name)
		}
		values := map[string]bool{}
		for _, v := range c.Values {
			if v.Name == "" || values[v.Name] {
				return fmt.Errorf("choice %s: value %q is empty or repeated", c.Name, v.Name)
			}
			values[v.Name] = true
			if v.Meaning == "" {
				return fmt.Errorf("choice %s: value %q has no meaning", c.Name, v.Name)
			}
		}
		if len(c.Clauses) == 0 {
			return fmt.Errorf("choice %s: names no clause", c.Name)
		}
		for _, id := range c.Clauses {
			if !slices.ContainsFunc(clauses, func(cl Clause) bool { return cl.ID == id }) {
				return fmt.Errorf("choice %s: unknown clause %s", c.Name, id)
			}
		}
	}
	return nil
}
