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

// Words is a source that hands the engine its random words a buffer at a
// time: engine.Intn reads them inline and calls Refill once every
// len(W) draws instead of a method per draw. It makes no word itself (a
// simulation's generator in engine/draw fills it), so the engine, which
// the cabinet links, still draws nothing (check 30).
type Words struct {
	W      [64]uint64
	I      int          // the next unread word; len(W) means empty
	Refill func(*Words) // fills W and sets I to 0
}

// Intn is Lemire's multiply-and-reject on the buffered words (Uniform).
func (w *Words) Intn(n int) int {
	hi, lo := bits.Mul64(w.next(), uint64(n))
	if lo < uint64(n) {
		return w.reject(hi, lo, uint64(n))
	}
	return int(hi)
}

func (w *Words) next() uint64 {
	if w.I == len(w.W) {
		w.Refill(w)
	}
	v := w.W[w.I]
	w.I++
	return v
}

// reject finishes a draw whose low product fell below n (probability
// n/2^64), out of line so that Intn inlines.
func (w *Words) reject(hi, lo, n uint64) int {
	thresh := -n % n
	for lo < thresh {
		hi, lo = bits.Mul64(w.next(), n)
	}
	return int(hi)
}

// Intn is src.Intn(n): the one call every game's draw goes through. A
// *Words source is read inline (simulations); every other source (crypto,
// recorder, tape) through its method.
func Intn(src Source, n int) int {
	if w, ok := src.(*Words); ok {
		return w.Intn(n)
	}
	return src.Intn(n)
}
