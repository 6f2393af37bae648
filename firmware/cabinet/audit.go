package cabinet

import (
	"strconv"
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
	add := func(key string, args ...view.Arg) { p.Lines = append(p.Lines, view.Line(key, args...)) }
	m := s.market
	add("menu.audit.terminal", view.Text(s.id))
	add("menu.audit.site", view.Text(s.site.ID), view.Text(s.site.Name))
	add("menu.audit.version", view.Text(orDash(s.software.Version)))
	add("menu.audit.software_id", view.Text(orDash(s.software.ID)))
	if s.softwareFailed {
		add("menu.audit.software_failed", view.Text(s.software.Error))
	}
	st := s.led.Status()
	add("menu.audit.ledger", view.Text(st.LedgerID), view.Text(strconv.FormatUint(st.Seq, 10)), view.Text(short(st.Head)))
	add("menu.audit.market", view.Text(m.ID), view.Text(m.Name), view.Text(m.Language), view.Text(m.Currency.Code))
	add("menu.audit.ticket_out", view.Money(int64(m.Limits.TicketOut)))
	add("menu.audit.large_win", view.Money(int64(m.Limits.LargeWin)))
	add("menu.audit.credit", view.Money(int64(m.Limits.Credit)))
	bills := make([]int64, 0, len(m.Limits.Bills))
	for _, b := range m.Limits.Bills {
		bills = append(bills, int64(b))
	}
	add("menu.audit.bills", view.Moneys(bills...))
	acceptor := "menu.no"
	if m.Timers.AcceptorOffDuringPlay {
		acceptor = "menu.yes"
	}
	add("menu.audit.round", view.Millis(int64(m.Timers.MinRoundMs)), view.Key(acceptor))
	for _, g := range m.Games {
		model := ""
		if eg, err := engine.Lookup(g.ID); err == nil {
			model = eg.ModelID()
		}
		add("menu.audit.game", view.Key("game."+string(g.ID)), view.Text(short(model)), view.Money(int64(g.DefaultStake)))
		for _, stake := range g.Stakes {
			if rtp, ok := gameRTP(g.ID, stake); ok {
				add("menu.audit.rtp", view.Money(int64(stake)), view.Percent(100*rtp))
			} else {
				add("menu.audit.rtp_unknown", view.Money(int64(stake)))
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
