package cabinet

import (
	"context"
	"crypto/rand"
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
	audit  string        // the last audit ticket's outcome: "", printing, printed, or the printer's error
	edit   configEdit    // the configuration page's setting being changed (configpage.go)

	outputs TestOutputs // the board's, for test mode (SetTestOutputs); nil without a board
}

// techReply is an action's result, applied on the loop.
type techReply struct{ apply func(c *Cabinet) }

func (techReply) event() {}

// seededDigest is an on-demand verification (check 9, standards.md
// §1.12): a seed the cabinet draws and shows, and the HMAC-SHA256 keyed
// with it over every component of the manifest as installed now
// (verify.Manifest.Seeded). The technician or the regulator computes the
// same over the reference copy (`polaris verify -seed HEX`) and compares.
type seededDigest struct {
	seed    string // hex
	digest  string // hex; empty while computing or on failure
	err     string
	working bool
}

// seedBytes is the seed's length: 64 bits, 16 hex digits to read off the
// screen, unguessable before it is shown.
const seedBytes = 8

// askSeeded draws a seed and computes the seeded digest off the loop; the
// request and its result are logged.
func (c *Cabinet) askSeeded() {
	t := &c.menus.tech
	if t.seeded != nil && t.seeded.working {
		return
	}
	if c.cfg.Software.Seeded == nil {
		t.seeded = &seededDigest{err: "no manifest"}
		c.showMenu()
		return
	}
	var seed [seedBytes]byte
	if _, err := rand.Read(seed[:]); err != nil {
		t.seeded = &seededDigest{err: err.Error()}
		c.showMenu()
		return
	}
	sd := &seededDigest{seed: hex.EncodeToString(seed[:]), working: true}
	t.seeded = sd
	c.logEvent("software_seeded", "technician", "seed "+sd.seed, 0)
	fn := c.cfg.Software.Seeded
	c.async(func(context.Context) Event {
		d, err := fn(seed[:])
		return techReply{apply: func(c *Cabinet) {
			sd.working = false
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

// seededLines are the software page's lines of the seeded digest.
func seededLines(s pageSource) []view.MenuLine {
	sd := s.seeded
	switch {
	case s.software.Seeded == nil:
		return []view.MenuLine{view.Line("menu.software.seeded_none")}
	case sd == nil:
		return []view.MenuLine{view.Line("menu.software.seeded_start")}
	case sd.seed == "":
		return []view.MenuLine{view.Line("menu.software.seeded_failed", view.Text(sd.err))}
	}
	ls := []view.MenuLine{view.Line("menu.software.seed", view.Text(sd.seed))}
	switch {
	case sd.working:
		ls = append(ls, view.Line("menu.software.seeded_working"))
	case sd.err != "":
		ls = append(ls, view.Line("menu.software.seeded_failed", view.Text(sd.err)))
	default:
		// Two halves: 64 hex digits do not fit the value column whole.
		ls = append(ls, view.Line("menu.software.seeded", view.Text(sd.digest[:32])), view.Line("menu.software.seeded_more", view.Text(sd.digest[32:])))
	}
	return append(ls, view.Line("menu.software.seeded_again"))
}
