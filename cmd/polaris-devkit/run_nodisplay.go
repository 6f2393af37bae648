//go:build !display

package main

import (
	"fmt"
	"os"
)

// run without the display: ebiten connects to X when the binary starts,
// so the display is linked only into builds tagged "display" and a
// cabinet binary without it still runs headless anywhere.
func run([]string) int {
	fmt.Fprintln(os.Stderr, "polaris-devkit: this binary was built without the display; build it with 'go build -tags display ./cmd/polaris-devkit' (make run does)")
	return 2
}
