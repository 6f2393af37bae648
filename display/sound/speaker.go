//go:build display

package sound

import (
	"errors"
	"fmt"
	"time"

	"github.com/hajimehoshi/ebiten/v2/audio"

	"github.com/polaris-vlt/polaris/firmware/view"
)

// Speaker plays the mix through ebiten's audio package (oto, then ALSA;
// on a cabinet without a card, ALSA's pulse plugin to a sound server).
type Speaker struct {
	Mixer  *Mixer
	player *audio.Player
	stop   chan struct{}
	done   chan struct{}
}

// Buffer is how far ahead of the speaker the mix is rendered: a sound
// starts at most this late.
const Buffer = 100 * time.Millisecond

// poll is how often the speaker reads the cabinet's latest snapshot: a
// cue is at most this late, and between two reads nothing it plays is
// lost (each change persists in the snapshot until the next read).
const poll = 10 * time.Millisecond

// Start opens the audio device (one per process: ebiten's audio context)
// and plays what the snapshots from source start, until Close. It fails,
// and nothing is opened, when ALSA has no default device. Opening a
// device behind a sound server takes a second or two: call it off the
// display's loop.
func Start(source func() *view.Snapshot) (*Speaker, error) {
	if audio.CurrentContext() != nil {
		return nil, errors.New("sound: the audio context is already open")
	}
	if err := probe(); err != nil {
		return nil, fmt.Errorf("sound: %w", err)
	}
	ctx := audio.NewContext(Rate)
	m := NewMixer()
	p, err := ctx.NewPlayerF32(m)
	if err != nil {
		return nil, err
	}
	p.SetBufferSize(Buffer)
	p.Play()
	s := &Speaker{Mixer: m, player: p, stop: make(chan struct{}), done: make(chan struct{})}
	go s.run(source)
	return s, nil
}

func (s *Speaker) run(source func() *view.Snapshot) {
	defer close(s.done)
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.Mixer.Observe(source())
		}
	}
}

// Close stops the sound.
func (s *Speaker) Close() error {
	close(s.stop)
	<-s.done
	s.player.Pause()
	return s.player.Close()
}
