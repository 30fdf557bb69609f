package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPublishedPagesFindEveryDeviation: each deviation a published page
// lists is filed under a clause the suite's failing checks are counted
// under, so no row says a clause conforms while naming a deviation of it
// ("deviation not detected by the suite"): a deviation's clause is the
// clause of the observation that diverged, as the suite names it.
func TestPublishedPagesFindEveryDeviation(t *testing.T) {
	pages, err := filepath.Glob("../../../docs/conformance/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no published pages under docs/conformance: %v", err)
	}
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, undetected) {
				t.Errorf("%s:%d: %s", page, i+1, line)
			}
		}
	}
}
