package par

import (
	"fmt"
	"math"

	"github.com/polaris-vlt/polaris/engine"
)

// The parts of a sheet read off the round total's distribution (both
// games): win bands, P(win > stake), the tail ladder, the largest win whose
// odds are better than 1 in 10^8, and the exposure per stake.

// Tail is P(round total >= X x stake).
type Tail struct {
	X     float64 `json:"x"`
	P     float64 `json:"p"`
	OneIn float64 `json:"oneIn"`
	// Bound: X lies beyond the computed distribution; P is an upper bound.
	Bound bool `json:"bound,omitempty"`
}

// Exposure is what one round can pay at a stake (minor units of the
// game's currency and, where a rate is known, EUR cents).
type Exposure struct {
	Stake engine.Money `json:"stake"`
	// Max is the structural maximum (WS) or the MS-7 cap (MS).
	Max    engine.Money `json:"max"`
	MaxEUR int64        `json:"maxEurCents"`
	// Odds1e8 is the largest win with P(round >= it) at least 1e-8.
	Odds1e8    engine.Money `json:"odds1e8"`
	Odds1e8EUR int64        `json:"odds1e8EurCents"`
}

// Law is the distribution part of a sheet.
type Law struct {
	Source          string     `json:"source"`
	Bands           []Bucket   `json:"bands"`
	PWinAboveStake  float64    `json:"pWinAboveStake"`
	Ladder          []Tail     `json:"ladder"`
	LargestWin1e8   float64    `json:"largestWin1e8"` // x stake
	LargestWin1e8P  float64    `json:"largestWin1e8P"`
	Exposure        []Exposure `json:"exposure"`
	ExposureRateCZK string     `json:"exposureRate,omitempty"`
}

// law is a distribution on points x (x stake, ascending) with the mass
// beyond the last point in rest (its values unknown but above the last).
type law struct {
	x, p []float64
	rest float64
	mean float64 // E[X], for the band RTP of the rest
}

var bandEdges = []float64{0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000}
var ladderX = []float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000}

func (l *law) tail(x float64) (float64, bool) {
	s := l.rest
	for i := len(l.x) - 1; i >= 0 && l.x[i] >= x-1e-12; i-- {
		s += l.p[i]
	}
	return s, len(l.x) == 0 || x > l.x[len(l.x)-1]
}

func (l *law) build(source string) *Law {
	out := &Law{Source: source}
	out.Bands = make([]Bucket, len(bandEdges)+1)
	out.Bands[0].Range = "0"
	for i := 1; i < len(bandEdges); i++ {
		out.Bands[i].Range = fmt.Sprintf("(%g, %g]", bandEdges[i-1], bandEdges[i])
	}
	out.Bands[len(bandEdges)].Range = fmt.Sprintf("> %g", bandEdges[len(bandEdges)-1])
	m1 := 0.0
	for i, x := range l.x {
		b := 0
		for b < len(bandEdges) && x > bandEdges[b]+1e-12 {
			b++
		}
		out.Bands[b].P += l.p[i]
		out.Bands[b].RTP += l.p[i] * x
		m1 += l.p[i] * x
		if x > 1+1e-12 {
			out.PWinAboveStake += l.p[i]
		}
	}
	last := &out.Bands[len(bandEdges)]
	last.P += l.rest
	last.RTP += max(l.mean-m1, 0)
	out.PWinAboveStake += l.rest
	for _, x := range ladderX {
		p, bound := l.tail(x)
		out.Ladder = append(out.Ladder, Tail{X: x, P: p, OneIn: oneIn(p), Bound: bound})
	}
	// The largest support point whose tail is at least 1e-8.
	s := l.rest
	for i := len(l.x) - 1; i >= 0; i-- {
		s += l.p[i]
		if s >= 1e-8 && l.p[i] > 0 {
			out.LargestWin1e8, out.LargestWin1e8P = l.x[i], s
			break
		}
	}
	return out
}

// exposure fills the per-stake exposure: max is the round maximum at a
// stake; eur converts minor units to EUR cents (nil: the same unit).
func (o *Law) exposure(stakes []engine.Money, max func(engine.Money) engine.Money, eur func(engine.Money) int64) {
	for _, st := range stakes {
		m := max(st)
		w := min(engine.Money(math.Floor(o.LargestWin1e8*float64(st)+1e-9)), m)
		o.Exposure = append(o.Exposure, Exposure{Stake: st, Max: m, MaxEUR: eur(m), Odds1e8: w, Odds1e8EUR: eur(w)})
	}
}
