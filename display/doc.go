// Package display is the ebiten renderer: it draws the firmware's view
// snapshots full-screen and sends keyboard and touch intents back; it holds
// theme art, fonts and the cs, de and en catalogues. It never changes state.
package display
