package jackpot

import (
	"context"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
)

// BenchmarkPlay is the jackpot's share of a round in the server's writer:
// one Play inside a transaction, 256 games per commit as in the server's
// group commit (the commit's fsync is shared by the batch).
func BenchmarkPlay(b *testing.B) {
	b.Run("prepared", func(b *testing.B) { benchPlay(b, true) })
	b.Run("unprepared", func(b *testing.B) { benchPlay(b, false) })
}

func benchPlay(b *testing.B, prepare bool) {
	j, db := newTest(b, testConfig)
	ctx := context.Background()
	if prepare {
		if err := j.Prepare(ctx, db); err != nil {
			b.Fatal(err)
		}
	}
	src := draw.NewCrypto()
	cabs := []string{"CAB-P1", "CAB-B1", "CAB-X1", "CAB-NEW"}
	b.ResetTimer()
	for i := 0; i < b.N; {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		for k := 0; k < 256 && i < b.N; k++ {
			if _, err := j.Play(ctx, tx, Game{Cabinet: cabs[i%4], Round: uint64(i), Game: engine.MagicStars, Stake: 50}, src); err != nil {
				b.Fatal(err)
			}
			i++
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}
