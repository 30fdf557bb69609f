package attribution

import (
	"slices"
	"strings"
)

// runtimePrefix begins every runtime-level observation kind (the Rt…
// constants) and no plugin-level one (the Obs… constants).
const runtimePrefix = "runtime "

// IsRuntime reports whether an observation kind is the runtime level's.
func IsRuntime(observation string) bool { return strings.HasPrefix(observation, runtimePrefix) }

// AtLevel is every clause the table's rows of one level name, in table
// order: the runtime level's rows (runtime) or the plugin level's. A
// divergence at that level can be named under no other clause.
func AtLevel(runtime bool) []string {
	var out []string
	for _, r := range Table {
		if IsRuntime(r.Observation) != runtime {
			continue
		}
		for _, c := range r.Clauses {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}
