// Package draw holds the random sources a round's draws come from: the
// central system's CSPRNG (Crypto) and the simulation's reproducible PCG
// (Seeded). It is apart from engine so that the cabinet, which mirrors
// outcomes and never makes one, links no random source (check 30):
// engine's mirror reads draws from a tape, never from here.
package draw

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/polaris-vlt/polaris/engine"
)

// Crypto draws from crypto/rand: the source of live play on the
// central system.
type Crypto struct {
	buf [512]byte
	pos int
}

// NewCrypto returns a source over the operating system's CSPRNG.
func NewCrypto() *Crypto { return &Crypto{pos: 512} }

func (s *Crypto) word() uint64 {
	if s.pos == len(s.buf) {
		if _, err := rand.Read(s.buf[:]); err != nil {
			// crypto/rand.Read never fails on Linux >= 3.17; if it ever
			// does, drawing on would be unsafe.
			panic(fmt.Sprintf("draw: crypto/rand failed: %v", err))
		}
		s.pos = 0
	}
	w := binary.LittleEndian.Uint64(s.buf[s.pos:])
	s.pos += 8
	return w
}

func (s *Crypto) Intn(n int) int { return int(engine.Uniform(s.word, uint64(n))) }

// Seeded is a fast reproducible source for simulation only: the
// 128-bit PCG with DXSM output of math/rand/v2 (the same words as
// rand.NewPCG(seed, stream), TestSeededIsMathRandPCG), written out
// here so that Intn inlines without a call through a method value.
type Seeded struct{ hi, lo uint64 }

// NewSeeded returns a PCG stream; different streams give independent
// sequences for parallel workers.
func NewSeeded(seed, stream uint64) *Seeded {
	return &Seeded{hi: seed, lo: stream}
}

// Uint64 is the next 64-bit word (math/rand/v2 PCG.Uint64).
func (s *Seeded) Uint64() uint64 {
	const (
		mulHi    = 2549297995355413924
		mulLo    = 4865540595714422341
		incHi    = 6364136223846793005
		incLo    = 1442695040888963407
		cheapMul = 0xda942042e4dd58b5
	)
	hi, lo := bits.Mul64(s.lo, mulLo)
	hi += s.hi*mulLo + s.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	s.lo, s.hi = lo, hi
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return hi
}

// Words is the stream as an engine.Words buffer: the source a simulation
// passes to Play, whose draws engine.Intn then reads inline. The words and
// the values drawn are those of s itself, in the same order.
func (s *Seeded) Words() *engine.Words {
	w := &engine.Words{Refill: func(w *engine.Words) {
		for i := range w.W {
			w.W[i] = s.Uint64()
		}
		w.I = 0
	}}
	w.I = len(w.W)
	return w
}

// Intn is uniform's multiply-and-reject on the inlined words.
func (s *Seeded) Intn(n int) int {
	hi, lo := bits.Mul64(s.Uint64(), uint64(n))
	if lo < uint64(n) {
		return s.reject(hi, lo, uint64(n))
	}
	return int(hi)
}

// reject finishes a draw whose low product fell below n (probability
// n/2^64): kept out of line so that Intn inlines.
func (s *Seeded) reject(hi, lo, n uint64) int {
	thresh := -n % n
	for lo < thresh {
		hi, lo = bits.Mul64(s.Uint64(), n)
	}
	return int(hi)
}
