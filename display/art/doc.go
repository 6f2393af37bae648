// Package art is the display's art pipeline: every symbol, card, lamp and
// backdrop is drawn by code from vector shapes (golang.org/x/image/vector)
// at start-up, and text uses the Go fonts bundled in golang.org/x/image
// (BSD-3-Clause). Nothing is downloaded or checked in as pixels; the same
// code gives the same sprites on every machine. LICENSES.md records the
// licence of each source.
package art
