package cabinet

import (
	"maps"
	"slices"
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
	// scratch is where snapshot writes, its slices and map reused: the
	// loop compares it after every event and copies it out only to publish.
	scratch view.Snapshot
	next    atomic.Pointer[chan struct{}]
	// ledgerSeq is the ledger's sequence when MetersChanged was last called.
	ledgerSeq uint64
}

func (p *publisher) init() {
	ch := make(chan struct{})
	p.next.Store(&ch)
}

// View returns the latest snapshot; safe from any goroutine.
func (c *Cabinet) View() *view.Snapshot { return c.pub.snap.Load() }

// Changed returns a channel closed when the next snapshot is published:
// a consumer waits on it instead of polling View; safe from any goroutine.
func (c *Cabinet) Changed() <-chan struct{} { return *c.pub.next.Load() }

// tellMeters calls changed once after an event that committed a ledger
// write (the ledger's sequence moved to seq).
func (p *publisher) tellMeters(seq uint64, changed func()) {
	if seq != p.ledgerSeq {
		p.ledgerSeq = seq
		if changed != nil {
			changed()
		}
	}
}

// publish stores the snapshot of the parts if it draws differently from
// the last one published (view.SameView): an idle cabinet publishes
// nothing, and every publication has a new Seq. Now is the instant of the
// publication.
func (c *Cabinet) publish() {
	c.snapshot(&c.pub.scratch)
	if view.SameView(c.pub.snap.Load(), &c.pub.scratch) {
		return
	}
	s := published(&c.pub.scratch)
	c.pub.seq++
	s.Seq, s.Now = c.pub.seq, c.now()
	c.pub.snap.Store(s)
	ch := make(chan struct{})
	close(*c.pub.next.Swap(&ch))
}

// snapshot is a pure function of the cabinet's parts: what the screen
// shows now, without Seq and Now, written into s (whose slices and lamp
// map it reuses).
func (c *Cabinet) snapshot(s *view.Snapshot) {
	p := c.cfg.Market
	credit := c.credit()
	lockup := s.Lockup
	*s = view.Snapshot{
		Mode:          c.mode(),
		Market:        p.ID,
		Language:      c.language(),
		Currency:      p.Currency,
		Game:          c.play.game,
		Bet:           c.play.bets[c.play.game],
		Credit:        credit,
		Win:           c.play.win,
		Auto:          c.play.auto,
		Round:         c.play.shown,
		Risk:          c.play.riskShown,
		Jackpots:      jackpotsFor(s.Jackpots[:0], c.play.jackpots, c.play.game, c.play.bets[c.play.game]),
		Message:       c.play.message,
		MessageAmount: c.play.messageAmount,
		Menu:          c.menus.menu,
		Sound:         c.sound.view(c.test != nil),
		Info:          c.info.view(p, c.play.game, c.play.bets[c.play.game]),
		Player:        c.player.shown,
		CountUp:       c.play.after.countUp,
		Games:         s.Games[:0],
		Tilts:         s.Tilts[:0],
		TiltKinds:     s.TiltKinds[:0],
		TiltLines:     s.TiltLines[:0],
		Doors:         s.Doors[:0],
		Lamps:         s.Lamps,
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
		if lockup == nil {
			lockup = &view.Lockup{}
		}
		*lockup = view.Lockup{Kind: string(d.Kind), Amount: engine.Money(d.Amount)}
		s.Lockup = lockup
	}
	for _, t := range c.cond.tilts {
		s.Tilts = append(s.Tilts, t.reason)
	}
	if c.holds(condSoftware) {
		s.Tilts = append(s.Tilts, c.cfg.Software.Error)
	}
	sort.Strings(s.Tilts)
	// Each reason's kind, in the reasons' order, for the display to name.
	for _, r := range s.Tilts {
		kind := "software"
		for k, t := range c.cond.tilts {
			if t.reason == r {
				kind = k
				break
			}
		}
		s.TiltKinds = append(s.TiltKinds, kind)
		s.TiltLines = append(s.TiltLines, tiltDetail(kind, r))
	}
	for d, o := range c.cond.doors {
		if o {
			s.Doors = append(s.Doors, d)
		}
	}
	sort.Strings(s.Doors)
	if s.Lamps == nil {
		s.Lamps = map[view.Button]view.Lamp{}
	}
	c.lamps(s.Mode, credit, s.Lamps)
	if c.test != nil { // the board's tiers are asked only in test mode: reading them may wait on the GPIO bank
		s.Tower = c.test.tower(c.tech.towerColours())
	}
	if s.Tower == "" {
		s.Tower = c.cond.tower(c.holds(condNoReader))
	}
}

// published is a copy of the scratch snapshot that shares nothing the
// loop writes again: what is published is never changed.
func published(s *view.Snapshot) *view.Snapshot {
	out := *s
	out.Games = cloneOrNil(s.Games)
	out.Jackpots = cloneOrNil(s.Jackpots)
	out.Tilts = cloneOrNil(s.Tilts)
	out.TiltKinds = cloneOrNil(s.TiltKinds)
	out.TiltLines = cloneOrNil(s.TiltLines)
	out.Doors = cloneOrNil(s.Doors)
	out.Lamps = maps.Clone(s.Lamps)
	if s.Lockup != nil {
		l := *s.Lockup
		out.Lockup = &l
	}
	return &out
}

func cloneOrNil[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

// lamps: a lamp is lit where its button does something now; Risk blinks
// while a win may be gambled, Auto blinks while Auto plays.
func (c *Cabinet) lamps(m view.Mode, credit engine.Money, l map[view.Button]view.Lamp) {
	clear(l)
	for _, b := range view.Buttons {
		l[b] = view.LampOff
	}
	if c.test != nil {
		c.test.lamps(l)
		return
	}
	on := func(b view.Button) { l[b] = view.LampOn }
	switch m {
	case view.ModeInfo:
		infoLamps(l)
	case view.ModeIdle:
		// Start and Auto lit only when a game would start: a condition
		// without a screen of its own (no card, a logout under way, a
		// key's refused menu) leaves them dark, its reason said when Start
		// is pressed. Collect cashes out in those too.
		if c.blocked() == "" && credit >= c.play.bets[c.play.game] {
			on(view.Start)
			on(view.Auto)
		}
		on(view.BetPlus)
		on(view.BetMinus)
		if credit > 0 {
			on(view.Collect)
		}
		if gameMenuOffered(c.cfg.Market) {
			on(view.Risk) // the game menu (gamemenu.go)
		}
	case view.ModeMenu:
		if c.menus.menu != nil && c.menus.menu.Title == menuGames {
			on(view.BetPlus)
			on(view.BetMinus)
			on(view.Start)
			on(view.Stop)
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
}
