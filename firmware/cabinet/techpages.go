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
	audit  string        // the last audit ticket's outcome: "", printing, printed, or the printer's error
	edit   configEdit    // the configuration page's setting being changed (configpage.go)

	outputs TestOutputs // the board's, for test mode (SetTestOutputs); nil without a board
}

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

// askSeeded has a seed drawn and the seeded digest computed, off the loop
// (Software.Seeded: the cabinet itself draws nothing, check 30); the
// request and its result, with the seed, are logged.
func (c *Cabinet) askSeeded() {
	t := &c.menus.tech
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
	c.logEvent("software_seeded", "technician", "seeded digest asked for", 0)
	c.async(func(context.Context) Event {
		seed, d, err := fn()
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

// seededLines are the software page's lines of the seeded digest.
func seededLines(s pageSource) []view.MenuLine {
	sd := s.tech.seeded
	switch {
	case s.software.Seeded == nil:
		return []view.MenuLine{view.Line("menu.software.seeded_none")}
	case sd == nil:
		return []view.MenuLine{view.Line("menu.software.seeded_start")}
	case sd.working:
		return []view.MenuLine{view.Line("menu.software.seeded_working")}
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
	return append(ls, view.Line("menu.software.seeded_again"))
}
