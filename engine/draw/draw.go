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
	mrand "math/rand/v2"

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

// Seeded is a fast reproducible source (PCG) for simulation only.
type Seeded struct{ pcg *mrand.PCG }

// NewSeeded returns a PCG stream; different streams give independent
// sequences for parallel workers.
func NewSeeded(seed, stream uint64) *Seeded {
	return &Seeded{pcg: mrand.NewPCG(seed, stream)}
}

func (s *Seeded) Intn(n int) int { return int(engine.Uniform(s.pcg.Uint64, uint64(n))) }
