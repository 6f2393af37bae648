// Package display is the ebiten renderer: it draws the firmware's view
// snapshots full-screen and sends keyboard intents back to the devkit
// board; theme art, fonts and the cs, de and en catalogues live in its
// subpackages (render, art, i18n). It never changes state.
//
// The ebiten layer builds only with the build tag "display": ebiten opens
// the X display when a binary starts, so an untagged build (go test ./...,
// polaris-devkit headless) must not link it. make run, make display-test and the
// cabinet image build with -tags display.
package display
