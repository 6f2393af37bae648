package server_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/server"
)

func TestValidationNumbers(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		n, err := server.NewValidationNumber()
		if err != nil {
			t.Fatal(err)
		}
		if len(n) != 18 || !server.ValidNumber(n) || seen[n] {
			t.Fatalf("bad or repeated number %q", n)
		}
		seen[n] = true
		// Any single misread digit is caught by the check digit.
		b := []byte(n)
		b[5] = '0' + (b[5]-'0'+1)%10
		if server.ValidNumber(string(b)) {
			t.Fatalf("%s passes with digit 5 changed", b)
		}
	}
	for _, bad := range []string{"", "12345678901234567", "1234567890123456789", "12345678901234567a"} {
		if server.ValidNumber(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

// BenchmarkRequestOutcome is one new round over loopback mutual TLS to a
// durable store (WAL, synchronous=FULL): request, draw, sign, commit to
// disk, reply, verify. Parallel: the store's group commit at work.
func BenchmarkRequestOutcome(b *testing.B) {
	e := testenv.Start(b, nil)
	c := e.Client("bench-1", nil)
	ctx := context.Background()
	var n atomic.Uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.RequestOutcome(ctx, n.Add(1), testenv.GameID, testenv.TheGame.ModelID(), 5); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRequestOutcomeParallel(b *testing.B) {
	e := testenv.Start(b, nil)
	c := e.Client("bench-1", nil)
	ctx := context.Background()
	var n atomic.Uint64
	b.SetParallelism(64)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := c.RequestOutcome(ctx, n.Add(1), testenv.GameID, testenv.TheGame.ModelID(), 5); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func BenchmarkRequestOutcomeRepeat(b *testing.B) {
	e := testenv.Start(b, nil)
	c := e.Client("bench-1", nil)
	ctx := context.Background()
	if _, err := c.RequestOutcome(ctx, 1, testenv.GameID, testenv.TheGame.ModelID(), 5); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.RequestOutcome(ctx, 1, testenv.GameID, testenv.TheGame.ModelID(), 5); err != nil {
			b.Fatal(err)
		}
	}
}
