package adapter

import (
	"slices"
	"testing"

	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
)

// Each server answers exactly its protocol's methods, by the interface it
// serves: the adapter protocol's are sim.Port's and preTool (a port's tool
// gate), the runtime protocol's loop.Runtime's; a method only the
// implementation's concrete type has (the reference's StopForRestart) is
// none of them.
func TestServersAnswerTheirProtocolsMethods(t *testing.T) {
	rt, err := loop.NewBuiltin(reference.NewPort(reference.Options{}), loop.RetryPreStep)
	if err != nil {
		t.Fatal(err)
	}
	stub := handler(nil)
	for _, c := range []struct {
		name    string
		methods map[string]handler
		want    []string
	}{
		{"adapter protocol", handlers[sim.Port](reference.NewPort(reference.Options{}), map[string]handler{MethodPreTool: stub}), Methods},
		{"runtime protocol", handlers[loop.Runtime](rt, nil), RuntimeMethods},
	} {
		var got []string
		for m := range c.methods {
			got = append(got, m)
		}
		if slices.Sort(got); !slices.Equal(got, slices.Sorted(slices.Values(c.want))) {
			t.Errorf("%s: the server answers %v, the protocol lists %v", c.name, got, c.want)
		}
	}
}
