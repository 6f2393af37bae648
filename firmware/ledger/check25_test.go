package ledger

// Check 25 (standards.md §2) across a RAM clear, the cabinet's part: the
// cabinet asks the central system for a voucher by (cabinet, document
// number), for an outcome by (cabinet, round number), and sends its outbox
// messages by message id; the central system answers a number it has seen
// with what it answered before. So the numbers go on across a RAM clear,
// from the highest either copy still shows, also when both copies are
// corrupt.

import (
	"math/rand"
	"path/filepath"
	"testing"
)

func TestCheck25NumbersGoOnAcrossARAMClear(t *testing.T) {
	for _, corrupt := range []bool{false, true} {
		name := "clear"
		if corrupt {
			name = "both copies corrupt, then clear"
		}
		t.Run(name, func(t *testing.T) {
			o := testOptions(t)
			o.EventMessage = func(e Event) (string, []byte, error) { return "events", []byte(e.Kind + " " + e.Text), nil }
			l, err := Create(o, "installer")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { l.Close() })
			insertBill(t, l, 10000)
			playRound(t, l, "wish", 1, 10, 0)
			playRound(t, l, "wish", 1, 10, 0)
			id := l.NextDocID()
			must(t, l.VoucherPrinting(id, 500, "001234567890123456"))
			must(t, l.VoucherPrinted(id))
			msg, err := l.Enqueue("meters", []byte(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			doc, round := l.NextDocID(), l.NextRound()
			if corrupt {
				_, err := l.Verify("baseline")
				must(t, err)
				// A flipped byte may land where SQLite reads nothing: flip until it tells.
				rng := rand.New(rand.NewSource(25))
				for i := 0; i < 50 && l.RAMError() == nil; i++ {
					flipByte(t, filepath.Join(o.DirA, DBName), rng)
					flipByte(t, filepath.Join(o.DirB, DBName), rng)
					l.Verify("check 25")
				}
				if l.RAMError() == nil {
					t.Fatal("two corrupt copies are no RAM error")
				}
			}
			must(t, l.RAMClear("technician", "check 25"))
			if l.RAMError() != nil {
				t.Fatal(l.RAMError())
			}
			if got := l.NextDocID(); got < doc {
				t.Errorf("document number %d after the RAM clear, %d before: a voucher number would be asked again", got, doc)
			}
			if got := l.NextRound(); got < round {
				t.Errorf("round %d after the RAM clear, %d before: an outcome would be asked again", got, round)
			}
			next, err := l.Enqueue("meters", []byte(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			if next <= msg {
				t.Errorf("outbox message %d after the RAM clear, %d before: the central system drops it as a duplicate", next, msg)
			}
			// The new ledger works on: a note, a round, a voucher.
			insertBill(t, l, 1000)
			playRound(t, l, "wish", 1, 10, 0)
			id = l.NextDocID()
			must(t, l.VoucherPrinting(id, 500, "009876543210987654"))
			must(t, l.VoucherPrinted(id))
			if _, err := l.Verify("after"); err != nil {
				t.Fatal(err)
			}
		})
	}
}
