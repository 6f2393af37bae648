package sound

import (
	"math"
	"time"
)

// Rate is the sample rate of every sound and of the mix.
const Rate = 48000

// AlarmLength is the door alarm's length: standards check 16 asks for at
// least 1.5 s on an illegal opening.
const AlarmLength = 2 * time.Second

// JackpotHitLength is the jackpot celebration's sound: longer than any win.
const JackpotHitLength = 4 * time.Second

// Synth returns a cue's sound, mono samples in −1..1 at Rate. Each is a
// few sine or square partials under an envelope: small, legible and
// distinct, and the same on every cabinet.
func Synth(c Cue) []float32 {
	switch c {
	case Spin:
		// A rising whirr: the reels gather speed.
		return sweep(0.35, 220, 440, 0.5)
	case ReelStop:
		// A short low thud with a click on top.
		return mix(tone(0.09, 110, 0.8, decay(30)), tone(0.03, 1800, 0.25, decay(120)))
	case Win:
		// A rising major arpeggio (C5 E5 G5 C6).
		return notes(0.15, 0.5, 523.25, 659.25, 783.99, 1046.5)
	case CountUp:
		// A bright tick.
		return tone(0.04, 2093, 0.35, decay(90))
	case Feature:
		// A fanfare: two rising arpeggios.
		return notes(0.12, 0.5, 392, 523.25, 659.25, 783.99, 523.25, 659.25, 783.99, 1046.5)
	case Jackpot:
		// Bells: a long ringing chord, repeated.
		var out []float32
		for range 3 {
			out = append(out, mix(tone(0.6, 1046.5, 0.3, decay(4)), tone(0.6, 1318.5, 0.25, decay(4)),
				tone(0.6, 1568, 0.2, decay(4)))...)
		}
		return out
	case Button:
		return tone(0.05, 880, 0.35, decay(60))
	case Lose:
		// A falling pair.
		return notes(0.2, 0.4, 392, 261.63)
	case DoorAlarm:
		// A two-tone siren, square waves alternating every 250 ms, for
		// AlarmLength: loud and unmistakable, never a game sound.
		n := int(AlarmLength.Seconds() * Rate)
		out := make([]float32, n)
		for i := range out {
			f := 960.0
			if (i/(Rate/4))%2 == 1 {
				f = 720
			}
			v := float32(0.6)
			if math.Sin(2*math.Pi*f*float64(i)/Rate) < 0 {
				v = -v
			}
			out[i] = v
		}
		return out
	case Attract:
		return notes(0.25, 0.3, 523.25, 783.99, 659.25, 1046.5)
	case BigWin, MegaWin, SuperWin:
		// A brass-like fanfare: a rising triad twice, then a held chord;
		// a mega win plays it again an octave up, a super win a third time.
		var out []float32
		n := map[Cue]int{BigWin: 1, MegaWin: 2, SuperWin: 3}[c]
		for k := range n {
			f := math.Pow(2, float64(min(k, 1)))
			out = append(out, notes(0.14, 0.45, 523.25*f, 659.25*f, 783.99*f, 659.25*f, 783.99*f, 1046.5*f)...)
			out = append(out, mix(tone(0.9, 523.25*f, 0.25, decay(2)), tone(0.9, 783.99*f, 0.2, decay(2)),
				tone(0.9, 1046.5*f, 0.2, decay(2)))...)
		}
		return out
	case JackpotHit:
		// The celebration: bells rung up a scale and back, over a held
		// chord, for JackpotHitLength.
		n := int(JackpotHitLength.Seconds() * Rate)
		out := make([]float32, n)
		scale := []float64{1046.5, 1174.7, 1318.5, 1568, 1760, 2093, 1760, 1568, 1318.5, 1174.7}
		step := n / (2 * len(scale))
		for i := range 2 * len(scale) {
			b := tone(0.5, scale[i%len(scale)], 0.3, decay(5))
			for k, v := range b {
				if j := i*step + k; j < n {
					out[j] += v
				}
			}
		}
		chord := mix(tone(JackpotHitLength.Seconds(), 523.25, 0.12, decay(0.5)), tone(JackpotHitLength.Seconds(), 659.25, 0.1, decay(0.5)))
		for i := range min(n, len(chord)) {
			out[i] += chord[i]
		}
		return out
	}
	return nil
}

type envelope func(t float64) float64

// decay is an exponential decay of rate k per second.
func decay(k float64) envelope {
	return func(t float64) float64 { return math.Exp(-k * t) }
}

// tone is a sine of f Hz for sec seconds at amplitude a under env, with
// 5 ms fades at both ends so that it never clicks.
func tone(sec, f, a float64, env envelope) []float32 {
	n := int(sec * Rate)
	out := make([]float32, n)
	for i := range out {
		t := float64(i) / Rate
		out[i] = float32(a * env(t) * fade(i, n) * math.Sin(2*math.Pi*f*t))
	}
	return out
}

// sweep glides from f0 to f1 Hz over sec seconds.
func sweep(sec, f0, f1, a float64) []float32 {
	n := int(sec * Rate)
	out := make([]float32, n)
	ph := 0.0
	for i := range out {
		x := float64(i) / float64(n)
		ph += 2 * math.Pi * (f0 + (f1-f0)*x) / Rate
		out[i] = float32(a * fade(i, n) * (0.7*math.Sin(ph) + 0.3*math.Sin(2*ph)))
	}
	return out
}

// notes plays each frequency for sec seconds in turn.
func notes(sec, a float64, fs ...float64) []float32 {
	var out []float32
	for _, f := range fs {
		out = append(out, mix(tone(sec, f, a, decay(6)), tone(sec, 2*f, a/4, decay(10)))...)
	}
	return out
}

// mix adds sounds that start together.
func mix(ss ...[]float32) []float32 {
	n := 0
	for _, s := range ss {
		n = max(n, len(s))
	}
	out := make([]float32, n)
	for _, s := range ss {
		for i, v := range s {
			out[i] += v
		}
	}
	return out
}

const fadeLen = Rate / 200 // 5 ms

func fade(i, n int) float64 {
	switch {
	case i < fadeLen:
		return float64(i) / fadeLen
	case n-i < fadeLen:
		return float64(n-i) / fadeLen
	}
	return 1
}
