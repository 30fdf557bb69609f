//go:build !unix

package adapter_test

import "testing"

func TestProcessGroups(t *testing.T) {
	t.Skip("adapter process groups exist on unix only; elsewhere the adapter process alone is ended")
}
