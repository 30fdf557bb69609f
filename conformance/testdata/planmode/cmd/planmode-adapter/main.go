// Command planmode-adapter serves the implementation over the adapter
// protocol, so the plankit command runs it: plankit check --adapter
// planmode-adapter, plankit sim --adapter planmode-adapter TRACE.
package main

import (
	"fmt"
	"os"

	"github.com/plankit/plankit/adapter"

	"example.com/planmode"
)

func main() {
	if err := adapter.Serve(os.Stdin, os.Stdout, planmode.NewPort(), adapter.ServeOptions{}); err != nil {
		fmt.Fprintln(os.Stderr, "planmode-adapter:", err)
		os.Exit(1)
	}
}
