package engine

import "math/bits"

// Source gives the draws of a round. Every random event of a game goes
// through Intn, so a recorded tape is the whole of a round's randomness.
type Source interface {
	// Intn returns a value drawn uniformly from [0, n); n is in [1, 2^32).
	Intn(n int) int
}

// Uniform maps 64-bit random words to [0, n) without bias (Lemire's
// multiply-and-reject): a word whose low product falls below the threshold
// would favour some values, so it is drawn again. The random sources
// (engine/draw) share it; the engine itself draws nothing.
func Uniform(next func() uint64, n uint64) uint64 {
	hi, lo := bits.Mul64(next(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(next(), n)
		}
	}
	return hi
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

// Intn is src.Intn(n): the one call every game's draw goes through. (A
// fast path for the simulation's concrete generator would need engine to
// know it; the generators live in engine/draw so that the cabinet, which
// only mirrors tapes, links none, check 30.)
func Intn(src Source, n int) int { return src.Intn(n) }
