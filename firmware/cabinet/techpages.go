package cabinet

import (
	"context"
	"encoding/hex"
	"fmt"

	"github.com/polaris-vlt/polaris/firmware/view"
)

// The technician's actions on the service pages: the seeded software
// digest (software page), and in test mode the tower-light and hard-meter
// tests (testlights.go); the audit ticket (auditticket.go). Each runs off
// the loop where it waits on a device or the disk, and comes back as a
// techReply.

// techState is what the technician's actions left for the pages to show.
type techState struct {
	seeded *seededDigest // the last seeded digest asked for, nil before
	seed   *seedEntry    // the seed the technician is entering, nil when not
	audit  string        // the last audit ticket's outcome: "", printing, printed, or the printer's error
	edit   configEdit    // the configuration page's setting being changed (configpage.go)

	outputs TestOutputs // the board's, for test mode (SetTestOutputs); nil without a board
}

// opened: the keys' pages opened; no setting is being edited, no seed entered.
func (t *techState) opened() { t.edit, t.seed = configEdit{}, nil }

// techReply is an action's result, applied on the loop.
type techReply struct{ apply func(c *Cabinet) }

func (techReply) event() {}

// seededDigest is an on-demand verification (check 9, standards.md
// §1.12): a fresh seed, shown, and the HMAC-SHA256 keyed with it over
// every component of the manifest as installed now (verify.Manifest.Seeded). The technician or the regulator computes the
// same over the reference copy (`polaris verify -seed HEX`) and compares.
type seededDigest struct {
	seed    string // hex
	digest  string // hex; empty while computing or on failure
	err     string
	working bool
}

// seedEntry is a seed the technician enters at the deck, one hex digit at
// a time: a lab brings its own seed, or the type report's start value
// (standards.md §1.12: "seed from the host", S18 §32(3) "start value given
// in the type report"), so the lab's reference digest and the cabinet's
// are computed with the same seed.
type seedEntry struct {
	digits [seedDigits]byte // 0–15 each
	at     int              // the digit being chosen
}

// seedDigits: eight bytes, as a fresh seed has.
const seedDigits = 16

// seedBytes is the entered seed as bytes.
func (e *seedEntry) seedBytes() []byte {
	b := make([]byte, seedDigits/2)
	for i := range b {
		b[i] = e.digits[2*i]<<4 | e.digits[2*i+1]
	}
	return b
}

// hex is the entered seed as the page shows it: the digits chosen, the
// one being chosen in brackets.
func (e *seedEntry) hex() string {
	const digits = "0123456789abcdef"
	var out []byte
	for i, d := range e.digits {
		if i == e.at {
			out = append(out, '[', digits[d], ']')
		} else {
			out = append(out, digits[d])
		}
	}
	return string(out)
}

// seedPress handles a button on the software page for the technician; false:
// the button does what it does on any page. Start asks for the digest with
// a fresh seed; Risk begins entering a seed: Bet+/Bet− choose the digit,
// Start moves to the next and, after the sixteenth, asks for the digest
// with the entered seed; Stop goes back a digit and, at the first, leaves
// the entry.
func (c *Cabinet) seedPress(b view.Button) bool {
	t := &c.tech
	e := t.seed
	if e == nil {
		switch b {
		case view.Start:
			c.askSeeded(nil)
		case view.Risk:
			if c.cfg.Software.Seeded == nil || t.seeded != nil && t.seeded.working {
				return true
			}
			t.seed = &seedEntry{}
			c.showMenu()
		default:
			return false
		}
		return true
	}
	switch b {
	case view.BetPlus:
		e.digits[e.at] = (e.digits[e.at] + 1) % 16
	case view.BetMinus:
		e.digits[e.at] = (e.digits[e.at] + 15) % 16
	case view.Start:
		if e.at < seedDigits-1 {
			e.at++
			break
		}
		t.seed = nil
		c.askSeeded(e.seedBytes())
		return true
	case view.Stop:
		if e.at == 0 {
			t.seed = nil
		} else {
			e.at--
		}
	default:
		return true // nothing else while a seed is entered
	}
	c.showMenu()
	return true
}

// askSeeded has the seeded digest computed off the loop with the entered
// seed, or with a fresh one drawn when seed is nil (Software.Seeded: the
// cabinet itself draws nothing, check 30); the request, with an entered
// seed, and its result, with the seed, are logged.
func (c *Cabinet) askSeeded(seed []byte) {
	t := &c.tech
	if t.seeded != nil && t.seeded.working {
		return
	}
	fn := c.cfg.Software.Seeded
	if fn == nil {
		c.showMenu()
		return
	}
	sd := &seededDigest{working: true}
	t.seeded = sd
	if seed == nil {
		c.logEvent("software_seeded", "technician", "seeded digest asked for with a fresh seed", 0)
	} else {
		c.logEvent("software_seeded", "technician", fmt.Sprintf("seeded digest asked for with the entered seed %x", seed), 0)
	}
	c.loop.async(func(context.Context) Event {
		seed, d, err := fn(seed)
		return techReply{apply: func(c *Cabinet) {
			sd.working, sd.seed = false, hex.EncodeToString(seed)
			if err != nil {
				sd.err = err.Error()
				c.logEvent("software_seeded", "cabinet", fmt.Sprintf("seed %s: failed: %v", sd.seed, err), 0)
			} else {
				sd.digest = hex.EncodeToString(d[:])
				c.logEvent("software_seeded", "cabinet", fmt.Sprintf("seed %s digest %s", sd.seed, sd.digest), 0)
			}
			if c.menus.menu != nil && c.menus.menu.Title == menuSoftware {
				c.showMenu()
			}
		}}
	})
	c.showMenu()
}

const menuSoftware = "menu.software"

// hintSeed is the software page's footer while a seed is entered.
const hintSeed = "menu.hint.seed"

// seededLines are the software page's lines of the seeded digest, and the
// footer while a seed is entered (Bet± change its digit there, not the page).
func seededLines(s pageSource) ([]view.MenuLine, string) {
	sd := s.tech.seeded
	switch {
	case s.software.Seeded == nil:
		return []view.MenuLine{view.Line("menu.software.seeded_none")}, ""
	case s.tech.seed != nil:
		return []view.MenuLine{view.Line("menu.software.seed_entry", view.Text(s.tech.seed.hex()),
			view.Count(int64(s.tech.seed.at+1)), view.Count(seedDigits)), view.Line("menu.software.seed_entry_help")}, hintSeed
	case sd == nil:
		return []view.MenuLine{view.Line("menu.software.seeded_start"), view.Line("menu.software.seed_enter")}, ""
	case sd.working:
		return []view.MenuLine{view.Line("menu.software.seeded_working")}, ""
	}
	var ls []view.MenuLine
	if sd.seed != "" {
		ls = append(ls, view.Line("menu.software.seed", view.Text(sd.seed)))
	}
	if sd.err != "" {
		ls = append(ls, view.Line("menu.software.seeded_failed", view.Text(sd.err)))
	} else {
		// Two halves: 64 hex digits do not fit the value column whole.
		ls = append(ls, view.Line("menu.software.seeded", view.Text(sd.digest[:32])), view.Line("menu.software.seeded_more", view.Text(sd.digest[32:])))
	}
	return append(ls, view.Line("menu.software.seeded_again"), view.Line("menu.software.seed_enter")), ""
}
