package ledger_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// One round as the cabinet journals it: a note in, the wager (the stake
// leaves the credit), the central system's outcome, the settlement (the
// win goes to the credit). Each call is one transaction in both copies;
// after a power cut Open finds the round where it stopped. Create makes a
// new ledger once, at installation, and logs who did.
func Example_round() {
	dir, _ := os.MkdirTemp("", "ledger")
	defer os.RemoveAll(dir)
	l, err := ledger.Create(ledger.Options{DirA: filepath.Join(dir, "a"), DirB: filepath.Join(dir, "b")}, "installer")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer l.Close()

	note := l.NextDocID()
	l.Escrow(note, ledger.DocBill, 1000, "")
	l.Stacked(note, 1000)

	n := l.NextRound()
	l.Wager(ledger.Wager{Round: n, Game: "magicstars", Denom: 10, Stake: 100})
	l.Outcome(n, 250, []byte(`{"signed outcome":"with its draw tape"}`))
	if err := l.Settle(n, ledger.Settlement{Credit: 250}); err != nil {
		fmt.Println(err)
		return
	}

	credit, _ := l.Credit()
	m, _ := l.Meters(ledger.GameScope("magicstars"))
	r, _ := l.Round(n)
	fmt.Println("credit", credit)
	fmt.Println("coin in", m[ledger.CoinIn], "coin out", m[ledger.CoinOut])
	fmt.Println("round", r.Number, r.Status, "credit", r.CreditBefore, "→", r.CreditAfter)
	// Output:
	// credit 1150
	// coin in 100 coin out 250
	// round 1 settled credit 1000 → 1150
}
