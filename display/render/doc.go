// Package render draws view snapshots into a 1920×1080 RGBA frame in pure
// Go, with no GPU and no cgo: the scenes (attract, both games' reels, wins,
// free spins, Lock & Spin, bonus win, Risk, lockups, tilt, doors, out of
// service, RAM error, menus), the devkit panel and its help overlay. The
// ebiten layer (package display) only uploads the frame; tests and
// `make screenshots` read the same frame. Sprites and glyphs are built once
// in New, so a frame in steady state allocates nothing.
package render
