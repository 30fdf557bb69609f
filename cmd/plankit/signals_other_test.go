//go:build !unix

package main

import "testing"

func TestSignals(t *testing.T) {
	t.Skip("the signal tests send SIGINT and SIGTERM and read process groups: unix only")
}
