package proctest

import "strings"

// WithoutIdentity is a text timeline without its "implementation" line,
// so that the timelines of two implementations (the reference in-process
// and the same behind an adapter) compare equal when they behave alike.
func WithoutIdentity(timeline string) string {
	var keep []string
	for _, l := range strings.Split(timeline, "\n") {
		if !strings.HasPrefix(l, "implementation ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
