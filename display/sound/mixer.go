package sound

import (
	"encoding/binary"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/firmware/view"
)

// Mixer turns the snapshots the cabinet publishes into one stream of
// samples. Observe runs on the display's loop, Read on the audio
// device's goroutine; a mutex keeps them apart. Offline, a test calls
// Observe and Render in turn and listens to the result.
type Mixer struct {
	mu      sync.Mutex
	sounds  map[Cue][]float32
	pos     int64 // frames rendered so far
	pending []voice
	active  []voice
	gain    float32
	prev    *view.Snapshot
	started []Started
	scratch []float32
}

// Started is a sound that began at Frame of the mix.
type Started struct {
	Cue   Cue
	Frame int64
}

type voice struct {
	cue   Cue
	start int64 // frame
	round uint64
	at    int // next sample of the sound
}

// NewMixer synthesises every sound once.
func NewMixer() *Mixer {
	m := &Mixer{sounds: map[Cue][]float32{}}
	for _, c := range Cues {
		m.sounds[c] = Synth(c)
	}
	return m
}

// Observe takes the latest snapshot: what it starts is laid on the mix
// from the frame about to be rendered, each play at its offset from the
// snapshot's instant. The same snapshot twice changes nothing.
func (m *Mixer) Observe(s *view.Snapshot) {
	if s == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if s == m.prev {
		return
	}
	plan := Changes(m.prev, s)
	m.prev = s
	m.gain = float32(min(max(s.Sound.Volume, 0), 100)) / 100
	if plan.Replace != 0 {
		m.pending = slices.DeleteFunc(m.pending, func(v voice) bool { return v.round == plan.Replace })
	}
	for _, p := range plan.Plays {
		off := max(p.At.Sub(s.Now), 0)
		m.pending = append(m.pending, voice{cue: p.Cue, start: m.pos + frames(off), round: p.Round})
	}
}

func frames(d time.Duration) int64 { return int64(d) * Rate / int64(time.Second) }

// Render mixes the next n frames, mono.
func (m *Mixer) Render(n int) []float32 {
	out := make([]float32, n)
	m.mu.Lock()
	m.render(out)
	m.mu.Unlock()
	return out
}

// Rendered is how much of the mix has been rendered: on a speaker, what
// the audio device has taken so far.
func (m *Mixer) Rendered() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return time.Duration(m.pos) * time.Second / Rate
}

// Started lists the sounds begun so far (the last 1024), in order.
func (m *Mixer) Started() []Started {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.started)
}

func (m *Mixer) render(out []float32) {
	clear(out)
	end := m.pos + int64(len(out))
	// Start the pending voices due within this block.
	keep := m.pending[:0]
	for _, v := range m.pending {
		if v.start < end {
			m.active = append(m.active, v)
			m.started = append(m.started, Started{Cue: v.cue, Frame: max(v.start, m.pos)})
		} else {
			keep = append(keep, v)
		}
	}
	m.pending = keep
	if len(m.started) > 1024 {
		m.started = slices.Delete(m.started, 0, len(m.started)-1024)
	}
	live := m.active[:0]
	for _, v := range m.active {
		snd := m.sounds[v.cue]
		i := max(int(v.start-m.pos), 0)
		for ; i < len(out) && v.at < len(snd); i++ {
			out[i] += snd[v.at] * m.gain
			v.at++
		}
		if v.at < len(snd) {
			live = append(live, v)
		}
	}
	m.active = live
	for i, x := range out {
		out[i] = float32(math.Max(-1, math.Min(1, float64(x)))) // clip, never wrap
	}
	m.pos = end
}

// Read is the stream for the audio device: float32 little-endian stereo
// at Rate (ebiten's NewPlayerF32 format). It never ends.
func (m *Mixer) Read(p []byte) (int, error) {
	n := len(p) / 8
	if n == 0 {
		return 0, nil
	}
	m.mu.Lock()
	if cap(m.scratch) < n {
		m.scratch = make([]float32, n)
	}
	buf := m.scratch[:n]
	m.render(buf)
	m.mu.Unlock()
	for i, v := range buf {
		b := math.Float32bits(v)
		binary.LittleEndian.PutUint32(p[8*i:], b)
		binary.LittleEndian.PutUint32(p[8*i+4:], b)
	}
	return n * 8, nil
}
