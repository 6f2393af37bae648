// Package games links every game into a binary: importing it registers
// Wish Upon a Star and Magic Stars with engine.Lookup.
package games

import (
	_ "github.com/polaris-vlt/polaris/engine/magicstars"
	_ "github.com/polaris-vlt/polaris/engine/wishstar"
)
