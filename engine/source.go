package engine

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"math/bits"
)

// Source gives the draws of a round. Every random event of a game goes
// through Intn, so a recorded tape is the whole of a round's randomness.
type Source interface {
	// Intn returns a value drawn uniformly from [0, n); n is in [1, 2^32).
	Intn(n int) int
}

// uniform maps 64-bit random words to [0, n) without bias (Lemire's
// multiply-and-reject): a word whose low product falls below the threshold
// would favour some values, so it is drawn again.
func uniform(next func() uint64, n uint64) uint64 {
	hi, lo := bits.Mul64(next(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(next(), n)
		}
	}
	return hi
}

// CryptoSource draws from crypto/rand: the source of live play on the
// central system.
type CryptoSource struct {
	buf [512]byte
	pos int
}

// NewCryptoSource returns a source over the operating system's CSPRNG.
func NewCryptoSource() *CryptoSource { return &CryptoSource{pos: 512} }

func (s *CryptoSource) word() uint64 {
	if s.pos == len(s.buf) {
		if _, err := rand.Read(s.buf[:]); err != nil {
			// crypto/rand.Read never fails on Linux >= 3.17; if it ever
			// does, drawing on would be unsafe.
			panic(fmt.Sprintf("engine: crypto/rand failed: %v", err))
		}
		s.pos = 0
	}
	w := binary.LittleEndian.Uint64(s.buf[s.pos:])
	s.pos += 8
	return w
}

func (s *CryptoSource) Intn(n int) int { return int(uniform(s.word, uint64(n))) }

// SeededSource is a fast reproducible source for simulation only: the
// 128-bit PCG with DXSM output of math/rand/v2 (the same words as
// rand.NewPCG(seed, stream), TestSeededSourceIsMathRandPCG), written out
// here so that Intn inlines without a call through a method value.
type SeededSource struct{ hi, lo uint64 }

// NewSeededSource returns a PCG stream; different streams give independent
// sequences for parallel workers.
func NewSeededSource(seed, stream uint64) *SeededSource {
	return &SeededSource{hi: seed, lo: stream}
}

// Uint64 is the next 64-bit word (math/rand/v2 PCG.Uint64).
func (s *SeededSource) Uint64() uint64 {
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

// Intn is uniform's multiply-and-reject on the inlined words.
func (s *SeededSource) Intn(n int) int {
	hi, lo := bits.Mul64(s.Uint64(), uint64(n))
	if lo < uint64(n) {
		return s.reject(hi, lo, uint64(n))
	}
	return int(hi)
}

// reject finishes a draw whose low product fell below n (probability
// n/2^64): kept out of line so that Intn inlines.
func (s *SeededSource) reject(hi, lo, n uint64) int {
	thresh := -n % n
	for lo < thresh {
		hi, lo = bits.Mul64(s.Uint64(), n)
	}
	return int(hi)
}

// Recorder passes draws through from Src and writes each on Tape.
type Recorder struct {
	Src  Source
	Tape Tape
}

func (r *Recorder) Intn(n int) int {
	v := r.Src.Intn(n)
	r.Tape = append(r.Tape, Draw{Value: uint32(v), Range: uint32(n)})
	return v
}

// TapeReader replays a tape. On the first disagreement it keeps the error
// and answers 0 from then on, so a game always runs to its end; the mirror
// then reports the error.
type TapeReader struct {
	tape Tape
	pos  int
	err  *TapeError
}

// NewTapeReader replays t.
func NewTapeReader(t Tape) *TapeReader { return &TapeReader{tape: t} }

func (r *TapeReader) Intn(n int) int {
	if r.err != nil {
		return 0
	}
	i := r.pos
	if i >= len(r.tape) {
		r.err = &TapeError{Problem: TapeShort, Index: i, WantRange: uint32(n)}
		return 0
	}
	d := r.tape[i]
	switch {
	case d.Value >= d.Range:
		r.err = &TapeError{Problem: TapeOutOfRange, Index: i, Draw: d}
		return 0
	case d.Range != uint32(n):
		r.err = &TapeError{Problem: TapeRange, Index: i, WantRange: uint32(n), Draw: d}
		return 0
	}
	r.pos++
	return int(d.Value)
}

// Err returns the first disagreement, or a TapeLong error if draws were left
// over, or nil.
func (r *TapeReader) Err() error {
	if r.err != nil {
		return r.err
	}
	if r.pos < len(r.tape) {
		return &TapeError{Problem: TapeLong, Index: r.pos, Draw: r.tape[r.pos]}
	}
	return nil
}

// Intn is src.Intn(n). A simulation's SeededSource is called directly, so
// its generator inlines into the game's hot path instead of going through
// the interface; every other source (crypto, recorder, tape) is unchanged.
func Intn(src Source, n int) int {
	if s, ok := src.(*SeededSource); ok {
		return s.Intn(n)
	}
	return src.Intn(n)
}
