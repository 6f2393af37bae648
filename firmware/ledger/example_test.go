package ledger_test

import (
	"errors"
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

// What the cabinet does with a copy fault (one medium full, read-only or
// failing): the step refused with it did not happen, play stops with a
// technician's tilt naming the copy, and the technician's retry is Repair.
// (No output: making a medium fail needs root; fault_linux_test.go does.)
func ExampleCopyFault() {
	dir, _ := os.MkdirTemp("", "ledger")
	defer os.RemoveAll(dir)
	l, err := ledger.Create(ledger.Options{DirA: filepath.Join(dir, "a"), DirB: filepath.Join(dir, "b")}, "installer")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer l.Close()
	tilt := func(f ledger.CopyFault) {
		fmt.Printf("technician: ledger copy %s cannot be written: %s\n", f.Copy, f.Cause)
	}

	for _, f := range l.Faults() { // after Open: a fault from before the restart
		tilt(f)
	}
	note := l.NextDocID()
	err = l.Escrow(note, ledger.DocBill, 1000, "")
	var cf *ledger.CopyFault
	if errors.As(err, &cf) {
		tilt(*cf) // no escrow journaled: the note must not be stacked
	}

	// the technician freed space, remounted or replaced the medium:
	if err := l.Repair("technician 7"); err == nil {
		fmt.Println("copies equal again; play resumes")
	}
}
