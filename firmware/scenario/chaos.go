package scenario

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/polaris-vlt/polaris/engine"
)

// Player is what chaos play drives beyond a script's steps: a headless
// cabinet (firmware/devkit.Headless).
type Player interface {
	Target
	// Devices says the cabinet opened its devices (it opens none when
	// software verification failed).
	Devices() bool
	// OfferNote puts a note of value v into the acceptor once, taken or
	// refused; only a value the acceptor does not know is an error.
	OfferNote(v engine.Money) error
	// TakeTicket takes the ticket from the printer's chute; false when the
	// printer has no chute to take it from.
	TakeTicket() bool
	// Wallet lists, oldest first, the vouchers the player holds.
	Wallet() []string
	// InsertTicket puts a voucher into the acceptor.
	InsertTicket(number string) error
	// ToMenuPage pages the menu a key opened to the page titled title.
	ToMenuPage(ctx context.Context, title string) error
}

// Chaos plays the headless cabinet at random until ctx ends: notes in,
// games (with Auto), Risk choices, cash-outs to vouchers, the printed
// voucher taken and put back in, doors opened and closed, the attendant
// and technician keys. The crash harness kills it at random instants.
func Chaos(ctx context.Context, h Player, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	notes := []engine.Money{500, 1000, 2000, 5000}
	step := func(verb string, args ...string) {
		// Errors are expected (a note refused during a lockup, a ticket
		// with nothing printed yet): chaos goes on.
		_ = h.Do(ctx, Step{Verb: verb, Args: args})
	}
	if !h.Devices() {
		<-ctx.Done()
		return
	}
	for ctx.Err() == nil {
		switch p := rng.IntN(100); {
		case p < 15:
			// Insert and go on: the note is taken, or refused, while
			// the chaos plays on.
			_ = h.OfferNote(notes[rng.IntN(len(notes))])
		case p < 45:
			step("press", "start")
		case p < 52:
			step("press", "auto")
		case p < 58:
			step("press", "risk")
		case p < 66:
			step("press", []string{"red", "black"}[rng.IntN(2)])
		case p < 74:
			step("press", "collect")
		case p < 80:
			// The player takes the voucher and puts one from the wallet
			// back in, mostly the newest.
			if !h.TakeTicket() {
				step("ticket", "last")
				break
			}
			if w := h.Wallet(); len(w) > 0 {
				i := len(w) - 1
				if rng.IntN(4) == 0 {
					i = rng.IntN(len(w))
				}
				h.InsertTicket(w[i])
			}
		case p < 84:
			step("door", "main", "open")
			time.Sleep(time.Duration(rng.IntN(100)) * time.Millisecond)
			step("door", "main", "close")
		case p < 88:
			step("press", "bet+")
		case p < 92:
			step("press", "bet-")
		case p < 95:
			// An attendant clears whatever lockup there is, a large
			// win sometimes to the credit meter (Start with the key on).
			step("key", "attendant", "on")
			if rng.IntN(2) == 0 {
				step("press", "start")
			}
			step("key", "attendant", "off")
		case p < 96:
			// A technician clears what only a technician may (a voucher
			// print a power cut interrupted, an outcome mismatch).
			step("key", "technician", "on")
			step("key", "technician", "off")
		case p < 97:
			// A technician runs test mode: the menu's test page, a few
			// buttons (Collect prints a test ticket), a note read and
			// returned, out again.
			step("key", "technician", "on")
			_ = h.ToMenuPage(ctx, "menu.test") // no menu mid-round: Start then does what it does there
			step("press", "start")
			for i := rng.IntN(4); i > 0; i-- {
				step("press", []string{"stop", "collect", "bet-", "auto"}[rng.IntN(4)])
			}
			if h.OfferNote(notes[rng.IntN(len(notes))]) == nil {
				time.Sleep(300 * time.Millisecond)
			}
			step("key", "technician", "off")
		default:
			time.Sleep(time.Duration(rng.IntN(50)) * time.Millisecond)
		}
	}
}
