package cabinet

import (
	"fmt"
	"strings"
	"sync"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// expectedRTP is the exact theoretical return of each game per stake, from
// the same calculation as the PAR sheets (engine/par): computed once, on
// the first audit page.
var expectedRTP = struct {
	once sync.Once
	rtp  map[engine.GameID]map[engine.Money]float64
	err  error
}{}

func gameRTP(g engine.GameID, stake engine.Money) (float64, bool) {
	expectedRTP.once.Do(func() {
		m := map[engine.GameID]map[engine.Money]float64{}
		for _, eg := range engine.Games() {
			x, ok := eg.(engine.ExactRTPer)
			if !ok {
				continue
			}
			rtp, err := x.RTPByStake()
			if err != nil {
				expectedRTP.err = err
				continue
			}
			m[eg.ID()] = rtp
		}
		expectedRTP.rtp = m
	})
	v, ok := expectedRTP.rtp[g][stake]
	return v, ok
}

// auditPage is the technician's first page (check 29): who the terminal
// is, what software runs, how it is configured, and the expected RTP of
// every game it offers at every stake.
func auditPage(s pageSource) *view.MenuPage {
	p := &view.MenuPage{Title: "menu.audit"}
	add := func(format string, args ...any) { p.Lines = append(p.Lines, fmt.Sprintf(format, args...)) }
	m := s.market
	add("terminal id        %s", s.id)
	add("site               %s %s", s.site.ID, s.site.Name)
	add("software version   %s", orDash(s.software.Version))
	add("software id        %s", orDash(s.software.ID))
	if s.softwareFailed {
		add("software check     FAILED: %s", s.software.Error)
	}
	st := s.led.Status()
	add("ledger             %s seq %d head %.16s", st.LedgerID, st.Seq, st.Head)
	add("market             %s (%s), language %s, currency %s", m.ID, m.Name, m.Language, m.Currency.Code)
	bills := make([]string, 0, len(m.Limits.Bills))
	for _, b := range m.Limits.Bills {
		bills = append(bills, s.money(int64(b)))
	}
	add("ticket-out limit   %s", s.money(int64(m.Limits.TicketOut)))
	add("large-win handpay  %s", s.money(int64(m.Limits.LargeWin)))
	add("credit limit       %s", s.money(int64(m.Limits.Credit)))
	add("bills accepted     %s", strings.Join(bills, ", "))
	add("shortest round     %d ms, acceptor off during play %v", m.Timers.MinRoundMs, m.Timers.AcceptorOffDuringPlay)
	for _, g := range m.Games {
		model := ""
		if eg, err := engine.Lookup(g.ID); err == nil {
			model = eg.ModelID()
		}
		add("game %-13s model %.16s default bet %s", g.ID, model, s.money(int64(g.DefaultStake)))
		for _, stake := range g.Stakes {
			if rtp, ok := gameRTP(g.ID, stake); ok {
				add("  bet %-12s expected RTP %8.4f %%", s.money(int64(stake)), 100*rtp)
			} else {
				add("  bet %-12s expected RTP unknown", s.money(int64(stake)))
			}
		}
	}
	return p
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
