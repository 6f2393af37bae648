// Package sound is the cabinet's speaker: which sound plays when, the
// sounds themselves, and the mix.
//
// What plays is a pure function of two successive view snapshots
// (Changes): a new round lays its spin, reel stops, wins, count-up and
// feature sounds on the round's own timeline; a Risk card, a jackpot or
// handpay lockup, a changed bet or page, an opened door add theirs. The
// cabinet says only how loud and when to stay silent (view.Sound: the
// market's volume or the technician's, attract silence, test mode).
//
// Every sound is synthesised here in Go (synth.go): no asset files, no
// licences to record. The Mixer renders the mix into float32 stereo
// samples; tests read it offline, and on a cabinet (build tag display)
// ebiten's audio package plays the same stream through oto and ALSA.
//
// It imports firmware/view and engine only; it sits under display because
// it plays what the screen shows, like the renderer.
package sound
