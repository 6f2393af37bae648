package cardemu

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"io"
	"net"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/cardauth"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// The test plays vpcd: it listens, the emulator connects as a card, and
// the test sends frames as vpcd does.

type vpcd struct {
	t *testing.T
	c net.Conn
}

func insert(t *testing.T, card Card) (*Slot, *vpcd) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	s := NewSlot(ln.Addr().String())
	if err := s.Insert(card); err != nil {
		t.Fatal(err)
	}
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); s.Remove() })
	c.SetDeadline(time.Now().Add(poll.Scaled(5 * time.Second)))
	return s, &vpcd{t: t, c: c}
}

func (v *vpcd) send(b []byte) {
	v.t.Helper()
	f := binary.BigEndian.AppendUint16(nil, uint16(len(b)))
	if _, err := v.c.Write(append(f, b...)); err != nil {
		v.t.Fatal(err)
	}
}

func (v *vpcd) recv() []byte {
	v.t.Helper()
	var h [2]byte
	if _, err := io.ReadFull(v.c, h[:]); err != nil {
		v.t.Fatalf("no answer: %v", err)
	}
	b := make([]byte, binary.BigEndian.Uint16(h[:]))
	if _, err := io.ReadFull(v.c, b); err != nil {
		v.t.Fatal(err)
	}
	return b
}

func (v *vpcd) apdu(hexAPDU string) string {
	v.t.Helper()
	b, err := hex.DecodeString(hexAPDU)
	if err != nil {
		v.t.Fatal(err)
	}
	v.send(b)
	return hex.EncodeToString(v.recv())
}

var master = bytes.Repeat([]byte{7}, 32)

const (
	selectPolaris = "00a4040009f0504f4c415249530100"
	getID         = "80ca000110"
)

func TestAppletAnswersAsCARDSmdSays(t *testing.T) {
	_, v := insert(t, PlayerCard(master, "4000123456789010"))
	v.send([]byte{0x04})
	if atr := v.recv(); !bytes.Equal(atr, PolarisATR) {
		t.Fatalf("ATR % X", atr)
	}
	v.send([]byte{0x01}) // power on: no answer
	for _, c := range []struct{ apdu, want string }{
		{getID, "6985"}, // not selected yet
		{"00a4040009f0504f4c415249530200", "6a82"}, // version 2 of the applet: not here
		{selectPolaris, "9000"},
		{getID, hex.EncodeToString([]byte("4000123456789010")) + "9000"},
		{"80ca000210", "6d00"},             // another GET DATA tag
		{"b0ca000110", "6e00"},             // unknown class
		{"0088000004010203040020", "6700"}, // challenge shorter than 16 bytes
	} {
		if got := v.apdu(c.apdu); got != c.want {
			t.Errorf("%s → %s, want %s", c.apdu, got, c.want)
		}
	}
	ch := bytes.Repeat([]byte{0xAB}, 32)
	resp, _ := hex.DecodeString(v.apdu("0088000020" + hex.EncodeToString(ch) + "20"))
	if len(resp) != 34 || !bytes.Equal(resp[32:], []byte{0x90, 0}) {
		t.Fatalf("INTERNAL AUTHENTICATE answered % X", resp)
	}
	if ok, _ := cardauth.Verify(master, "4000123456789010", ch, resp[:32]); !ok {
		t.Fatal("the emulated card's answer does not verify")
	}
	v.send([]byte{0x02}) // reset forgets the selection
	if got := v.apdu(getID); got != "6985" {
		t.Errorf("GET ID after reset: %s", got)
	}
}

func TestUnknownAndClonedCards(t *testing.T) {
	_, v := insert(t, UnknownCard())
	v.send([]byte{0x04})
	if atr := v.recv(); !bytes.Equal(atr, OtherATR) {
		t.Fatalf("ATR % X", atr)
	}
	if got := v.apdu(selectPolaris); got != "6a82" {
		t.Fatalf("unknown card SELECT: %s", got)
	}

	_, v = insert(t, ClonedCard("4000123456789010"))
	v.apdu(selectPolaris)
	ch := bytes.Repeat([]byte{0x11}, 32)
	resp, _ := hex.DecodeString(v.apdu("0088000020" + hex.EncodeToString(ch) + "20"))
	if len(resp) != 34 {
		t.Fatalf("cloned card answered % X", resp)
	}
	if ok, _ := cardauth.Verify(master, "4000123456789010", ch, resp[:32]); ok {
		t.Fatal("a cloned card's answer verified")
	}
}

func TestFaults(t *testing.T) {
	s, v := insert(t, PlayerCard(master, "4000123456789010"))
	v.apdu(selectPolaris)
	s.SetFault(GarbageOnAuthenticate)
	if got := v.apdu("0088000010" + hex.EncodeToString(make([]byte, 16)) + "20"); got != "133742" {
		t.Errorf("garbage: %s", got)
	}
	s.SetFault(GarbageID)
	if got := v.apdu(getID); got != hex.EncodeToString([]byte("12AB"))+"9000" {
		t.Errorf("garbage id: %s", got)
	}
	s.SetFault(RemoveOnAuthenticate)
	v.send(append([]byte{0, 0x88, 0, 0, 16}, make([]byte, 17)...))
	var b [1]byte
	if _, err := v.c.Read(b[:]); err != io.EOF {
		t.Fatalf("card pulled mid-command: read %v", err)
	}
	if n := len(s.APDUs()); n != 4 {
		t.Errorf("%d APDUs recorded", n)
	}
	if err := s.Insert(PlayerCard(master, "4000123456789010")); err == nil {
		t.Error("insert into a slot whose vpcd is gone succeeded") // the test's listener is closed
	}
}

func TestBadFramesAreNoted(t *testing.T) {
	s, v := insert(t, PlayerCard(master, "4000123456789010"))
	v.send([]byte{0x09}) // no such control byte
	v.send([]byte{0x04})
	v.recv() // still answering
	if errs := s.Errors(); len(errs) != 1 {
		t.Fatalf("errors %v", errs)
	}
}
