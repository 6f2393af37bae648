package cabinet

import (
	"context"

	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

// Test mode (check 28): the technician enters it from the technician's
// menu (never the player), and it is labelled on screen. Its tests touch
// no meter and no credit: buttons and lamps, the acceptor (a note or
// ticket is read, shown and returned, never stacked), the printer (a
// ticket marked TEST - NOT VALID). There are no test games: outcomes come
// only from the central system (check 30). Turning the key back leaves it,
// and the critical state must hash as it did at entry; a difference is
// logged and tilts.

// testVolatile is the critical state that test mode does not change but
// that changes meanwhile: the power-off heartbeat, the hard meters
// catching up, and the doors a technician opens and closes (their state
// and their meters).
var testVolatile = ledger.DigestSkip{Resume: []ledger.ResumePart{ledger.ResumeBeat, ledger.ResumeHardMeters, ledger.ResumeDoors},
	Meters: []ledger.Meter{ledger.DoorOpens}}

// testState is test mode while it lasts.
type testState struct {
	digest  string         // the ledger's StateDigest at entry
	button  view.Button    // the last button pressed
	read    *view.MenuLine // what the acceptor read last, as the page words it
	printed int            // test tickets the printer took
	printer string         // the printer's answer to the last one
	outputs testOutputsState
}

// testPrinted is the printer's answer to a test ticket.
type testPrinted struct{ err error }

func (testPrinted) event() {}

// printedReply is the printer's answer to a test ticket.
func (t *testState) printedReply(err error) {
	if err != nil {
		t.printer = err.Error()
	} else {
		t.printed++
		t.printer = "printed"
	}
}

const (
	menuTest     = "menu.test"      // the technician's page that enters test mode
	menuTestMode = "menu.test_mode" // test mode's own page
)

func testPage(pageSource) *view.MenuPage {
	return &view.MenuPage{Title: menuTest, Lines: []view.MenuLine{
		view.Line("menu.test.devices"), view.Line("menu.test.no_meters"), view.Line("menu.test.start")}}
}

// enterTest: the technician's Start on the test page; not during play, a
// cash-out, a document in the acceptor or a lockup.
func (c *Cabinet) enterTest() {
	allowed := c.play.round == nil && c.cashOut.voucher == nil && c.moneyIn.escrow == nil && len(c.cond.lockups) == 0 && !c.cond.ramError
	if c.test != nil || !c.cond.keys["technician"] || !allowed {
		return
	}
	c.play.halt("test mode")
	c.test = &testState{digest: c.led.StateDigest(testVolatile)}
	c.logEvent("test_mode", "technician", "entered", 0)
	c.showTest()
}

// leaveTest ends test mode and checks that the critical state is the
// one it was entered with.
func (c *Cabinet) leaveTest() {
	t := c.test
	if t == nil {
		return
	}
	c.test = nil
	if now := c.led.StateDigest(testVolatile); now != t.digest {
		c.logEvent("test_mode", "cabinet", "critical state changed in test mode: "+t.digest[:12]+" → "+now[:12], 0)
		c.setTilt("test", "critical state changed in test mode", true)
		return
	}
	c.logEvent("test_mode", "technician", "left; critical state unchanged "+t.digest[:12], 0)
}

// showTest shows test mode's page.
func (c *Cabinet) showTest() { c.menus.show(c.test.page(c.tech.towerColours())) }

// page is test mode's page; cols are the tower's tiers.
func (t *testState) page(cols []string) *view.MenuPage {
	last := view.Text("-")
	if t.button != "" {
		last = view.Key("hint." + string(t.button)) // the button as its label names it
	}
	read := view.Line("menu.text", view.Text("-"))
	if t.read != nil {
		read = *t.read
	}
	printer := view.Key("menu.test_mode.refused")
	switch t.printer {
	case "printed":
		printer = view.Key("docres.printed")
	case "":
		printer = view.Text("-")
	}
	lines := []view.MenuLine{
		view.Line("menu.test_mode.buttons", last),
		view.Line("menu.test_mode.acceptor"), read,
		view.Line("menu.test_mode.printer", view.Count(int64(t.printed)), printer),
	}
	lines = append(append(lines, t.outputLines(cols)...), view.Line("menu.test_mode.leave"))
	return &view.MenuPage{Title: menuTestMode, Lines: lines, Page: 1, Pages: 1}
}

func (c *Cabinet) testPress(b view.Button) {
	c.test.pressed(b)
	c.sound.play(b)
	if b == view.InfoButton {
		c.testOutputsPress()
	}
	if b == view.Collect && c.cfg.Printer != nil {
		doc := c.paper.testTicket(c.wall())
		p := c.cfg.Printer
		c.loop.async(func(ctx context.Context) Event {
			_, err := p.Print(doc)
			return testPrinted{err: err}
		})
	}
	c.showTest()
}

// pressed: b was the last button pressed.
func (t *testState) pressed(b view.Button) { t.button = b }

// readDoc: the acceptor read a document, as the page words it.
func (t *testState) readDoc(l *view.MenuLine) { t.read = l }

// testRead is what the test page says of document d, in market m.
func testRead(m *market.Profile, d id003.Document) *view.MenuLine {
	switch d.Kind {
	case id003.DocNote:
		if v := billValue(m, d); v > 0 {
			return &view.MenuLine{Key: "menu.test_mode.note", Args: []view.Arg{view.Money(int64(v))}}
		}
		return &view.MenuLine{Key: "menu.test_mode.note_unknown", Args: []view.Arg{view.Text(d.String())}}
	case id003.DocTicket:
		return &view.MenuLine{Key: "menu.test_mode.ticket", Args: []view.Arg{view.Text(ledger.Mask(d.Ticket))}}
	}
	return &view.MenuLine{Key: "menu.text", Args: []view.Arg{view.Text(d.String())}}
}

// lamps: every button's lamp lights in test mode (a lamp test), the last
// pressed blinks.
func (t *testState) lamps(l map[view.Button]view.Lamp) {
	for _, b := range view.Buttons {
		l[b] = view.LampOn
	}
	if t.button != "" {
		l[t.button] = view.LampBlink
	}
}
