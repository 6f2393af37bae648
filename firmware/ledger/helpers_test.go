package ledger

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/clock/clocktest"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func testOptions(t testing.TB) Options {
	d := t.TempDir()
	return Options{DirA: filepath.Join(d, "a"), DirB: filepath.Join(d, "b"), Clock: clocktest.New(t0)}
}

func newTestLedger(t testing.TB) (*Ledger, Options) {
	t.Helper()
	o := testOptions(t)
	l, err := Create(o, "installer")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, o
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// playRound wagers, records an outcome and settles it to credit.
func playRound(t testing.TB, l *Ledger, game string, denom, stake, win int64) uint64 {
	t.Helper()
	n := l.NextRound()
	must(t, l.Wager(Wager{Round: n, Game: game, Denom: denom, Stake: stake, Choices: []byte(`{"lines":10}`)}))
	must(t, l.Outcome(n, win, []byte(`{"tape":[1,2,3],"sig":"x"}`)))
	must(t, l.Settle(n, Settlement{Credit: win}))
	return n
}

func insertBill(t testing.TB, l *Ledger, value int64) uint64 {
	t.Helper()
	id := l.NextDocID()
	must(t, l.Escrow(id, DocBill, value, ""))
	must(t, l.Stacked(id, value))
	return id
}

// snapshot is every state row, for comparing ledgers.
func snapshot(l *Ledger) map[string]string {
	l.mu.RLock()
	defer l.mu.RUnlock()
	out := map[string]string{}
	for k, v := range l.kv {
		out[k] = string(v)
	}
	return out
}

// withoutEvents drops the event log (repairs log events of their own).
func withoutEvents(s map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range s {
		if !strings.HasPrefix(k, "event/") && k != "seq/event" {
			out[k] = v
		}
	}
	return out
}

func sameState(t testing.TB, want, got map[string]string) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("row %s: want %q got %q", k, v, got[k])
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Fatalf("extra row %s", k)
		}
	}
}
