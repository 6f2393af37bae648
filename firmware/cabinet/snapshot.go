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
		Game:          c.play.game,
		Bet:           c.play.bets[c.play.game],
		Credit:        c.credit(),
		Win:           c.play.win,
		Auto:          c.play.auto,
		Round:         c.play.shown,
		Risk:          c.play.riskShown,
		Jackpots:      jackpotsFor(c.play.jackpots, c.play.game, c.play.bets[c.play.game]),
		Message:       c.play.message,
		MessageAmount: c.play.messageAmount,
		Menu:          c.menus.menu,
	}
	for _, g := range p.Games {
		s.Games = append(s.Games, g.ID)
	}
	if g, ok := p.Game(c.play.game); ok {
		s.Bets = g.Stakes
	}
	s.RiskOffer = c.play.round != nil && c.play.round.phase == phaseRiskOffer
	if len(c.cond.lockups) > 0 {
		d := c.cond.lockups[0] // the one the attendant's key pays next
		s.Lockup = &view.Lockup{Kind: string(d.Kind), Amount: engine.Money(d.Amount)}
	}
	for _, t := range c.cond.tilts {
		s.Tilts = append(s.Tilts, t.reason)
	}
	if c.holds(condSoftware) {
		s.Tilts = append(s.Tilts, c.cfg.Software.Error)
	}
	sort.Strings(s.Tilts)
	for d, o := range c.cond.doors {
		if o {
			s.Doors = append(s.Doors, d)
		}
	}
	sort.Strings(s.Doors)
	s.Lamps = c.lamps(s.Mode)
	s.Tower = c.tower()
	return s
}

// lamps: a lamp is lit where its button does something now; Risk blinks
// while a win may be gambled, Auto blinks while Auto plays.
func (c *Cabinet) lamps(m view.Mode) map[view.Button]view.Lamp {
	l := map[view.Button]view.Lamp{}
	for _, b := range view.Buttons {
		l[b] = view.LampOff
	}
	if c.menus.test != nil {
		c.testLamps(l)
		return l
	}
	on := func(b view.Button) { l[b] = view.LampOn }
	switch m {
	case view.ModeIdle:
		if c.credit() >= c.play.bets[c.play.game] {
			on(view.Start)
			on(view.Auto)
		}
		on(view.BetPlus)
		on(view.BetMinus)
		if c.credit() > 0 {
			on(view.Collect)
		}
	case view.ModePresenting:
		if r := c.play.round; r != nil && !r.inFeature() {
			on(view.Stop)
		}
	case view.ModeRisk:
		on(view.BetMinus)
		on(view.BetPlus)
		if r := c.play.round; r != nil && len(r.gamble.steps) > 0 {
			on(view.Collect)
			on(view.Start)
		}
	}
	if r := c.play.round; r != nil && r.phase == phaseRiskOffer {
		l[view.Risk] = view.LampBlink
		on(view.Start)
		on(view.Collect)
	}
	if c.play.auto {
		l[view.Auto] = view.LampBlink
		on(view.Stop)
	}
	return l
}
