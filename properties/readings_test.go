package properties

import (
	"context"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/spec"
)

// Every reading of every followed choice of the plugin level passes every
// property and the exploration when the implementation declares none: the
// model forks into the readings where an action can part them and keeps
// those that explain what the implementation did.
func TestEveryReadingOfAFollowedChoicePasses(t *testing.T) {
	for _, c := range spec.Choices {
		if !c.Followed || len(c.Levels) > 0 && c.Levels[0] != spec.LevelPlugin {
			continue
		}
		for _, v := range c.ValueNames()[1:] {
			t.Run(c.Name+"="+v, func(t *testing.T) {
				ch, err := reference.ParseChoices(map[string]string{c.Name: v})
				if err != nil {
					t.Fatal(err)
				}
				newPort := reference.Factory(reference.Options{Choices: ch, Declares: map[string]string{c.Name: ""}})
				cases, err := Run(context.Background(), Options{NewPort: newPort, Seed: 1, Checks: 40, CounterexampleDir: t.TempDir()})
				if err != nil {
					t.Fatal(err)
				}
				for _, k := range cases {
					if k.Status != report.Passed {
						t.Errorf("%s %s: %s", k.ID, k.Status, k.Message)
					}
				}
				res, err := Explore(context.Background(), ExploreOptions{NewPort: newPort, Depth: 3})
				if err != nil {
					t.Fatal(err)
				}
				if res.Violation != nil {
					t.Errorf("exploration: %+v", res.Violation)
				}
			})
		}
	}
}
