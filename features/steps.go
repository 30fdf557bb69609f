package features

import (
	"regexp"
	"sync"

	"github.com/plankit/plankit/internal/third_party/godog"
)

// patterns caches the compiled step patterns: godog compiles a string
// pattern at every registration, and registration happens per scenario.
var patterns sync.Map

func re(pattern string) *regexp.Regexp {
	if r, ok := patterns.Load(pattern); ok {
		return r.(*regexp.Regexp)
	}
	r := regexp.MustCompile(pattern)
	patterns.Store(pattern, r)
	return r
}

// register binds every step of the suite to w. Steps speak the domain's
// language and act only through the runtime, which reaches the
// implementation only through its port.
func (w *world) register(sc *godog.ScenarioContext) {
	w.registerGiven(sc)
	w.registerWhen(sc)
	w.registerThen(sc)
	w.registerHost(sc)
	w.registerOutside(sc)
	w.registerReview(sc)
}
