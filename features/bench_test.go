package features

import (
	"context"
	"testing"

	"github.com/plankit/plankit/reference"
)

// BenchmarkRunReference measures one run of the whole suite against the
// reference (docs/checks.md reports the figure).
func BenchmarkRunReference(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Run(context.Background(), Options{NewPort: reference.Factory(reference.Options{})}); err != nil {
			b.Fatal(err)
		}
	}
}
