package cardemu

import (
	"bytes"

	"github.com/polaris-vlt/polaris/cardauth"
)

// The applet of CARDS.md.
var aid = []byte{0xF0, 0x50, 0x4F, 0x4C, 0x41, 0x52, 0x49, 0x53, 0x01}

type applet struct {
	card     Card
	selected bool
}

func sw(hi, lo byte, data ...byte) []byte { return append(bytes.Clone(data), hi, lo) }

// handle answers one command APDU; nil means the card left without an answer.
func (a *applet) handle(c []byte, fault Fault) []byte {
	if len(c) < 4 {
		return sw(0x67, 0x00)
	}
	cla, ins, p1, p2 := c[0], c[1], c[2], c[3]
	body := c[4:]
	switch {
	case cla == 0x00 && ins == 0xA4: // SELECT by name
		if p1 != 0x04 || p2 != 0x00 || len(body) < 1 || int(body[0]) > len(body)-1 {
			return sw(0x6A, 0x86)
		}
		name := body[1 : 1+int(body[0])]
		if !a.card.Applet || !bytes.Equal(name, aid) {
			a.selected = false
			return sw(0x6A, 0x82)
		}
		a.selected = true
		return sw(0x90, 0x00)
	case !a.selected:
		if cla != 0x00 && cla != 0x80 {
			return sw(0x6E, 0x00)
		}
		return sw(0x69, 0x85)
	case cla == 0x80 && ins == 0xCA && p1 == 0x00 && p2 == 0x01: // GET ID
		if fault == GarbageID {
			return sw(0x90, 0x00, []byte("12AB")...)
		}
		return sw(0x90, 0x00, []byte(a.card.ID)...)
	case cla == 0x00 && ins == 0x88: // INTERNAL AUTHENTICATE
		switch fault {
		case RemoveOnAuthenticate:
			return nil
		case GarbageOnAuthenticate:
			return []byte{0x13, 0x37, 0x42}
		}
		if p1 != 0 || p2 != 0 || len(body) < 1 || int(body[0]) > len(body)-1 {
			return sw(0x67, 0x00)
		}
		mac, err := cardauth.Respond(a.card.Key, a.card.ID, body[1:1+int(body[0])])
		if err != nil {
			return sw(0x67, 0x00)
		}
		return sw(0x90, 0x00, mac...)
	case cla != 0x00 && cla != 0x80:
		return sw(0x6E, 0x00)
	}
	return sw(0x6D, 0x00)
}
