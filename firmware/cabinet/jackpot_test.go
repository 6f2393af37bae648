package cabinet

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/jackpot"
	"github.com/polaris-vlt/polaris/central/jackpot/jpserver"
	"github.com/polaris-vlt/polaris/deck"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// MS-18: a progressive jackpot hit is shown, locks the cabinet for the
// attendant and is never added to the credit; the attendant's reset is
// journaled on its own meter and the payout form is printed.
func TestMagicStarsJackpotIsHandpaidNeverCredited(t *testing.T) {
	j := quickJackpot(t)
	for _, m := range []struct {
		id      string
		note    engine.Money
		minor   int
		czkForm bool
	}{{"cz", 1000, 0, true}, {"demo", 1000, 2, false}} {
		t.Run(m.id, func(t *testing.T) {
			jackpotHandpaid(t, newRigWith(t, m.id, jpserver.New(j)), m.note, m.minor, m.czkForm)
		})
	}
}

// quickJackpot is a system pool that hits almost at once: every stake
// contributes 50 %.
func quickJackpot(t *testing.T) *jackpot.Jackpot {
	t.Helper()
	cfg, err := jackpot.ParseTOML([]byte(`
[[pool]]
id = "system"
name = "Magic Stars Jackpot"
scope = "system"
seed = 100
must_hit_by = 102
rate_bp = 5000
`))
	if err != nil {
		t.Fatal(err)
	}
	j, err := jackpot.New(cfg, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// jackpotHandpaid plays until the jackpot hits, then checks MS-18's
// lockup and reset; the printout is the CZK payout form, or in another
// currency (demo) the handpay receipt with reason jackpot.
func jackpotHandpaid(t *testing.T, r *rig, note engine.Money, minor int, czkForm bool) {
	r.idle()
	r.cab.Post(SelectGame{Game: engine.MagicStars})
	r.until("magic stars", time.Millisecond, func(s *view.Snapshot) bool { return s.Game == engine.MagicStars })
	r.insertNote(note, minor)
	for i := 0; i < 50; i++ {
		before := r.credit()
		s := r.playOne()
		if s.Round.Jackpot == 0 {
			if s.RiskOffer {
				r.press(view.Collect)
				r.idle()
			}
			continue
		}
		if s.Mode != view.ModeLockup || s.Lockup.Kind != string(ledger.DocHandpayJackpot) || s.Lockup.Amount != s.Round.Jackpot {
			t.Fatalf("MS-18: mode %s lockup %+v for a jackpot of %d", s.Mode, s.Lockup, s.Round.Jackpot)
		}
		if got, want := r.credit(), before-s.Bet+s.Round.Total; got != want {
			t.Fatalf("MS-18: credit %d, want %d (the jackpot must not be credited)", got, want)
		}
		r.press(view.Start) // nothing happens in the lockup
		r.cab.Post(Key{Name: deck.Attendant, On: true})
		r.until("reset", time.Millisecond, func(s *view.Snapshot) bool { return s.Lockup == nil })
		r.cab.Post(Key{Name: deck.Attendant, On: false})
		if r.meter(ledger.JackpotAttendant) != int64(s.Round.Jackpot) || r.credit() != before-s.Bet+s.Round.Total {
			t.Fatal("MS-18: jackpot meter or credit after the reset")
		}
		r.until("form printed", time.Millisecond, func(*view.Snapshot) bool { return len(r.prn.Printed) > 0 })
		switch p := r.prn.Printed[len(r.prn.Printed)-1].(type) {
		case document.JackpotForm:
			if !czkForm {
				t.Fatal("MS-18's CZK form printed in another currency")
			}
		case document.HandpayReceipt:
			if czkForm || p.Reason != document.HandpayJackpot {
				t.Fatalf("printed a handpay receipt %+v, want the payout form", p)
			}
		default:
			t.Fatalf("printed %T after the jackpot reset", p)
		}
		return
	}
	t.Fatal("no jackpot hit in 50 games")
}
