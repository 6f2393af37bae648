package cabinet

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/deck"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/par"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// Check 29, audit screens. The technician key opens the audit page: the
// terminal id, the software version and id, the market's configuration
// and limits, and the expected RTP of every offered game at every stake —
// the PAR sheets' exact figures — then the meters, events, money history
// and recall pages. The key opens no menu during a round or a cash-out,
// unless a fault (here a door) stopped it; the refusal is logged.
func TestCheck29AuditScreens(t *testing.T) {
	held := &cashOutHeld{asked: make(chan struct{}), release: make(chan struct{})}
	r := newRig(t, "demo", withTiming(DefaultTiming), func(c *Config) {
		c.Software.Version, c.Software.ID = "1.2.3+test", "sha256:feedface"
		held.Central, c.Central = c.Central, held
	})
	r.idle()
	r.insertNote(5000, 2)
	r.cab.Post(Key{Name: "technician", On: true})
	s := r.until("audit page", time.Millisecond, func(s *view.Snapshot) bool {
		return s.Mode == view.ModeMenu && s.Menu != nil && s.Menu.Title == "menu.audit"
	})
	text := strings.Join(lines("en", r.cab.cfg.Market, s.Menu), "\n")
	want := []string{"Terminal id cab-1", "Software version 1.2.3+test", "Software id sha256:feedface",
		"Market demo", "Ticket-out limit €1,000.00", "Large-win handpay €2,000.00", "Credit limit €1,000.00",
		"Notes accepted €5.00, €10.00"}
	for _, g := range []engine.GameID{engine.WishStar, engine.MagicStars} {
		gm, _ := r.cab.cfg.Market.Game(g)
		for _, stake := range gm.Stakes {
			rtp, _, err := par.Theory(g, stake)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, fmt.Sprintf("  bet %s expected RTP %.4f\u00a0%%", fmtMoney(r.cab.cfg.Market, stake), 100*rtp))
		}
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Fatalf("check 29: the audit page lacks %q:\n%s", w, text)
		}
	}
	for _, title := range []string{"menu.meters", "menu.link", "menu.software", "menu.config", "menu.events", "menu.money", menuTest, "menu.recall"} {
		r.press(view.BetPlus)
		r.until(title, time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title == title })
	}
	r.cab.Post(Key{Name: "technician", On: false})
	r.idle()

	// During a round: refused, for both keys, and logged.
	r.press(view.Start)
	r.until("presenting", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModePresenting })
	seq := r.lastEventSeq()
	for i, k := range []deck.Key{deck.Technician, deck.Attendant} {
		r.cab.Post(Key{Name: k, On: true})
		s := r.until("refused", time.Millisecond, func(s *view.Snapshot) bool {
			return s.Message == "menu_refused" && len(r.eventsOf(seq, "menu_refused")) == i+1
		})
		if s.Menu != nil || s.Mode == view.ModeMenu {
			t.Fatalf("check 29: the %s key opened a menu during play", k)
		}
		r.cab.Post(Key{Name: k, On: false})
	}
	if n := len(r.eventsOf(seq, "menu_refused")); n != 2 {
		t.Fatalf("check 29: %d refusals logged, want 2", n)
	}
	// A door stops the round: now the audit opens.
	r.cab.Post(Door{Name: "main", Open: true})
	r.until("door open", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeDoorOpen })
	r.cab.Post(Key{Name: "technician", On: true})
	r.until("audit in a stopped round", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title == "menu.audit" })
	r.cab.Post(Key{Name: "technician", On: false})
	r.cab.Post(Door{Name: "main", Open: false})
	r.settleRound(r.until("round over", 100*time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle || s.RiskOffer }))
	r.idle()

	// During a cash-out: its voucher's number is not answered yet.
	r.press(view.Collect)
	select {
	case <-held.asked:
	case <-poll.After(10 * time.Second):
		t.Fatal("no voucher asked for")
	}
	r.cab.Post(Key{Name: "technician", On: true})
	if s := r.state(); s.Menu != nil || s.Mode != view.ModeCashout {
		t.Fatalf("check 29: the technician key opened a menu during a cash-out: mode %s", s.Mode)
	}
	r.cab.Post(Key{Name: "technician", On: false})
	close(held.release)
	r.until("cashed out", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle && s.Credit == 0 })
}

// cashOutHeld is the central system answering a voucher's number only
// once release is closed: the cash-out stays in progress meanwhile.
type cashOutHeld struct {
	Central
	once    sync.Once
	asked   chan struct{}
	release chan struct{}
}

func (c *cashOutHeld) IssueVoucher(ctx context.Context, amount engine.Money, seq uint64) (*link.Voucher, error) {
	c.once.Do(func() { close(c.asked) })
	select {
	case <-c.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return c.Central.IssueVoucher(ctx, amount, seq)
}
