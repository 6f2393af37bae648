package cabinet

import (
	"sort"
	"sync/atomic"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// publisher is the snapshot part: the last published snapshot, its
// sequence number, and the channel closed at the next publication.
type publisher struct {
	snap atomic.Pointer[view.Snapshot]
	seq  uint64
	next atomic.Pointer[chan struct{}]
	// ledgerSeq is the ledger's sequence when MetersChanged was last called.
	ledgerSeq uint64
}

func (p *publisher) init() {
	ch := make(chan struct{})
	p.next.Store(&ch)
}

// publish stores the snapshot of the parts if it draws differently from
// the last one published (view.SameView): an idle cabinet publishes
// nothing, and every publication has a new Seq. Now is the instant of the
// publication.
func (c *Cabinet) publish() {
	s := c.snapshot()
	if view.SameView(c.pub.snap.Load(), s) {
		return
	}
	c.pub.seq++
	s.Seq, s.Now = c.pub.seq, c.now()
	c.pub.snap.Store(s)
	ch := make(chan struct{})
	close(*c.pub.next.Swap(&ch))
}

// snapshot is a pure function of the cabinet's parts: what the screen
// shows now, without Seq and Now.
func (c *Cabinet) snapshot() *view.Snapshot {
	p := c.cfg.Market
	s := &view.Snapshot{
		Mode:          c.mode(),
		Market:        p.ID,
		Language:      p.Language,
		Currency:      view.Currency{Code: p.Currency.Code, MinorUnits: p.Currency.MinorUnits, Symbol: p.Currency.Symbol},
		Game:          c.game,
		Bet:           c.bets[c.game],
		Credit:        c.credit(),
		Win:           c.win,
		Auto:          c.auto,
		Round:         c.shown,
		Risk:          c.riskShown,
		Jackpots:      jackpotsFor(c.jackpots, c.game, c.bets[c.game]),
		Message:       c.message,
		MessageAmount: c.messageAmount,
		Menu:          c.menu,
	}
	for _, g := range p.Games {
		s.Games = append(s.Games, g.ID)
	}
	if g, ok := p.Game(c.game); ok {
		s.Bets = g.Stakes
	}
	s.RiskOffer = c.round != nil && c.round.phase == phaseRiskOffer
	if len(c.lockups) > 0 {
		d := c.lockups[0] // the one the attendant's key pays next
		s.Lockup = &view.Lockup{Kind: string(d.Kind), Amount: engine.Money(d.Amount)}
	}
	for _, t := range c.tilts {
		s.Tilts = append(s.Tilts, t.reason)
	}
	if c.holds(condSoftware) {
		s.Tilts = append(s.Tilts, c.cfg.SoftwareError)
	}
	sort.Strings(s.Tilts)
	for d, o := range c.doors {
		if o {
			s.Doors = append(s.Doors, d)
		}
	}
	sort.Strings(s.Doors)
	s.Lamps = c.lamps(s.Mode)
	s.Tower = c.tower()
	return s
}
