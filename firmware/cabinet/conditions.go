package cabinet

import (
	"fmt"
	"sort"
	"strings"

	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// key handles the key switches. The attendant key resets a lockup, or
// opens the attendant pages (recall, money history); the technician key
// clears tilts that need a technician and opens the audit pages.
func (c *Cabinet) key(name string, on bool) {
	c.keys[name] = on
	if !on {
		if !c.keys["attendant"] && !c.keys["technician"] {
			c.menu = nil
		}
		return
	}
	c.logEvent("key", name, "on", 0)
	switch name {
	case "attendant":
		if len(c.lockups) > 0 {
			c.resetHandpay()
			return
		}
		c.menuPage = 0
		c.menu = c.attendantPage()
	case "technician":
		if c.ramError {
			c.menu = &view.MenuPage{Title: "menu.ram_clear", Lines: []string{"ram_clear.confirm"}}
			return
		}
		if d := c.interrupted; d != nil {
			// The technician has checked the printer: no voucher came out.
			if err := c.led.VoucherFailed(d.ID, "interrupted by power loss; checked by technician"); err != nil {
				c.ledgerFailed("the interrupted voucher", err)
			}
			c.interrupted = nil
		}
		cleared := false
		for k, t := range c.tilts {
			if t.manual {
				delete(c.tilts, k)
				cleared = true
				c.logEvent("tilt_cleared", "technician", t.reason, 0)
			}
		}
		if cleared {
			c.saveTilts()
		}
		c.menuPage = 0
		c.menu = c.technicianPage()
	}
}

// door: opening stops play at the end of the current step and disables
// money in and out (check 16); closing resumes the saved state (check 17).
func (c *Cabinet) door(name string, open bool) {
	if c.doors[name] == open {
		return
	}
	c.doors[name] = open
	var err error
	if open {
		err = c.led.DoorOpened(name)
		c.auto = false
	} else {
		err = c.led.DoorClosed(name)
		c.message = "door_closed"
	}
	if err != nil {
		c.ledgerFailed("the door event", err)
	}
	if !c.doorOpen() {
		c.verify("door closed")
		if r := c.round; r != nil && r.phase == phasePresenting && r.paused {
			r.paused = false
			c.plan(r, r.step, c.now())
			c.showRound(r)
		}
	}
}

func (c *Cabinet) linkState(up bool) {
	if c.linkUp == up {
		return
	}
	c.linkUp = up
	if up {
		c.logEvent("link", "central", "up", 0)
		if r := c.round; r != nil && r.phase == phaseWaitOutcome && !r.asking {
			c.askOutcome(r)
		}
	} else {
		c.logEvent("link", "central", "down", 0)
		c.auto = false
	}
}

func (c *Cabinet) centralCommand(e CentralCommand) {
	switch e.Command {
	case "disable":
		c.disabled = e.Reason
		if c.disabled == "" {
			c.disabled = "disabled by the central system"
		}
		c.auto = false
	case "enable":
		c.disabled = ""
	}
	c.logEvent("central_command", "central", e.Command+" "+e.Reason, 0)
}

// menuPress pages through the menu with Bet− and Bet+; in a RAM error
// the technician confirms the RAM clear with Start.
func (c *Cabinet) menuPress(b view.Button) {
	if c.ramError {
		if b == view.Start && c.keys["technician"] {
			c.ramClear()
		}
		return
	}
	switch b {
	case view.BetPlus:
		c.menuPage++
	case view.BetMinus:
		if c.menuPage > 0 {
			c.menuPage--
		}
	default:
		return
	}
	if c.keys["technician"] {
		c.menu = c.technicianPage()
	} else {
		c.menu = c.attendantPage()
	}
}

func (c *Cabinet) money(v int64) string {
	cur := c.cfg.Market.Currency
	if cur.MinorUnits == 0 {
		return fmt.Sprintf("%d %s", v, cur.Code)
	}
	div := int64(1)
	for i := 0; i < cur.MinorUnits; i++ {
		div *= 10
	}
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%0*d %s", sign, v/div, cur.MinorUnits, v%div, cur.Code)
}

func (c *Cabinet) technicianPage() *view.MenuPage {
	pages := []func() *view.MenuPage{c.metersPage, c.eventsPage, c.historyPage}
	return pages[c.menuPage%len(pages)]()
}

func (c *Cabinet) attendantPage() *view.MenuPage {
	pages := []func() *view.MenuPage{c.recallPage, c.historyPage}
	return pages[c.menuPage%len(pages)]()
}

func (c *Cabinet) metersPage() *view.MenuPage {
	m, suspect := c.led.Meters(ledger.ScopeCabinet)
	p := &view.MenuPage{Title: "menu.meters"}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, string(k))
	}
	sort.Strings(names)
	for _, k := range names {
		p.Lines = append(p.Lines, fmt.Sprintf("%-28s %14d", k, m[ledger.Meter(k)]))
	}
	if suspect {
		p.Lines = append(p.Lines, "SUSPECT VALUES (RAM error)")
	}
	return p
}

func (c *Cabinet) eventsPage() *view.MenuPage {
	p := &view.MenuPage{Title: "menu.events"}
	for _, e := range c.led.Events(20) {
		p.Lines = append(p.Lines, fmt.Sprintf("%s %-16s %-10s %s", e.Wall.Format("2006-01-02 15:04:05"), e.Kind, e.Source, e.Text))
	}
	return p
}

func (c *Cabinet) historyPage() *view.MenuPage {
	p := &view.MenuPage{Title: "menu.money"}
	for _, d := range c.led.DocsIn() {
		p.Lines = append(p.Lines, fmt.Sprintf("IN  %s %-10s %s %s", d.Done.Format("2006-01-02 15:04"), d.Kind, c.money(d.Amount), d.Result))
	}
	for _, d := range c.led.DocsOut() {
		p.Lines = append(p.Lines, fmt.Sprintf("OUT %s %-10s %s %s %s", d.Done.Format("2006-01-02 15:04"), d.Kind, c.money(d.Amount), d.MaskedNumber(), d.Result))
	}
	return p
}

func (c *Cabinet) recallPage() *view.MenuPage {
	p := &view.MenuPage{Title: "menu.recall"}
	for _, r := range c.led.Recall(10) {
		risk := make([]string, 0, len(r.Risk))
		for _, s := range r.Risk {
			risk = append(risk, fmt.Sprintf("%d→%d", s.Stake, s.Won))
		}
		p.Lines = append(p.Lines, fmt.Sprintf("#%d %s bet %s win %s credit %s→%s %s %s", r.Number, r.Game,
			c.money(r.Stake), c.money(r.Win), c.money(r.CreditBefore), c.money(r.CreditAfter), r.Status, strings.Join(risk, " ")))
	}
	return p
}

// lamps: a lamp is lit where its button does something now; Risk blinks
// while a win may be gambled, Auto blinks while Auto plays.
func (c *Cabinet) lamps(m view.Mode) map[view.Button]view.Lamp {
	l := map[view.Button]view.Lamp{}
	for _, b := range view.Buttons {
		l[b] = view.LampOff
	}
	on := func(b view.Button) { l[b] = view.LampOn }
	switch m {
	case view.ModeIdle:
		if c.credit() >= c.bets[c.game] {
			on(view.Start)
			on(view.Auto)
		}
		on(view.BetPlus)
		on(view.BetMinus)
		if c.credit() > 0 {
			on(view.Collect)
		}
	case view.ModePresenting:
		if r := c.round; r != nil && !r.inFeature() {
			on(view.Stop)
		}
	case view.ModeRisk:
		on(view.BetMinus)
		on(view.BetPlus)
		if r := c.round; r != nil && len(r.risk) > 0 {
			on(view.Collect)
			on(view.Start)
		}
	}
	if r := c.round; r != nil && r.phase == phaseRiskOffer {
		l[view.Risk] = view.LampBlink
		on(view.Start)
		on(view.Collect)
	}
	if c.auto {
		l[view.Auto] = view.LampBlink
		on(view.Stop)
	}
	return l
}

// ramClear is the technician's explicit, logged RAM clear: the only way out
// of a RAM error (check 4). Credit and meters start again from zero.
func (c *Cabinet) ramClear() {
	if err := c.led.RAMClear("technician", "RAM clear at the cabinet"); err != nil {
		c.cfg.Logf("cabinet: RAM clear: %v", err)
		return
	}
	c.ramError = false
	c.menu = nil
	c.round, c.cashout, c.escrow, c.interrupted = nil, nil, nil, nil
	c.tilts = map[string]tilt{}
	c.lockups = nil
	c.win = 0
	c.shown, c.riskShown = nil, nil
	c.message = "ram_cleared"
}
