package jackpot

import (
	"context"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
)

func TestLive(t *testing.T) {
	j, db := newTest(t, testConfig)
	ctx := context.Background()
	l := NewLive(j)
	changed, cancel := l.Subscribe()
	defer cancel()

	b := l.Board("")
	if len(b.Pools) != 3 || b.Pools[1].Value != 10_000_000 || len(b.Fixed) != 7 || b.CZKPerEUR != 2500 {
		t.Fatalf("initial board %+v", b)
	}
	out := play(t, j, db, Game{Cabinet: "CAB-B1", Round: 1, Game: engine.MagicStars, Stake: 1000}, &script{t: t, draws: []int{1 << 30}})
	l.Apply(out)
	select {
	case <-changed:
	default:
		t.Fatal("no signal after Apply")
	}
	if b := l.Board("brno-1"); len(b.Pools) != 1 || b.Pools[0].ID != "morava" || b.Pools[0].Value != 50_050_000 || b.Pools[0].Games != 1 {
		t.Fatalf("brno board %+v", b)
	}
	if b := l.Board("ostrava-1"); len(b.Pools) != 1 || b.Pools[0].ID != "system" {
		t.Fatalf("ostrava board %+v", b)
	}
	// A replay changes nothing; two changes give one pending signal.
	l.Apply(Outcome{Pool: "morava", Value: 1, Replayed: true})
	select {
	case <-changed:
		t.Fatal("signal after a replay")
	default:
	}

	// Load takes the store's truth (here a game Live was not told about).
	play(t, j, db, Game{Cabinet: "CAB-P1", Round: 1, Game: engine.MagicStars, Stake: 5}, &script{t: t, draws: []int{99_999}})
	if err := l.Load(ctx, db); err != nil {
		t.Fatal(err)
	}
	<-changed
	if b := l.Board("praha-1"); b.Pools[0].Value != 10_001_250 || b.Pools[0].Games != 1 {
		t.Fatalf("after Load %+v", b)
	}
	if err := l.Load(ctx, db); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
		t.Fatal("signal without a change")
	default:
	}
	cancel()
	l.Apply(out)
	if _, open := <-changed; open {
		t.Fatal("signal after cancel")
	}
	cancel() // twice is harmless
}
