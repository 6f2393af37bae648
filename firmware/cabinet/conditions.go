package cabinet

import (
	"fmt"
	"sort"

	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// key handles the key switches. The attendant key resets a lockup, or
// opens the attendant pages (recall, money history); the technician key
// clears tilts that need a technician and opens the audit pages. Neither
// opens a menu during play or a cash-out unless a fault stopped it
// (check 29).
func (c *Cabinet) key(name string, on bool) {
	c.keys[name] = on
	if c.test != nil {
		// Test mode ends only with the technician key; other keys do
		// nothing meanwhile.
		if name == "technician" && !on {
			c.leaveTest()
			c.menu, c.recall = nil, nil
		}
		return
	}
	if !on && name == "attendant" && c.handpayChoice {
		// The key turned back without Start: paid by hand.
		c.handpayChoice = false
		c.test = nil
		c.menu = nil
		c.resetHandpay()
	}
	if !on {
		if !c.keys["attendant"] && !c.keys["technician"] {
			c.menu, c.recall = nil, nil
		} else if c.menu != nil {
			c.showMenu()
		}
		return
	}
	c.logEvent("key", name, "on", 0)
	switch name {
	case "attendant":
		if len(c.lockups) > 0 {
			if c.transferOffered() {
				c.offerTransfer()
				return
			}
			c.resetHandpay()
			return
		}
	case "technician":
		if c.ramError {
			c.menu = &view.MenuPage{Title: "menu.ram_clear", Lines: []string{
				"START: clear the critical memory (logged); credit and meters start again from zero"}}
			return
		}
		cleared := false
		for k, t := range c.tilts {
			if t.manual && k != tiltSoftwareChanged {
				delete(c.tilts, k)
				cleared = true
				c.logEvent("tilt_cleared", "technician", t.reason, 0)
			}
		}
		if cleared {
			c.saveTilts()
		}
		if _, ok := c.tilts[tiltSoftwareChanged]; ok {
			// A changed program is accepted only with Start (check 9).
			c.menu = &view.MenuPage{Title: "menu.software_changed", Lines: []string{c.tilts[tiltSoftwareChanged].reason,
				"START: accept the software now running (logged); turn the key back to leave it locked"}}
			return
		}
	default:
		return
	}
	if c.menu == nil && !c.menuAllowed() {
		c.say(view.MsgMenuRefused, 0)
		c.logEvent("menu_refused", name, "during play or cash-out", 0)
		return
	}
	c.menuPage = 0
	c.recallStep = 0
	c.loadRecall()
	c.showMenu()
}

// DefaultStorageLow: below this much free space a ledger write could fail
// mid-game; the cabinet stops taking money and games first.
const DefaultStorageLow = 64 << 20

// storageHealth tilts while the ledger's storage is low or unreadable
// (check 27, "low NV-storage health") and clears when it is not.
func (c *Cabinet) storageHealth(e StorageHealth) {
	switch {
	case e.Err != nil:
		c.setTilt("storage", "storage: cannot read free space: "+e.Err.Error(), false)
	case e.Free < c.cfg.StorageLow:
		c.setTilt("storage", fmt.Sprintf("storage low: %d MiB free, below %d MiB", e.Free>>20, c.cfg.StorageLow>>20), false)
	default:
		c.clearTilt("storage")
	}
}

// menuAllowed: menus open in idle and in error states, never in a round
// or a cash-out that no fault has stopped (check 29).
func (c *Cabinet) menuAllowed() bool {
	if c.round == nil && c.cashout == nil {
		return true
	}
	return len(c.tilts) > 0 || c.doorOpen() || c.ramError || !c.linkUp || c.softwareRefused()
}

// door: opening stops play at the end of the current step and disables
// money in and out (check 16); closing resumes the saved state (check 17).
func (c *Cabinet) door(name string, open bool) {
	c.firstDoorInput(name, open)
	if c.doors[name] == open {
		return
	}
	c.doors[name] = open
	c.saveDoors()
	var err error
	if open {
		err = c.led.DoorOpened(name)
		c.auto = false
	} else {
		err = c.led.DoorClosed(name)
		c.say(view.MsgDoorClosed, 0)
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

// menuPress pages through the menu with Bet− and Bet+; on a recall page
// Start and Stop page through the game's steps. In a RAM error the
// technician confirms the RAM clear with Start; a software change is
// accepted the same way.
func (c *Cabinet) menuPress(b view.Button) {
	if c.ramError {
		if b == view.Start && c.keys["technician"] {
			c.ramClear()
		}
		return
	}
	if b == view.Start && c.menu != nil && c.menu.Title == menuTest {
		c.enterTest()
		return
	}
	if c.handpayChoice {
		if b == view.Start {
			c.handpayChoice = false
			c.menu = nil
			c.transferHandpay()
		}
		return
	}
	if _, ok := c.tilts[tiltSoftwareChanged]; ok && c.keys["technician"] {
		if b == view.Start {
			c.acceptSoftware()
		}
		return
	}
	switch b {
	case view.BetPlus:
		c.menuPage++
		c.recallStep = 0
	case view.BetMinus:
		if c.menuPage > 0 {
			c.menuPage--
		}
		c.recallStep = 0
	case view.Start:
		c.recallStep++
	case view.Stop:
		c.recallStep--
	default:
		return
	}
	c.showMenu()
}

// menuPages lists the open menu's pages: the technician's audit pages and
// the recall, or the attendant's recall (one page per game) and money
// history.
func (c *Cabinet) menuPages() []func() *view.MenuPage {
	var ps []func() *view.MenuPage
	tech := c.keys["technician"]
	if tech {
		for _, p := range []func() *view.MenuPage{c.auditPage, c.metersPage, c.eventsPage, c.historyPage} {
			ps = append(ps, paged(p())...)
		}
		ps = append(ps, c.testPage)
	}
	for i := range max(len(c.recall), 1) {
		ps = append(ps, func() *view.MenuPage { return c.recallPage(i) })
	}
	if !tech {
		ps = append(ps, paged(c.historyPage())...)
	}
	return ps
}

func (c *Cabinet) showMenu() {
	ps := c.menuPages()
	c.menuPage = min(max(c.menuPage, 0), len(ps)-1)
	p := ps[c.menuPage]()
	p.Page, p.Pages = c.menuPage+1, len(ps)
	c.menu = p
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

// lamps: a lamp is lit where its button does something now; Risk blinks
// while a win may be gambled, Auto blinks while Auto plays.
func (c *Cabinet) lamps(m view.Mode) map[view.Button]view.Lamp {
	l := map[view.Button]view.Lamp{}
	for _, b := range view.Buttons {
		l[b] = view.LampOff
	}
	if c.test != nil {
		c.testLamps(l)
		return l
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
	c.round, c.cashout, c.escrow = nil, nil, nil
	c.handpayChoice = false
	c.tilts = map[string]tilt{}
	c.lockups = nil
	c.win = 0
	c.shown, c.riskShown = nil, nil
	c.say(view.MsgRAMCleared, 0)
}
